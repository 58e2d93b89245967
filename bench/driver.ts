// Serial line → TableEvent: the seat-reader driver (BridgeDriver.receive: the capped line splitter, the byte-level
// decoder of arrive/leave/hb lines and decodeLine for the rest, with CRC and seq checks, presence set J, seat map,
// deck lookup, `event` emission) against a bare @serialport/parser-readline
// ReadlineParser fed the SAME bytes, in the same process, in alternating rounds (issue 3, Benchmark).
//
// The corpus is what a firmware bridge sends during a session: `hello`, then for every deal of a seeded corpus of
// legally played bridge deals, one `arrive` per card placed and one `leave` per card lifted (after each trick), all
// with consecutive seqs and valid CRC-8 trailers, and a heartbeat (`hb`) after every `hbEvery` card lines.
//
// Two measurements:
// - Throughput: the whole corpus cut into `chunk`-byte pieces (64: a USB full-speed bulk packet), through each side;
//   lines per second, median of rounds; the ratio is driver time / bare parser time (goal ≤ 1.2×). Two intermediate
//   cases (the driver's LineSplitter alone, then LineSplitter + decodeLine) show where the overhead goes.
// - Latency: one line per write (a card at human pace arrives alone), hrtime from just before the bytes go in to the
//   TableEvent coming out of the driver (`event` listener) versus the line coming out of the bare parser (`data`
//   listener), for the arrive/leave lines only; p50/p99 over every sample of every round.
//
// Verdicts run after the timing (bench/rules.ts: results held alive before timing make V8 pretenure the code under
// test): the driver must emit exactly the planned places and lifts, in order, with no bad line, gap or duplicate.
import { performance } from 'node:perf_hooks';
import { ReadlineParser } from '@serialport/parser-readline';
import { BridgeDriver, type SeatEvent } from '../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../src/hardware/deck.js';
import { planSteps } from '../src/hardware/emulator.js';
import { LineSplitter } from '../src/hardware/line-splitter.js';
import { decodeLine, encodeFrame, type Frame, nextDeviceSeq } from '../src/hardware/protocol.js';
import { SeatMap } from '../src/hardware/seat-map.js';
import { createRng } from '../src/sim/prng.js';
import { simulateDeal } from '../src/sim/simulate.js';
import { type BenchCase, type BenchReport, type SanityLine, measure, table } from './harness.js';

export interface DriverBenchOptions {
  seed: number;
  /** Deals in the corpus; each gives 52 arrive and 52 leave lines. */
  deals: number;
  warmup: number;
  rounds: number;
  /** Bytes per write in the throughput cases. */
  chunk: number;
  /** A heartbeat line after every this many card lines. */
  hbEvery: number;
  /** Latency rounds per side (each covers every card line of the corpus). */
  latencyRounds: number;
}

export const DRIVER_DEFAULTS: DriverBenchOptions = { seed: 20_240_601, deals: 200, warmup: 2, rounds: 7, chunk: 64, hbEvery: 4, latencyRounds: 5 };

interface Corpus {
  /** The whole session as bytes. */
  bytes: Buffer;
  /** Line starts and ends (end excludes the "\n") in `bytes`. */
  starts: Uint32Array;
  ends: Uint32Array;
  /** 1 for an arrive/leave line. */
  isCard: Uint8Array;
  lines: number;
  cardLines: number;
  hbLines: number;
  places: number;
  lifts: number;
  /** Rolling hash of the planned TableEvents (type, seat, card), in order. */
  expectHash: number;
}

/** FNV-1a over a string, continuing from `h`. */
function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
const FNV0 = 2166136261;

/** Build the protocol lines of the corpus. Only compact data survives this function (bytes, offsets, a hash). */
function buildCorpus(opts: DriverBenchOptions, decks: DeckSet, seatMap: SeatMap): Corpus {
  const rng = createRng(opts.seed);
  const lines: string[] = [];
  const card: number[] = [];
  const put = (f: Frame, isCard: boolean) => { lines.push(encodeFrame(f)); card.push(isCard ? 1 : 0); };
  put({ seq: 0, type: 'hello', fw: '1.0.0-bench', proto: 2, readers: 4, reset: 'power', boot: 1 }, false);
  let seq = 0;
  seq = nextDeviceSeq(seq);
  put({ seq, type: 'cfg', pollMs: 50, misses: 3 }, false);
  const onReader = [0, 0, 0, 0];
  let uptime = 1, cardLines = 0, hbLines = 0, places = 0, lifts = 0, h = FNV0;
  for (let d = 0; d < opts.deals; d++) {
    const sim = simulateDeal(rng, { variant: 'bridge', board: d + 1, withHands: true });
    for (const step of planSteps(sim.events, decks, seatMap, 4)) {
      if (step.kind !== 'arrive' && step.kind !== 'leave') continue;
      seq = nextDeviceSeq(seq);
      put({ seq, type: step.kind, reader: step.reader, uid: step.uid }, true);
      cardLines++;
      const ev = step.event as { type: string; seat: string; card?: string };
      h = fnv(h, `${ev.type}|${ev.seat}|${ev.card}\n`);
      if (step.kind === 'arrive') { places++; onReader[step.reader]++; } else { lifts++; onReader[step.reader]--; }
      if (cardLines % opts.hbEvery === 0) {
        seq = nextDeviceSeq(seq);
        put({ seq, type: 'hb', uptimeS: uptime++, status: 'OOOO', tags: onReader.map((n) => Math.min(9, n)), boot: 1 }, false);
        hbLines++;
      }
    }
  }
  const n = lines.length;
  const starts = new Uint32Array(n), ends = new Uint32Array(n), isCard = new Uint8Array(card);
  let off = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = off;
    ends[i] = off + lines[i].length;
    off = ends[i] + 1;
  }
  const bytes = Buffer.from(lines.join('\n') + '\n', 'latin1');
  return { bytes, starts, ends, isCard, lines: n, cardLines, hbLines, places, lifts, expectHash: h };
}

