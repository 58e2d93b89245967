// Placeholder while the movements are written (issue 7); removed when the last one lands.
import type { Movement } from '../types.js';

/** A movement that refuses every table count. */
export function unwritten(name: string): Movement {
  const why = `${name}: not written yet`;
  return { name, kind: 'pairs', summary: why, source: '', check: () => why, generate: () => { throw new Error(why); } };
}
