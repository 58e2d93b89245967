// The replay's fast path (replay-fast.ts) hands this the games it does not pass as regular: one game's text read
// by pbn.ts and folded through the engine's Table, exactly as `replay` folds it, into its JSON.
import { isPlayable, parsePbn, recordToTableLog } from '../formats/index.js';
import { Table } from '../laws/engine.js';
import { dealJson } from './replay.js';

/**
 * One game's JSON as `replay --json` writes it; '' when the game yields no record and no problem (Note tags alone);
 * null when pbn.ts finds a problem, the game cannot be replayed or is not bridge (replay.ts must then read the file).
 * `first`: the file's first deal, whose facts `replay` works out.
 */
export function slowGameJson(text: string, first: boolean): string | null {
  const { records, errors } = parsePbn(text);
  if (errors.length > 0 || records.length > 1) return null;
  if (records.length === 0) return '';
  const r = records[0];
  if (!isPlayable(r)) return null;
  const events = recordToTableLog(r);
  const t = new Table({ keepEvents: false, facts: first });
  for (let i = 0; i < events.length; i++) t.apply(events[i]);
  const d = t.results()[0];
  // Another game would bring a score sheet (decided by the file's first deal): replay.ts keeps it.
  if (d.variant !== 'bridge') return null;
  return JSON.stringify(dealJson(d, undefined));
}