/** Cut `buf` into pieces of `size` bytes (views, no copies). */
function chunks(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, Math.min(buf.length, i + size)));
  return out;
}

/** Nearest-rank percentile of the first `n` values of `xs` (sorted in place). */
function percentile(xs: Float64Array, p: number): number {
  const k = Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1));
  return xs[k];
}

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

/** Run the whole driver benchmark and return its report. */
export function benchDriver(opts: DriverBenchOptions = DRIVER_DEFAULTS): BenchReport {
  const t0 = Date.now();
  const decks = new DeckSet([virtualDeck('bench-red'), virtualDeck('bench-blue')]);
  const seatMap = SeatMap.default();
  const corpus = buildCorpus(opts, decks, seatMap);
  const pieces = chunks(corpus.bytes, opts.chunk);
  const lineBufs: Buffer[] = [];
  for (let i = 0; i < corpus.lines; i++) lineBufs.push(corpus.bytes.subarray(corpus.starts[i], corpus.ends[i] + 1));
  const buildMs = Date.now() - t0;

  // --- the four sides, each one long-lived instance as in a daemon
  let bareLines = 0;
  const bare = new ReadlineParser();
  bare.on('data', () => { bareLines++; });

  let splitLines = 0;
  const splitter = new LineSplitter((item) => { if (typeof item === 'string') splitLines++; });

  let decoded = 0;
  const splitDecode = new LineSplitter((item) => { if (typeof item === 'string' && decodeLine(item).ok) decoded++; });

  let events = 0;
  const driver = new BridgeDriver({ path: '/dev/bench-bridge', bridgeId: 'bench', decks, seatMap });
  driver.on('event', () => { events++; });

  const cases: BenchCase<Buffer[]>[] = [
    { name: 'bare: ReadlineParser (lines out)', units: corpus.lines, input: pieces, run: (cs) => { bareLines = 0; for (let i = 0; i < cs.length; i++) bare.write(cs[i]); return bareLines; } },
    { name: 'driver: BridgeDriver.receive (events out)', units: corpus.lines, input: pieces, run: (cs) => { events = 0; for (let i = 0; i < cs.length; i++) driver.receive(cs[i]); return events; } },
    { name: 'part: LineSplitter only', units: corpus.lines, input: pieces, run: (cs) => { splitLines = 0; for (let i = 0; i < cs.length; i++) splitter.push(cs[i]); return splitLines; } },
    { name: 'part: LineSplitter + decodeLine', units: corpus.lines, input: pieces, run: (cs) => { decoded = 0; for (let i = 0; i < cs.length; i++) splitDecode.push(cs[i]); return decoded; } },
  ];
  const results = measure(cases, { warmup: opts.warmup, rounds: opts.rounds });

  // --- latency: one line per write, arrive/leave lines sampled, alternating sides each round
  const perRound = corpus.cardLines;
  const latBare = new Float64Array(perRound * opts.latencyRounds);
  const latDriver = new Float64Array(perRound * opts.latencyRounds);
  let outAt = 0;
  let outCount = 0;
  const markBare = () => { outAt = performance.now(); outCount++; };
  const markDriver = () => { outAt = performance.now(); outCount++; };
  bare.on('data', markBare);
  driver.on('event', markDriver);
  let missing = 0;
  const latencyRun = (side: 'bare' | 'driver', into: Float64Array, base: number) => {
    let k = base;
    for (let i = 0; i < corpus.lines; i++) {
      const buf = lineBufs[i];
      if (corpus.isCard[i] === 0) {
        if (side === 'bare') bare.write(buf); else driver.receive(buf);
        continue;
      }
      const before = outCount;
      const t = performance.now();
      if (side === 'bare') bare.write(buf); else driver.receive(buf);
      if (outCount === before) { missing++; into[k++] = NaN; continue; }
      into[k++] = outAt - t;
    }
  };
  // One untimed pass each so the one-line-per-write path is compiled too.
  latencyRun('bare', new Float64Array(perRound), 0);
  latencyRun('driver', new Float64Array(perRound), 0);
  missing = 0;
  for (let r = 0; r < opts.latencyRounds; r++) {
    const order: ('bare' | 'driver')[] = r % 2 === 0 ? ['bare', 'driver'] : ['driver', 'bare'];
    for (const side of order) {
      if (gc) gc();
      latencyRun(side, side === 'bare' ? latBare : latDriver, r * perRound);
    }
  }
  bare.off('data', markBare);
  driver.off('event', markDriver);
  const sortFinite = (xs: Float64Array) => Float64Array.from(xs.filter((x) => Number.isFinite(x))).sort();
  const sb = sortFinite(latBare), sd = sortFinite(latDriver);
  const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
  const p = { b50: percentile(sb, 50), b99: percentile(sb, 99), d50: percentile(sd, 50), d99: percentile(sd, 99) };

  // --- verdicts, after all timing
  const sanity: SanityLine[] = [];
  const count = (what: string, got: number, want: number): SanityLine => ({ what, value: `${got} / ${want}`, ok: got === want });
  bareLines = 0;
  for (const c of pieces) bare.write(c);
  sanity.push(count('bare: lines out of the corpus', bareLines, corpus.lines));
  const check = new BridgeDriver({ path: '/dev/bench-check', bridgeId: 'bench', decks, seatMap });
  let hash = FNV0, got = 0, places = 0, lifts = 0;
  check.on('event', (ev: SeatEvent) => {
    got++;
    if (ev.type === 'place') places++; else lifts++;
    hash = fnv(hash, `${ev.type}|${ev.seat}|${'card' in ev ? ev.card : undefined}\n`);
  });
  for (const c of pieces) check.receive(c);
  const st = check.stats;
  sanity.push(count('driver: TableEvents out (= card lines)', got, corpus.cardLines));
  sanity.push({ what: 'driver: places + lifts as planned', value: `${places} + ${lifts} / ${corpus.places} + ${corpus.lifts}`, ok: places === corpus.places && lifts === corpus.lifts });
  sanity.push({ what: 'driver: events equal the plan (type, seat, card, order)', value: hash === corpus.expectHash ? 'same hash' : 'DIFFERENT', ok: hash === corpus.expectHash });
  sanity.push(count('driver: valid lines', st.linesOk, corpus.lines));
  sanity.push(count('driver: bad lines + gaps + duplicates + unknown tags', st.badTotal + st.gaps + st.duplicates + st.unknownTags, 0));
  sanity.push(count('timed driver: bad lines + gaps + duplicates', driver.stats.badTotal + driver.stats.gaps + driver.stats.duplicates, 0));
  sanity.push(count('latency: card lines with no output', missing, 0));

  // Paired per-round ratios (cases of one round run back to back), a steadier figure than a ratio of medians when the
  // machine is busy: the rounds differ from each other far more than two neighbouring runs do.
  const paired = (num: number, den: number) => {
    const r = results[num].rates.map((x, i) => x / results[den].rates[i]).sort((a, b) => a - b);
    return `median ${r[r.length >> 1].toFixed(2)}x, range ${r[0].toFixed(2)}x-${r[r.length - 1].toFixed(2)}x`;
  };
  const latTable = table(
    ['latency, one line per write', 'samples', 'p50', 'p99'],
    [
      ['bare: bytes in → line out', String(sb.length), us(p.b50), us(p.b99)],
      ['driver: bytes in → TableEvent out', String(sd.length), us(p.d50), us(p.d99)],
      ['ratio driver / bare', '', `${(p.d50 / p.b50).toFixed(2)}x`, `${(p.d99 / p.b99).toFixed(2)}x`],
    ],
  );
  return {
    title: 'driver: serial line → TableEvent (BridgeDriver vs bare ReadlineParser), lines/second',
    notes: [
      `corpus: ${opts.deals} legally played bridge deals (seed ${opts.seed}) as the bridge sends them: hello, cfg, ${corpus.cardLines} arrive/leave lines, ${corpus.hbLines} heartbeats (one per ${opts.hbEvery} card lines); ${corpus.lines} lines, ${corpus.bytes.length} bytes, valid CRC-8 and consecutive seqs; built in ${buildMs} ms`,
      `throughput: the corpus in ${opts.chunk}-byte writes; ${opts.warmup} warm-up run(s) per case, ${opts.rounds} alternating rounds of >= 400 ms; median of rounds; node ${process.version}; goal: driver time / bare time <= 1.2x`,
      `paired per-round ratio, driver time / bare time: ${paired(0, 1)} (LineSplitter+decodeLine / bare: ${paired(0, 3)})`,
      `latency: one line per write, performance.now() before the write to the driver's 'event' / the parser's 'data' listener; arrive/leave lines only; ${opts.latencyRounds} rounds per side, sides alternating`,
      '',
      latTable,
    ],
    results,
    ratios: [
      // x.median / y.median of rates = (bare rate) / (driver rate) = driver time / bare time.
      ['driver time / bare parser time (goal <= 1.2x)', cases[0].name, cases[1].name],
      ['LineSplitter time / bare parser time', cases[0].name, cases[2].name],
      ['LineSplitter+decodeLine time / bare parser time', cases[0].name, cases[3].name],
    ],
    sanity,
  };
}
