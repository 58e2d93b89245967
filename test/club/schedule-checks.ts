// Test helpers shared by the movement tests: the tray invariants every schedule keeps, whatever its participants are.
import { expect } from 'vitest';
import type { Movement, MovementOptions } from '../../src/club/types.js';
import type { Schedule } from '../../src/club/types.js';

/**
 * Broken tray invariants, as sentences: a tray at two tables in one slot of a round, an original flag that is not the
 * tray's first play (tables in number order within a slot: the order markOriginals and the session plan use), a tray
 * never played or without exactly one original.
 */
export function trayProblems(s: Schedule): string[] {
  const out: string[] = [];
  const played = new Set<number>();
  const originals = new Map<number, number>();
  for (const r of s.rounds) {
    const slots = Math.max(...r.tables.map((t) => t.trays.length));
    for (let k = 0; k < slots; k++) {
      const here = new Map<number, number>();
      for (const t of [...r.tables].sort((a, b) => a.table - b.table)) {
        const tray = t.trays[k];
        if (tray === null || tray === undefined) continue;
        if (here.has(tray)) out.push(`round ${r.round} slot ${k}: tray ${tray} at tables ${here.get(tray)} and ${t.table}`);
        here.set(tray, t.table);
        const first = !played.has(tray);
        played.add(tray);
        if (t.original?.[k]) originals.set(tray, (originals.get(tray) ?? 0) + 1);
        if (first !== Boolean(t.original?.[k])) out.push(`round ${r.round} table ${t.table}: tray ${tray} original flag is not its first play`);
      }
    }
  }
  for (let tray = 1; tray <= s.trays; tray++) {
    if (!played.has(tray)) out.push(`tray ${tray} is never played`);
    if (originals.get(tray) !== 1) out.push(`tray ${tray} has ${originals.get(tray) ?? 0} originals`);
  }
  return out;
}

/** The movement refuses these options, in check() and in generate(), with a reason matching `words`. */
export function refused(m: Movement, opts: MovementOptions, words: RegExp): void {
  const why = m.check(opts);
  expect(why).toMatch(words);
  expect(() => m.generate(opts)).toThrow(why!);
}
