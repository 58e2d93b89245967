// An independent referee for simulated play, written from the rules rather than from src/sim: it keeps hands as
// sets of card numbers and decides trick winners by its own comparison, so a bug in the generator's bit tricks or
// in its use of winningIndex cannot hide behind the same bug here.

export interface Play { seat: number; card: number }

export interface Renounce { trick: number; seat: number; card: number; led: number }

export interface Referee {
  problems: string[];
  /** Every renounce in error (the player held the suit led), in order. */
  renounces: Renounce[];
  /** Leader of each trick, as derived from the previous winner. */
  leaders: number[];
  winners: number[];
  /** For each trick, the holdings of each seat just before the trick: [seat] -> cards. */
  before: number[][][];
}

const suit = (c: number) => Math.floor(c / 13);
const rank = (c: number) => c % 13;

/** Cards of a hand given as four 13-bit suit masks. */
export function cardsOfMasks(h: readonly number[]): number[] {
  const out: number[] = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) if ((h[s] >> r) & 1) out.push(s * 13 + r);
  return out;
}

/** Referee a whole deal of play: cards, seats, rotation, leaders, following suit, and winners. */
export function referee(hands: readonly (readonly number[])[], plays: readonly Play[], leader: number, trump: number, winners?: readonly number[]): Referee {
  const problems: string[] = [];
  const renounces: Renounce[] = [];
  const held = hands.map((h) => new Set(cardsOfMasks(h)));
  const size = held[0].size;
  const out: Referee = { problems, renounces, leaders: [], winners: [], before: [] };
  if (plays.length !== size * 4) problems.push(`${plays.length} plays for ${size} tricks`);
  const seen = new Set<number>();
  const perSeat = [0, 0, 0, 0];
  let lead = leader;
  for (let t = 0; t * 4 < plays.length; t++) {
    out.leaders.push(lead);
    out.before.push(held.map((h) => [...h]));
    const trick = plays.slice(t * 4, t * 4 + 4);
    const led = suit(trick[0].card);
    trick.forEach((p, j) => {
      const want = (lead + j) % 4;
      if (p.seat !== want) problems.push(`trick ${t + 1} card ${j + 1}: seat ${p.seat} plays, expected ${want}`);
      if (seen.has(p.card)) problems.push(`card ${p.card} played twice`);
      seen.add(p.card);
      perSeat[p.seat]++;
      if (!held[p.seat].has(p.card)) problems.push(`trick ${t + 1}: seat ${p.seat} plays ${p.card}, not in its hand`);
      if (j > 0 && suit(p.card) !== led && [...held[p.seat]].some((c) => suit(c) === led)) {
        renounces.push({ trick: t + 1, seat: p.seat, card: p.card, led });
      }
      held[p.seat].delete(p.card);
    });
    if (trick.length < 4) break;
    // The highest trump wins, else the highest card of the suit led.
    let best = 0;
    for (let j = 1; j < 4; j++) {
      const c = trick[j].card, b = trick[best].card;
      const better = suit(c) === suit(b) ? rank(c) > rank(b) : suit(c) === trump;
      if (better) best = j;
    }
    lead = trick[best].seat;
    out.winners.push(lead);
    if (winners && winners[t] !== lead) problems.push(`trick ${t + 1}: reported winner ${winners[t]}, referee says ${lead}`);
  }
  if (winners && winners.length !== out.winners.length) problems.push(`${winners.length} winners reported for ${out.winners.length} tricks`);
  for (let s = 0; s < 4; s++) if (perSeat[s] !== size) problems.push(`seat ${s} plays ${perSeat[s]} cards, not ${size}`);
  if (seen.size !== size * 4) problems.push(`${seen.size} distinct cards played`);
  return out;
}
