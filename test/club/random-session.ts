// Random finished sessions for the export property tests (issue 19): a real movement's schedule, a random deal per
// tray, and a random result at every table that plays it (whist tricks with now and then a revoke under Dup. X.4 or
// an "average score for the deal", or bridge contracts with a pass-out or a director's award), scored by the club's
// own scoring, so the report is what the director would publish.
import fc from 'fast-check';
import { formatCard } from '../../src/cards/card.js';
import { formatDeal } from '../../src/cards/deal.js';
import { SEATS } from '../../src/cards/seat.js';
import { movementByName } from '../../src/club/movements/index.js';
import { scoreTravellers } from '../../src/club/scoring/index.js';
import type { ScoreMethod, SessionExport, TrayRecord, Traveller } from '../../src/club/types.js';
import { createRng, type Rng } from '../../src/sim/prng.js';
import { randomDeal } from '../../src/sim/random-deal.js';
import { randomCardOf, randomContract, formatContract } from '../../src/sim/simulate.js';

export interface RandomSessionOptions {
  seed: number;
  movement: 'compass' | 'mitchell' | 'howell';
  tables: number;
  boardsPerRound: number;
  bridge: boolean;
  method?: ScoreMethod;
}

/** A whist result: tricks after the penalties; one in eight a revoke (made, marks, tricks won before it). */
function whistResult(rng: Rng, t: Traveller): Traveller {
  const ns = rng.int(14);
  const r = rng.int(16);
  if (r === 3) return { ...t, adjusted: { NS: 13 - ns, EW: ns }, tricks: { NS: ns, EW: 13 - ns } };
  if (r <= 2) {
    // The revoking side loses three tricks to the adversaries (or all it has): made is the play, tricks the penalty.
    const revoker = rng.int(2) === 0 ? 'NS' : 'EW';
    const other = revoker === 'NS' ? 'EW' : 'NS';
    const made = { NS: ns, EW: 13 - ns };
    const moved = Math.min(3, made[revoker]);
    const tricks = { ...made, [revoker]: made[revoker] - moved, [other]: made[other] + moved } as { NS: number; EW: number };
    return { ...t, tricks, made, marks: { [revoker]: '-R', [other]: '+R' }, wonBeforeRevoke: { [revoker]: rng.int(made[revoker] + 1) } };
  }
  return { ...t, tricks: { NS: ns, EW: 13 - ns } };
}

/** A bridge result: a random contract and the declarer's tricks; now and then passed out or a director's award. */
function bridgeResult(rng: Rng, t: Traveller): Traveller {
  const r = rng.int(20);
  if (r === 0) return { ...t, contract: 'PASS' };
  if (r === 1) return { ...t, adjusted: (['average', 'average-plus', 'average-minus'] as const)[rng.int(3)] };
  if (r === 2) { const ns = 30 + 10 * rng.int(5); return { ...t, adjusted: { NS: ns, EW: 100 - ns } }; }
  return { ...t, contract: formatContract(randomContract(rng)), tricks: rng.int(14) };
}

/** A finished session: schedule, records, travellers and the report the club's scoring makes of them. */
export function randomSession(o: RandomSessionOptions): SessionExport {
  const rng = createRng(o.seed);
  const schedule = movementByName(o.movement)!.generate({ tables: o.tables, boardsPerRound: o.boardsPerRound });
  const records: TrayRecord[] = [];
  for (let board = 1; board <= schedule.trays; board++) {
    const hands = randomDeal(rng);
    const dealer = SEATS[(board - 1) % 4];
    const rec: TrayRecord = {
      schema: 1, type: 'tenace.tray', session: 's', board, hands: formatDeal(hands), dealer, rev: 1,
      source: { kind: 'original-play', table: '1', fromSeq: 1, toSeq: 60, at: '2026-12-04T19:00:00Z' },
    };
    if (!o.bridge) rec.trumpCard = formatCard(randomCardOf(rng, hands[SEATS.indexOf(dealer)]));
    records.push(rec);
  }
  const travellers: Traveller[] = [];
  for (const round of schedule.rounds) {
    for (const table of round.tables) {
      for (const board of table.trays) {
        if (board === null || !table.ns || !table.ew) continue;
        const t: Traveller = { board, ns: table.ns, ew: table.ew, table: table.table, round: round.round };
        travellers.push(o.bridge ? bridgeResult(rng, t) : whistResult(rng, t));
      }
    }
  }
  // Dup. IV.9, V.1: "the average score for the deal" needs other tables that played it; one result in sixteen.
  if (!o.bridge) {
    travellers.forEach((t, i) => {
      const others = travellers.filter((x) => x.board === t.board && x !== t && x.adjusted === undefined);
      if (rng.int(16) === 0 && others.length >= 2 && t.marks === undefined) travellers[i] = { ...t, adjusted: 'average' };
    });
  }
  const report = scoreTravellers(travellers, o.method ? { method: o.method } : {});
  return {
    club: 'Hoyle Club', session: `s${o.seed}`, date: '2026-12-04', variant: o.bridge ? 'bridge' : 'duplicate-whist',
    schedule, records, travellers, report,
  };
}

/** fast-check sessions of every movement and scoring method the exports carry, for the round-trip properties. */
export const randomSessions = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  movement: fc.constantFrom('compass' as const, 'mitchell' as const, 'howell' as const),
  tables: fc.integer({ min: 3, max: 5 }),
  boardsPerRound: fc.integer({ min: 1, max: 2 }),
  game: fc.constantFrom('average', 'matchpoints', 'cross-imps', 'butler'),
}).map((o) => randomSession({ ...o, bridge: o.game !== 'average', method: o.game as 'average' }));
