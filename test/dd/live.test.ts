// Issue 21, item 3: live double-dummy analysis for spectators. An emulated table (firmware emulator → serial line →
// the real daemon → the embedded broker) plays the demo's bridge deal card by card; after each card the retained
// message on the table's `analysis` topic must hold what src/dd gives for that position, worked out here on its own
// (analysePlay's positions, from the deal's hands and the cards played, not from the daemon's table). Under an
// embargo nothing at all is published on it until the tray is released; then the whole deal is. Without libdds the
// topic says that analysis is off.
import type { MqttClient } from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpectatorAnalysis } from '../../src/dd/live.js';
import type { PositionResult } from '../../src/dd/types.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { checkConfigCommand } from '../../src/cli/check-config.js';
import { client, waitFor } from '../feed/broker.js';
import { type RunningSimulation, simulate } from '../web/helpers.js';
import { DEAL, LOG, PLAYS, demoPositions } from './demo-play.js';

const TOPIC = 'tenace/demo/1/analysis';

/** What src/dd gives after 0..51 cards of the demo's play: the positions analysePlay solves, one before each card. */
let expected: PositionResult[];

beforeAll(async () => {
  expected = await demoPositions();
  expect(expected).toHaveLength(52);
}, 120_000);

/** The position as the spectators' message should carry it. */
function asPublished(r: PositionResult) {
  const best = r.cards[0].tricks;
  return { toPlay: r.toPlay, left: r.tricks, cards: r.cards.map((c) => ({ card: c.card, tricks: c.tricks, cost: best - c.tricks })) };
}

/** Every message on any topic of the table, and the analysis messages apart. */
async function listen(run: RunningSimulation): Promise<{ sub: MqttClient; analysis: SpectatorAnalysis[]; all: { topic: string; text: string }[] }> {
  const sub = await client(run.sim.controller.broker!.url, { protocolVersion: 4 });
  const analysis: SpectatorAnalysis[] = [];
  const all: { topic: string; text: string }[] = [];
  sub.on('message', (topic, payload) => {
    all.push({ topic, text: payload.toString() });
    if (topic === TOPIC) analysis.push(JSON.parse(payload.toString()) as SpectatorAnalysis);
  });
  await sub.subscribeAsync('tenace/#', { qos: 1 });
  return { sub, analysis, all };
}

