// Rules-checking throughput: our engine (`replay` over table logs) against @bridge-tools/core's Board.isPlayValid,
// on the same seeded corpus of legal bridge deals. Both sides also face a negative control (one renounce in error
// per deal) outside the timing, so a fast engine that checks nothing cannot pass the sanity table.
import { Board } from '@bridge-tools/core';
import { SEATS } from '../src/cards/seat.js';
import type { TableEvent } from '../src/formats/table-log.js';
import { replay } from '../src/laws/engine.js';
import type { DealResult } from '../src/laws/types.js';
import { type CorpusDeal, type PeerInput, bridgeCorpus, oursOneLog, oursPerDeal, peerInputs } from './corpus.js';
import { type BenchReport, type BenchCase, type SanityLine, measure } from './harness.js';

export interface RulesBenchOptions {
  seed: number;
  deals: number;
  warmup: number;
  rounds: number;
  /** Deals in the negative-control corpus (renounces injected); 0 to skip. */
  controlDeals: number;
}

export const RULES_DEFAULTS: RulesBenchOptions = { seed: 20_240_601, deals: 10_000, warmup: 2, rounds: 7, controlDeals: 1_000 };

/** Our engine over one table log per deal; returns the number of findings (the checksum). */
export function runOurs(logs: readonly TableEvent[][]): number {
  let findings = 0;
  for (let i = 0; i < logs.length; i++) {
    const r = replay(logs[i]);
    for (const d of r.deals) findings += d.findings.length;
  }
  return findings;
}

/** Our engine over the whole corpus as a single table log (a session's journal); returns the number of findings. */
export function runOursOneLog(log: readonly TableEvent[]): number {
  let findings = 0;
  for (const d of replay(log).deals) findings += d.findings.length;
  return findings;
}

/** The peer over the same deals; returns how many it judges valid. */
export function runPeer(inputs: readonly PeerInput[]): number {
  let valid = 0;
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i];
    if (Board.isPlayValid(x.deal, x.play, x.contract)) valid++;
  }
  return valid;
}

/** How many deals our results reproduce exactly: 13 tricks, the simulator's winners, and the trick count. */
function agreeing(results: readonly DealResult[], corpus: readonly CorpusDeal[]): number {
  let n = 0;
  for (let i = 0; i < corpus.length && i < results.length; i++) {
    const r = results[i], sim = corpus[i].sim;
    const ns = sim.winners.filter((w) => (w & 1) === 0).length;
    const same = r.tricks.length === 13 && r.tricks.every((t, k) => t.winner === SEATS[sim.winners[k]]) && r.tricksWon.NS === ns && r.tricksWon.EW === 13 - ns;
    if (same) n++;
  }
  return n;
}

function count(what: string, got: number, want: number): SanityLine {
  return { what, value: `${got} / ${want}`, ok: got === want };
}

/** Build the corpus, check both engines' verdicts, time them in alternating rounds, and report. */
export function benchRules(opts: RulesBenchOptions = RULES_DEFAULTS): BenchReport {
  const t0 = Date.now();
  const corpus = bridgeCorpus({ seed: opts.seed, deals: opts.deals });
  const perDeal = oursPerDeal(corpus);
  const oneLog = oursOneLog(corpus);
  const peer = peerInputs(corpus);
  const buildMs = Date.now() - t0;
  const n = corpus.length;

  const cases: BenchCase<any>[] = [
    { name: 'ours: replay, one log per deal', units: n, input: perDeal, run: runOurs },
    { name: 'ours: replay, whole corpus as one log', units: n, input: oneLog, run: runOursOneLog },
    { name: 'peer: Board.isPlayValid', units: n, input: peer, run: runPeer },
  ];
  const results = measure(cases, { warmup: opts.warmup, rounds: opts.rounds });

  // Verdicts after the timing, untimed: the numbers are only worth printing if both sides accept every legal deal.
  // Run after, not before: holding 10,000 results alive first makes V8 pretenure the engine's allocations and the
  // timing would measure old-space collections caused by the benchmark, not by the engine.
  const sanity: SanityLine[] = [];
  sanity.push(count('peer isPlayValid = true (legal corpus)', runPeer(peer), n));
  const perResults = perDeal.map((log) => replay(log).deals);
  sanity.push(count('ours per-deal: one result per log', perResults.filter((d) => d.length === 1).length, n));
  const flat = perResults.flatMap((d) => d);
  sanity.push(count('ours per-deal: deals with zero findings', flat.filter((d) => d.findings.length === 0).length, n));
  sanity.push(count('ours per-deal: tricks/winners as simulated', agreeing(flat, corpus), n));
  const whole = replay(oneLog).deals;
  sanity.push(count('ours one-log: deal results', whole.length, n));
  sanity.push(count('ours one-log: deals with zero findings', whole.filter((d) => d.findings.length === 0).length, n));
  sanity.push(count('ours one-log: tricks/winners as simulated', agreeing(whole, corpus), n));

  if (opts.controlDeals > 0) {
    // Negative control: a different seed, one renounce in error per deal wherever one is possible.
    const bad = bridgeCorpus({ seed: opts.seed + 1, deals: opts.controlDeals, renounce: true });
    const injected = bad.filter((d) => d.sim.injected !== undefined);
    const peerBad = peerInputs(injected);
    sanity.push(count('control: peer isPlayValid = false (renounce injected)', peerBad.length - runPeer(peerBad), injected.length));
    let caught = 0;
    for (const d of injected) {
      const inj = d.sim.injected!;
      const res = replay(d.sim.events).deals[0];
      const hit = res?.findings.some((f) => (f.kind === 'renounce-in-error' || f.kind === 'revoke') && f.seat === SEATS[inj.seat] && (f.trick === inj.trick || f.renounceTrick === inj.trick));
      if (hit) caught++;
    }
    sanity.push(count('control: ours flags the offender\'s renounce', caught, injected.length));
  }

  return {
    title: 'rules: legal-play checking, deals/second',
    notes: [
      `corpus: ${n} fully played bridge deals, seed ${opts.seed}, random contracts (levels 1-7, S H D C NT, any declarer, X/XX), built in ${buildMs} ms`,
      `ours: ${oneLog.length} table events in all (deal, 52 place, 52 lift per deal), hands known; peer: Deal + Trick[] + PlayableContract`,
      `timing: ${opts.warmup} warm-up run(s) of each case, then ${opts.rounds} alternating rounds; median of rounds; node ${process.version}`,
    ],
    results,
    ratios: [
      ['ours per-deal / peer', cases[0].name, cases[2].name],
      ['ours one-log / peer', cases[1].name, cases[2].name],
    ],
    sanity,
  };
}
