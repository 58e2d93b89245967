// Every finding of the engine at every table, for the director's console: the director folds each table's events
// through the same engine as the table (fold.ts), so a renounce in error found at an overplay is found here too,
// whether or not the table's own `director` message got through. A finding is open until a decision of the director
// names its board at its table (an adjusted score, a fouled board's groups, a late play, or "the result stands"); it
// is ruled after.
import type { Finding } from '../../laws/types.js';
import type { DirectorFinding } from '../types.js';
import type { StoredDecision } from './store.js';
import { compareIds } from '../scoring/collate.js';

/** A deal's findings, as the engine gave them, and where the deal was played. */
interface DealFindings { table: string; board: number; round?: number; fromSeq: number; findings: Finding[]; inPlay: boolean }

/** The findings of the deals the director has folded, by table and deal. */
export class FindingsBook {
  private readonly deals = new Map<string, DealFindings>();

  /** A deal is over (or changed once over): its findings replace what was noted of it. */
  noteDeal(table: string, board: number, round: number | undefined, fromSeq: number, findings: readonly Finding[]): void {
    const key = `${table}:${fromSeq}`;
    if (findings.length === 0) this.deals.delete(key);
    else this.deals.set(key, { table, board, ...(round !== undefined ? { round } : {}), fromSeq, findings: findings.slice(), inPlay: false });
  }

  /**
   * The findings, newest deal first: the completed deals' and, from `live`, those of each deal still in play.
   * `decisions` are the director's journaled decisions, which rule the findings of the board and table they name.
   */
  list(decisions: Iterable<StoredDecision>, live: Iterable<{ table: string; board: number; round?: number; fromSeq: number; findings: readonly Finding[] }> = []): DirectorFinding[] {
    const ruled = rulings(decisions);
    const all = [...this.deals.values()];
    for (const l of live) {
      if (l.findings.length > 0 && !this.deals.has(`${l.table}:${l.fromSeq}`)) all.push({ ...l, findings: l.findings.slice(), inPlay: true });
    }
    all.sort((a, b) => (b.findings.at(-1)?.seq ?? b.fromSeq) - (a.findings.at(-1)?.seq ?? a.fromSeq) || compareIds(a.table, b.table));
    return all.flatMap((d) => d.findings.map((f, i): DirectorFinding => {
      const ruling = ruled.get(`${d.board}:${d.table}`);
      return {
        id: `${d.table}:${d.fromSeq}:${i}`, table: d.table, board: d.board, ...(d.round !== undefined ? { round: d.round } : {}),
        kind: f.kind, seat: f.seat, trick: f.trick, law: f.law, ...(f.card !== undefined ? { card: f.card } : {}), message: f.message,
        ...(f.seq !== undefined ? { seq: f.seq } : {}), ...(d.inPlay ? { inPlay: true as const } : {}),
        state: ruling ? 'ruled' : 'open', ...(ruling ? { ruling } : {}),
      };
    }));
  }
}

/** The boards and tables (`board:table`) the decisions taken name, with the decision. */
function rulings(decisions: Iterable<StoredDecision>): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of decisions) {
    if ((d.response as { ok?: boolean }).ok !== true) continue;
    const p = d.request as { board?: number; table?: string; groups?: string[][] };
    if (p.board === undefined) continue;
    if (p.table !== undefined) out.set(`${p.board}:${p.table}`, d.cmd);
    for (const t of p.groups?.flat() ?? []) out.set(`${p.board}:${t}`, d.cmd);
  }
  return out;
}
