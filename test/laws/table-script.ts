// A tiny script language for law tests: "N:SA E:S8 S:S5 W:S2 | quit" drives a Table as the sensors would.
import { Table } from '../../src/laws/engine.js';
import type { DealEvent } from '../../src/formats/table-log.js';
import type { Seat } from '../../src/cards/seat.js';

/**
 * Run a script on a table: `N:SA` places SA in N's zone, `-N:SA` lifts it, `quit` lifts every card of the
 * last complete trick (turned and quitted), `claim:S:3` claims.
 */
export function run(t: Table, script: string): void {
  for (const tok of script.split(/\s+/).filter(Boolean)) {
    if (tok === '|') continue;
    if (tok === 'quit') {
      const last = t.result()!.tricks.at(-1)!;
      for (const s of Object.keys(last.cards) as Seat[]) t.lift(s, last.cards[s]!);
      continue;
    }
    const m = /^(-?)([NESW]):(.+)$/.exec(tok);
    const c = /^claim:([NESW]):(\d+)$/.exec(tok);
    if (c) t.claim(c[1] as Seat, Number(c[2]));
    else if (m) (m[1] ? t.lift(m[2] as Seat, m[3]) : t.place(m[2] as Seat, m[3]));
    else throw new Error(`bad script token ${tok}`);
  }
}

/** A fresh table with one deal started. */
export function table(deal: Omit<DealEvent, 'type'>): Table {
  const t = new Table();
  t.deal(deal);
  return t;
}

/** Findings of the current deal, reduced to kind, seat, trick and law. */
export function brief(t: Table): string[] {
  return t.findings().map((f) => `${f.kind} ${f.seat} t${f.trick} ${f.law}`);
}