describe('live double-dummy analysis on the spectators\' analysis topic', () => {
  it('after each card, holds what src/dd gives for that position (embargo live)', async () => {
    const run = await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'live' });
    const { sub, analysis } = await listen(run);
    try {
      await run.sim.playEvents([DEAL]);
      await waitFor(() => analysis.some((a) => a.positions.length === 1), 20_000, 'the analysis of the opening lead');
      expect(analysis.at(-1)).toMatchObject({ type: 'tenace.analysis', status: 'on', board: DEAL.board, strain: 'S' });
      expect(analysis.at(-1)!.positions[0]).toMatchObject({ played: 0, trick: 1, won: { NS: 0, EW: 0 }, ...asPublished(expected[0]) });
      let played = 0;
      for (const ev of LOG.slice(1)) {
        await run.sim.playEvents([ev]);
        if (ev.type !== 'place') continue;
        played++;
        const n = played;
        await waitFor(() => analysis.at(-1)?.positions.at(-1)?.played === n, 20_000, `the analysis after card ${n} (${ev.seat} ${ev.card})`);
        const last = analysis.at(-1)!.positions.at(-1)!;
        if (n < 52) expect(last, `after card ${n}`).toMatchObject({ played: n, trick: Math.floor(n / 4) + 1, ...asPublished(expected[n]) });
        else expect(last).toEqual({ played: 52, trick: 14, won: { NS: 11, EW: 2 }, left: { NS: 0, EW: 0 }, cards: [] });
      }
      // The retained message holds the whole deal, position by position.
      const whole = analysis.at(-1)!;
      expect(whole.positions.map((p) => p.played)).toEqual([...Array(53).keys()]);
      whole.positions.slice(0, 52).forEach((p, i) => expect(p, `position ${i}`).toMatchObject(asPublished(expected[i])));
      // From the lead the two sides' tricks add up to thirteen, and somewhere in the deal a legal card costs a trick.
      expect(whole.positions[0].left.NS + whole.positions[0].left.EW).toBe(13);
      expect(whole.positions.some((p) => p.cards.some((c) => c.cost > 0))).toBe(true);
      // Each card played: the tricks its side could take before it, less those it cost, equal what it could take after.
      for (let i = 0; i < 52; i++) {
        const before = whole.positions[i];
        const card = PLAYS[i].card;
        const cost = before.cards.find((c) => c.card === card)?.cost;
        expect(cost, `card ${i + 1} ${card} is among the legal cards`).toBeTypeOf('number');
      }
    } finally {
      await sub.endAsync();
      await run.close();
    }
  }, 180_000);

  it('publishes nothing while the embargo holds; a board released after the table moved on goes out whole, the deal in play not', async () => {
    const run = await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'tray-complete' });
    const { sub, analysis, all } = await listen(run);
    try {
      const c = run.sim.controller;
      const delivered = async () => {
        await c.feed!.whenDelivered(c.journal.lastSeq, 20_000);
        await waitFor(() => all.some((m) => m.topic === 'tenace/demo/1/state' && JSON.parse(m.text).seq === c.journal.lastSeq), 10_000, 'the last state');
        await c.analysis!.settled();
        await new Promise((r) => setTimeout(r, 500));
      };
      // Board 2 played out, then board 3 begun (five cards) while board 2's tray is still in play elsewhere.
      await run.sim.playEvents(LOG);
      await delivered();
      expect(JSON.parse(all.filter((m) => m.topic === 'tenace/demo/1/state').at(-1)!.text).deal).toMatchObject({ board: 2, status: 'ended', released: false });
      await run.sim.playEvents([{ ...DEAL, board: 3 }, ...LOG.slice(1, 10)]);
      await delivered();
      expect(analysis).toEqual([]);
      expect(c.analysis!.published).toBe(0);
      // No other topic carries it either.
      expect(all.filter((m) => m.text.includes('tenace.analysis'))).toEqual([]);
      expect(JSON.parse(all.filter((m) => m.topic === 'tenace/demo/1/state').at(-1)!.text).deal).toMatchObject({ board: 3, released: false });

      // The club releases board 2: its whole play goes out, and nothing of board 3.
      c.feed!.setTrayComplete(DEAL.board);
      await waitFor(() => analysis.length > 0, 30_000, 'the analysis of board 2 once its tray is released');
      await c.analysis!.settled();
      await new Promise((r) => setTimeout(r, 300));
      expect(analysis.map((a) => a.board)).toEqual([2]);
      const a = analysis[0];
      expect(a).toMatchObject({ status: 'on', board: DEAL.board, strain: 'S' });
      expect(a.positions).toHaveLength(53);
      a.positions.slice(0, 52).forEach((p, i) => expect(p, `position ${i}`).toMatchObject({ played: i, ...asPublished(expected[i]) }));
      expect(a.positions[52]).toEqual({ played: 52, trick: 14, won: { NS: 11, EW: 2 }, left: { NS: 0, EW: 0 }, cards: [] });

      // Then board 3, the deal in play: released, it goes out as far as it has been played.
      c.feed!.setTrayComplete(3);
      await waitFor(() => analysis.some((x) => x.board === 3), 30_000, 'the analysis of board 3');
      const b = analysis.find((x) => x.board === 3)!;
      expect(b.positions.map((p) => p.played)).toEqual([0, 1, 2, 3, 4, 5]);
      b.positions.forEach((p, i) => expect(p, `board 3, position ${i}`).toMatchObject(asPublished(expected[i])));
    } finally {
      await sub.endAsync();
      await run.close();
    }
  }, 180_000);

  it('an original play without a tray record: no analysis while the hands are unknown, the whole deal once every card is face up', async () => {
    const { hands: _hands, ...noHands } = DEAL;
    const run = await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'live' });
    const { sub, analysis } = await listen(run);
    try {
      await run.sim.playEvents([noHands as TableEvent, ...LOG.slice(1, 10)]);
      await waitFor(() => analysis.length > 0, 20_000, 'the first analysis message');
      expect(analysis.at(-1)).toMatchObject({ status: 'unknown-hands', board: DEAL.board, positions: [] });
      await run.sim.playEvents(LOG.slice(10));
      await waitFor(() => analysis.at(-1)?.status === 'on', 30_000, 'the analysis once the play is complete');
      const a = analysis.at(-1)!;
      expect(a.positions.map((p) => p.played)).toEqual([...Array(53).keys()]);
      a.positions.slice(0, 52).forEach((p, i) => expect(p, `position ${i}`).toMatchObject({ trick: Math.floor(i / 4) + 1, ...asPublished(expected[i]) }));
      expect(a.positions[52]).toEqual({ played: 52, trick: 14, won: { NS: 11, EW: 2 }, left: { NS: 0, EW: 0 }, cards: [] });
      expect(analysis.filter((x) => x.status === 'on')).toHaveLength(1);
    } finally {
      await sub.endAsync();
      await run.close();
    }
  }, 180_000);

  it('without libdds, says on the topic that analysis is off and how to install it; the table plays on', async () => {
    const saved = process.env.LIBDDS_PATH;
    process.env.LIBDDS_PATH = '/nonexistent/libdds.so.0';
    const run = await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'live' });
    const { sub, analysis } = await listen(run);
    try {
      await run.sim.playEvents(LOG.slice(0, 9));
      await waitFor(() => analysis.length > 0, 20_000, 'the analysis message');
      expect(analysis.at(-1)).toMatchObject({ status: 'off', board: DEAL.board, positions: [] });
      expect(analysis.at(-1)!.message).toContain('install libdds0');
      const c = run.sim.controller;
      await c.feed!.whenDelivered(c.journal.lastSeq, 20_000);
      expect(c.feed!.publicState().deal?.tricksWon).toEqual({ NS: 1, EW: 0 });
    } finally {
      if (saved === undefined) delete process.env.LIBDDS_PATH;
      else process.env.LIBDDS_PATH = saved;
      await sub.endAsync();
      await run.close();
    }
  }, 120_000);

  it('check-config says what feed.analysis will do, with libdds and without', () => {
    let out = '';
    const io = { out: (t: string) => { out += t; }, err: () => undefined };
    expect(checkConfigCommand(['config/tenace.example.yaml', '--skip-files'], io, { ...process.env, TENACE_FEED_ANALYSIS: 'true' })).toBe(0);
    expect(out).toMatch(/\ndouble-dummy analysis: on \(DDS 2\.9\.\d+\)\nfeed\.analysis: the live double-dummy analysis goes to <table>\/analysis once the embargo lets each deal out/);
    out = '';
    expect(checkConfigCommand(['config/tenace.example.yaml', '--skip-files'], io, { ...process.env, TENACE_FEED_ANALYSIS: 'true', LIBDDS_PATH: '/nonexistent/libdds.so.0' })).toBe(0);
    expect(out).toMatch(/install libdds0[^\n]*\nfeed\.analysis: set, but without libdds0 the table publishes only that analysis is off/);
    out = '';
    // Off by default: nothing said about it.
    expect(checkConfigCommand(['config/tenace.example.yaml', '--skip-files'], io, process.env)).toBe(0);
    expect(out).not.toContain('feed.analysis');
  });
});
