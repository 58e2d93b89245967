// Seeded corpora of simulated bridge deals, and their conversion to each engine's input format. Conversion happens
// here, before any timing, so the benchmarks compare checking speed and not format plumbing.
import type { Types } from '@bridge-tools/core';
import { RANK_LETTERS, SUIT_LETTERS } from '../src/cards/card.js';
import { SEATS } from '../src/cards/seat.js';
import type { TableEvent } from '../src/formats/table-log.js';
import { type Contract, parseContract } from '../src/cards/contract.js';
import { createRng } from '../src/sim/prng.js';
import { type SimulatedDeal, simulateDeal } from '../src/sim/simulate.js';
import { playToTableLog } from '../src/sim/to-table-log.js';

export interface CorpusDeal {
  sim: SimulatedDeal;
  contract: Contract;
}

export interface CorpusOptions {
  seed: number;
  deals: number;
  /** Inject one renounce in error per deal at a random trick (a negative control: both engines must object). */
  renounce?: boolean;
}

/** Fully played bridge deals with random contracts (any level, strain incl. NT, declarer, doubling). */
export function bridgeCorpus(opts: CorpusOptions): CorpusDeal[] {
  const rng = createRng(opts.seed);
  const out: CorpusDeal[] = [];
  for (let i = 0; i < opts.deals; i++) {
    const renounceAt = opts.renounce ? { trick: 1 + rng.int(11) } : undefined;
    // Per-deal logs number their events from 1, like a fresh journal for each deal.
    const sim = simulateDeal(rng, { variant: 'bridge', board: i + 1, withHands: true, renounceAt, firstSeq: 1 });
    const c = parseContract(sim.contract!);
    if (!c.ok) throw new Error(c.error);
    out.push({ sim, contract: c.value });
  }
  return out;
}

/** Our input, one table log per deal (the events built by the simulator). */
export function oursPerDeal(corpus: readonly CorpusDeal[]): TableEvent[][] {
  return corpus.map((d) => d.sim.events);
}

/** Our input as a single table log holding every deal, with seq strictly increasing across the whole session. */
export function oursOneLog(corpus: readonly CorpusDeal[]): TableEvent[] {
  const all: TableEvent[] = [];
  let seq = 1;
  for (const d of corpus) {
    const evs = playToTableLog(d.sim.hands, d.sim.plays, {
      variant: 'bridge', board: d.sim.board, dealer: d.sim.dealer, withHands: true, contract: d.sim.contract, firstSeq: seq,
    });
    seq += evs.length;
    for (const e of evs) all.push(e);
  }
  return all;
}

export interface PeerInput {
  deal: Types.Deal;
  play: Types.Trick[];
  contract: Types.PlayableContract;
}

// The peer's Card is {suit: 'S'|'H'|'D'|'C', rank: 'A'..'2'}. Each use gets its own copy, as the peer's own parser
// would produce, so the peer is measured on the data shape it is built for.
const PEER_CARDS: Types.Card[] = Array.from({ length: 52 }, (_, c) => ({
  suit: SUIT_LETTERS[(c / 13) | 0] as Types.Suit,
  rank: RANK_LETTERS[c % 13] as Types.Rank,
}));

/** The peer's input: hands as Card arrays by compass, tricks as arrays of cards in play order, the contract. */
export function peerInputs(corpus: readonly CorpusDeal[]): PeerInput[] {
  return corpus.map(({ sim, contract }) => {
    const deal = { N: [], E: [], S: [], W: [] } as Types.Deal;
    for (let seat = 0; seat < 4; seat++) {
      const h = sim.hands[seat];
      for (let s = 0; s < 4; s++) for (let r = 12; r >= 0; r--) if (h[s] & (1 << r)) deal[SEATS[seat]].push({ ...PEER_CARDS[s * 13 + r] });
    }
    const play: Types.Trick[] = [];
    for (let i = 0; i < sim.plays.length; i += 4) play.push(sim.plays.slice(i, i + 4).map((p) => ({ ...PEER_CARDS[p.card] })));
    const pc: Types.PlayableContract = {
      level: contract.level,
      strain: contract.strain < 0 ? 'NT' : (SUIT_LETTERS[contract.strain] as Types.Suit),
      declarer: SEATS[contract.declarer],
    };
    if (contract.doubled === 1) pc.doubled = true;
    if (contract.doubled === 2) pc.redoubled = true;
    return { deal, play, contract: pc };
  });
}
