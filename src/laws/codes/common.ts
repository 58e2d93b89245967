// Small helpers the codes of laws share: naming seats and sides, building rulings and remedies.
import { SEATS, type Seat, type Side } from '../../cards/seat.js';
import type { Remedy } from '../types.js';
import type { RuleContext, Ruling, ScoreInput } from '../code.js';

/** Seat letter of an index. */
export const S = (i: number): Seat => SEATS[i];

/** Build a ruling. */
export function ruling(law: string, message: string, remedies: Remedy[] = []): Ruling {
  return { law, message, remedies };
}

/** Build a remedy entry. */
export function remedy(r: Remedy['remedy'], option: Remedy['option'], text: string): Remedy {
  return { remedy: r, option, text };
}

/** The side a seat belongs to, by name; in two-handed games the seat itself stands for its side. */
export function sideName(ctx: RuleContext, seat: number): Side | Seat {
  return ctx.seats.length === 2 ? S(seat) : seat & 1 ? 'EW' : 'NS';
}

/** The adversaries of a seat, as a side name (or the other player in two-handed games). */
export function adversaries(ctx: RuleContext, seat: number): Side | Seat {
  return ctx.seats.length === 2 ? S(ctx.seats.find((s) => s !== seat)!) : seat & 1 ? 'NS' : 'EW';
}

/** The adversary on a seat's right (the other player in two-handed games). */
export function rightHandAdversary(ctx: RuleContext, seat: number): number {
  return ctx.seats.length === 2 ? ctx.seats.find((s) => s !== seat)! : (seat + 3) & 3;
}

/** The adversary on a seat's left (the other player in two-handed games). */
export function leftHandAdversary(ctx: RuleContext, seat: number): number {
  return ctx.seats.length === 2 ? ctx.seats.find((s) => s !== seat)! : (seat + 1) & 3;
}

/** Partner of a seat; the seat itself in two-handed games. */
export function partnerSeat(ctx: RuleContext, seat: number): number {
  return ctx.seats.length === 2 ? seat : (seat + 2) & 3;
}

/** True when two seats are on the same side. */
export function sameSide(ctx: RuleContext, a: number, b: number): boolean {
  return ctx.seats.length === 2 ? a === b : (a & 1) === (b & 1);
}

/** Side index of a seat inside a ScoreInput: N-S 0, E-W 1, or the player's position in two-handed games. */
export function scoreSide(seats: readonly number[], seat: number): number {
  return seats.length === 2 ? seats.indexOf(seat) : seat & 1;
}

/**
 * Tricks a side won from trick `from` (1-based) on, counting tricks credited by a claim; the penalty
 * never takes tricks won before the first revoke (Dup. X.4) — or ones the side does not have.
 */
export function tricksWonFrom(input: ScoreInput, side: number, from: number): number {
  let n = 0;
  for (let i = from - 1; i < input.trickWinners.length; i++) if (input.trickWinners[i] === side) n++;
  const played = input.trickWinners.filter((w) => w === side).length;
  return n + (input.tricksWon[side] - played);
}

/**
 * Apply fixed trick transfers: `perRevoke(k)` tricks for the k-th (0-based) revoke of a side, never taking
 * tricks the side won before its first revoke, and leaving `keep` tricks at least (Mort).
 */
export function transferTricks(input: ScoreInput, seats: readonly number[], penalised: (r: ScoreInput['revokes'][number]) => boolean,
  perRevoke: (k: number) => number, keep = 0): [number, number] {
  const scored: [number, number] = [input.tricksWon[0], input.tricksWon[1]];
  for (const side of [0, 1]) {
    const rs = input.revokes.filter((r) => scoreSide(seats, r.seat) === side && penalised(r));
    if (rs.length === 0) continue;
    let want = 0;
    for (let k = 0; k < rs.length; k++) want += perRevoke(k);
    const first = Math.min(...rs.map((r) => r.trick));
    const available = Math.max(0, Math.min(tricksWonFrom(input, side, first), scored[side] - keep));
    const t = Math.min(want, available);
    scored[side] -= t;
    scored[1 - side] += t;
  }
  return scored;
}
