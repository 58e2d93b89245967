// One deal's double-dummy analysis, as `tenace analyse` prints it: the table, the par (bridge), what each side could
// take from the opening lead, and the tricks each card played cost.
import { type Seat, SEATS } from '../cards/seat.js';
import { type PlayAnalysis, analysePlay } from './play.js';
import type { DoubleDummy } from './solver.js';
import { type DdTable, type Par, type ParContract, type Strain, type Vulnerability, STRAINS, nextSeat } from './types.js';

/** What a deal gives the analysis: its hands, the trump, and what the table knows of the bidding and the play. */
export interface DealInput {
  hands: string;
  strain: Strain;
  /** Bridge only: par needs the vulnerability (and the dealer, when known). */
  bridge?: { vulnerable: Vulnerability; dealer?: Seat; declarer?: Seat };
  /** The cards played, in play order from the opening lead. */
  plays: readonly { seat: Seat; card: string }[];
  /** The tricks each side took, as the play or the claim gave them (absent when not known). */
  taken?: { NS: number; EW: number };
}

export interface DealAnalysis {
  table: DdTable;
  par?: Par;
  /** The opening leader, and the tricks each side takes from that lead with best play by both. */
  fromLead?: { leader: Seat; NS: number; EW: number };
  play?: PlayAnalysis;
}

/** Analyse one deal: the table, par for bridge, and the play when cards were played. */
export async function analyseDeal(dd: DoubleDummy, d: DealInput): Promise<DealAnalysis> {
  const table = await dd.table(d.hands);
  const out: DealAnalysis = { table };
  if (d.bridge) out.par = await dd.par(table, d.bridge.vulnerable, d.bridge.dealer);
  const leader = d.plays[0]?.seat ?? (d.bridge?.declarer ? nextSeat(d.bridge.declarer) : undefined);
  if (leader) {
    // The declarer sits on the opening leader's right; the table says what the declarer's side takes.
    const declarer = nextSeat(leader, 3);
    const theirs = table[d.strain][declarer];
    const declarerNS = declarer === 'N' || declarer === 'S';
    out.fromLead = { leader, NS: declarerNS ? theirs : 13 - theirs, EW: declarerNS ? 13 - theirs : theirs };
  }
  if (d.plays.length > 0) out.play = await analysePlay(dd, d.hands, d.strain, d.plays);
  return out;
}

/** A par contract as bridge players write it: "4S by N-S", "5DX by E-W" for a sacrifice. */
export function parContractText(c: ParContract): string {
  const by = c.by === 'NS' ? 'N-S' : c.by === 'EW' ? 'E-W' : c.by;
  return `${c.level + c.overtricks}${c.strain}${c.doubled ? 'X' : ''} by ${by}`;
}

/** The par in a line: "par: E-W +140, 3S by E-W", "par: 0, passed out". */
export function parText(p: Par): string {
  if (p.score === 0 && p.contracts.length === 0) return 'par: 0, passed out';
  const side = p.score >= 0 ? 'N-S' : 'E-W';
  return `par: ${side} +${Math.abs(p.score)}, ${p.contracts.map(parContractText).join(' or ')}`;
}

/** The table in five columns, NT first as club results print it. */
export function tableLines(t: DdTable): string[] {
  const order: Strain[] = ['NT', 'S', 'H', 'D', 'C'];
  return [
    `double dummy  ${order.map((s) => s.padStart(3)).join('')}`,
    ...SEATS.map((seat) => `  ${seat}${' '.repeat(11)}${order.map((s) => String(t[s][seat]).padStart(3)).join('')}`),
  ];
}

/** PBN's OptimumScore and ParContract tag values (NS's score, or EW's when they score). */
export function parTags(p: Par): { OptimumScore: string; ParContract: string } {
  const score = p.score >= 0 ? `NS ${p.score}` : `EW ${-p.score}`;
  const contracts = p.contracts.map((c) => `${c.by} ${c.level + c.overtricks}${c.strain}${c.doubled ? 'X' : ''}`);
  return { OptimumScore: score, ParContract: contracts.length ? contracts.join('; ') : 'Pass' };
}

/** PBN 2.1 §5.7's OptimumResultTable: the tag line, then 20 rows, declarers N S E W and NT S H D C each. */
export function optimumResultTable(t: DdTable): string[] {
  const rows: string[] = [];
  for (const seat of ['N', 'S', 'E', 'W'] as Seat[]) {
    for (const s of ['NT', ...STRAINS.slice(0, 4)] as Strain[]) rows.push(`${seat} ${s.padStart(2)} ${String(t[s][seat]).padStart(2)}`);
  }
  return ['[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]', ...rows];
}
