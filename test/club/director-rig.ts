// Test rig for the director: fake tables on the real Mosquitto (each a journal of its own that it publishes on
// `<table>/director/event` and serves on `request/events`), an observer of the club's topics, a hand-built schedule,
// and hand-written stand-ins for the tray and scoring functions (other parts of issue 7, tested on their own).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import type { LogLevel } from '../../src/config/schema.js';
import { afterEach } from 'vitest';
import { type ClubFunctions, type DirectorServiceOptions, DirectorService } from '../../src/club/director/service.js';
import { DirectorState } from '../../src/club/director/state.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { DirectorConfig } from '../../src/club/director/config.js';
import type { ClubAlert, Schedule, ScoreReport, TrayMove, TrayRecord } from '../../src/club/types.js';
import { parseTableLog, type TableEvent } from '../../src/formats/table-log.js';
import type { Seat } from '../../src/cards/seat.js';

export const BROKER = 'mqtt://127.0.0.1:1883';
export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'seed-hands');
export const EXPECTED = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as {
  hands: { board: number; deal: string; dealer: Seat; turned: string; tricksWon: { NS: number; EW: number } }[];
};

/** The events of a seed hand (its deal event first), without seq. */
export function seedHand(n: number, withHands: boolean): TableEvent[] {
  const text = readFileSync(join(FIXTURES, `hand${n}${withHands ? '' : '.nohands'}.ndjson`), 'utf8');
  const evs = parseTableLog(text).events;
  if (withHands) (evs[0] as { overplay?: boolean }).overplay = true;
  return evs;
}

/** Swap two cards wherever they appear: the tray's pockets held them the other way round. */
export function swapCards(evs: TableEvent[], a: string, b: string): TableEvent[] {
  return evs.map((e) => {
    const c = (e as { card?: string }).card;
    return c === a ? { ...e, card: b } as TableEvent : c === b ? { ...e, card: a } as TableEvent : e;
  });
}

/**
 * Two tables, two rounds: round 1 table 1 deals tray 1 and table 2 tray 2; E-W move and the trays cross, so in round
 * 2 each table overplays the other's tray.
 */
export const SCHEDULE: Schedule = {
  movement: 'test-cross', tables: 2, kind: 'pairs', boardsPerRound: 1, trays: 2, participants: ['1NS', '1EW', '2NS', '2EW'],
  rounds: [
    { round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1], original: [true] }, { table: 2, ns: '2NS', ew: '2EW', trays: [2], original: [true] }] },
    { round: 2, tables: [{ table: 1, ns: '1NS', ew: '2EW', trays: [2] }, { table: 2, ns: '2NS', ew: '1EW', trays: [1] }] },
  ],
};

/** A director config for a test club. */
export function testConfig(club: string, storeUrl: string, over: Partial<DirectorConfig> = {}): DirectorConfig {
  return {
    club: { id: club }, session: 's1', variant: 'duplicate-whist',
    movement: { name: SCHEDULE.movement, tables: 2 }, tables: ['1', '2'],
    mqtt: { url: BROKER, keepalive: 30, baseTopic: 'tenace', protocolVersion: 5, maxMessageBytes: 262144 }, store: { url: storeUrl },
    http: { enabled: false, host: '127.0.0.1', port: 0 }, scoring: {}, embargo: 'tray-complete', log: { level: 'warn' }, ...over,
  };
}

export const quietLog = createLogger({ log: { level: (process.env.DIRECTOR_TEST_LOG ?? 'silent') as LogLevel } });

const RANKS = 'AKQJT98765432';
const SUITS = 'SHDC';

function pbnOf(hands: Record<Seat, string[]>): string {
  const hand = (cards: string[]) => [...SUITS].map((s) => cards.filter((c) => c[0] === s).map((c) => c[1]).sort((x, y) => RANKS.indexOf(x) - RANKS.indexOf(y)).join('')).join('.');
  return `N:${(['N', 'E', 'S', 'W'] as Seat[]).map((s) => hand(hands[s])).join(' ')}`;
}

function pockets(pbn: string): Map<string, Seat> {
  const out = new Map<string, Seat>();
  const seats: Seat[] = ['N', 'E', 'S', 'W'];
  pbn.slice(2).split(' ').forEach((h, i) => h.split('.').forEach((cards, s) => { for (const r of cards) out.set(`${SUITS[s]}${r}`, seats[i]); }));
  return out;
}

/** Stand-ins for src/club/trays and src/club/scoring: simple, and written here by hand. */
export const STUBS: ClubFunctions = {
  recordFromPlay({ session, table, events, result }) {
    const hands: Record<Seat, string[]> = { N: [], E: [], S: [], W: [] };
    for (const t of result.tricks) for (const [s, c] of Object.entries(t.cards)) hands[s as Seat].push(c!);
    const deal = events[0] as { board?: number; dealer?: Seat };
    if (deal.board === undefined || result.tricks.length < 13) return null;
    return {
      schema: 1, type: 'tenace.tray', session, board: deal.board, hands: pbnOf(hands), dealer: deal.dealer ?? 'N', rev: 1,
      source: { kind: 'original-play', table, fromSeq: events[0].seq ?? 0, toSeq: events.at(-1)?.seq ?? 0, at: '2026-12-03T00:00:00.000Z' },
    } satisfies TrayRecord;
  },
  handDifferences(record, table) {
    const r = pockets(record);
    const t = pockets(table);
    return [...r].filter(([c, s]) => t.get(c) !== s).map(([card, s]) => ({ card, record: s, table: t.get(card)! }));
  },
  trayDoctor(record, table) {
    return STUBS.handDifferences(record, table).map((d): TrayMove => ({ card: d.card, from: d.table, to: d.record }));
  },
  fouledTrayOutcome(tables, when) {
    return { remedy: tables < 3 ? 'new-deal' : 'rectify-and-average', law: 'Dup. IV.9', message: `test outcome for ${tables} tables (${when})` };
  },
  scoreTravellers(travellers) {
    const totals = new Map<string, number>();
    for (const t of travellers) {
      const tr = t.tricks as { NS: number; EW: number } | undefined;
      totals.set(t.ns, (totals.get(t.ns) ?? 0) + (tr?.NS ?? 0));
      totals.set(t.ew, (totals.get(t.ew) ?? 0) + (tr?.EW ?? 0));
    }
    const boards = [...new Set(travellers.map((t) => t.board))].sort((a, b) => a - b).map((board) => ({
      board, results: travellers.filter((t) => t.board === board).map((t) => ({ table: t.table, ns: t.ns, ew: t.ew, tricks: t.tricks as { NS: number; EW: number } })),
    }));
    const pairs = [...totals].sort((a, b) => b[1] - a[1]).map(([pair, total], i) => ({ pair, total, rank: i + 1 }));
    return { method: 'average', pairs, boards } satisfies ScoreReport;
  },
};

/** A fake table: a journal of its own, published event by event, and served on request/events. */
export class FakeTable {
  readonly journal: TableEvent[] = [];
  /** Requests the director made, for the test to look at. */
  readonly requests: { after: number; limit?: number }[] = [];
  private constructor(private readonly client: MqttClient, readonly root: string, readonly session: string) {}

  static async connect(club: string, table: string, session = 's1', firstSeq = 1, broker = BROKER): Promise<FakeTable> {
    const root = `tenace/${club}/${table}`;
    const client = await mqtt.connectAsync(broker, { clientId: `fake-${club}-${table}-${Math.random().toString(36).slice(2)}`, protocolVersion: 4, reconnectPeriod: 200 });
    const t = new FakeTable(client, root, session);
    t.nextSeq = firstSeq;
    client.on('message', (topic, payload) => {
      if (topic !== `${root}/request/events`) return;
      const req = JSON.parse(payload.toString('utf8')) as { transaction: string; after: number; limit?: number };
      t.requests.push({ after: req.after, limit: req.limit });
      if (t.silent) return;
      const events = t.journal.filter((e) => e.seq! > req.after).slice(0, req.limit ?? 1000);
      void client.publishAsync(`${root}/response/events`, JSON.stringify({ transaction: req.transaction, ok: true, session: t.session, events, last: t.journal.at(-1)?.seq ?? firstSeq - 1 }), { qos: 1 });
    });
    await client.subscribeAsync(`${root}/request/events`, { qos: 1 });
    return t;
  }

  private nextSeq = 1;
  /** When true, request/events goes unanswered. */
  silent = false;

  /** Journal events (seq and time given here); publish them unless `publish` is false (a lost message). */
  async play(events: readonly TableEvent[], opts: { publish?: boolean | ((seq: number) => boolean) } = {}): Promise<void> {
    for (const e of events) {
      const ev = { ...e, seq: this.nextSeq++, at: new Date().toISOString() } as TableEvent;
      this.journal.push(ev);
      const pub = typeof opts.publish === 'function' ? opts.publish(ev.seq!) : opts.publish ?? true;
      if (pub) await this.publishEvent(ev);
    }
  }

  /** Publish one journal event on `<table>/director/event`. */
  async publishEvent(ev: TableEvent): Promise<void> {
    await this.client.publishAsync(`${this.root}/director/event`, JSON.stringify({ schema: 1, type: 'tenace.journal-event', session: this.session, seq: ev.seq, event: ev }), { qos: 1 });
  }

  async status(s: 'online' | 'offline'): Promise<void> {
    await this.client.publishAsync(`${this.root}/status`, s, { qos: 1, retain: true });
  }

  async close(): Promise<void> {
    await this.client.publishAsync(`${this.root}/status`, '', { qos: 1, retain: true }).catch(() => undefined);
    await this.client.endAsync();
  }
}

/** Reads the club's topics: the last message of each, and every alert and response. */
export class Observer {
  readonly last = new Map<string, unknown>();
  readonly alerts: ClubAlert[] = [];
  readonly responses: { topic: string; body: Record<string, unknown> }[] = [];
  private constructor(private readonly client: MqttClient, readonly base: string) {}

  static async connect(club: string, broker = BROKER): Promise<Observer> {
    const client = await mqtt.connectAsync(broker, { clientId: `observer-${club}-${Math.random().toString(36).slice(2)}`, protocolVersion: 4 });
    const o = new Observer(client, `tenace/${club}`);
    client.on('message', (topic, payload) => {
      if (payload.length === 0) { o.last.delete(topic); return; }
      let body: unknown;
      try { body = JSON.parse(payload.toString('utf8')); } catch { body = payload.toString('utf8'); }
      o.last.set(topic, body);
      if (topic.endsWith('/alerts')) o.alerts.push(body as ClubAlert);
      if (topic.includes('/response/') && !topic.endsWith('/response/events')) o.responses.push({ topic, body: body as Record<string, unknown> });
    });
    await client.subscribeAsync(`tenace/${club}/#`, { qos: 1 });
    return o;
  }

  get<T>(rel: string): T | undefined {
    return this.last.get(`${this.base}/${rel}`) as T | undefined;
  }

  /** Send a director decision. */
  async decide(cmd: string, body: unknown, session = 's1'): Promise<void> {
    await this.client.publishAsync(`${this.base}/club/${session}/request/${cmd}`, JSON.stringify(body), { qos: 1 });
  }

  /** Remove the retained messages this test left on the broker. */
  async clearRetained(): Promise<void> {
    for (const topic of this.last.keys()) await this.client.publishAsync(topic, '', { qos: 1, retain: true }).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.clearRetained();
    await this.client.endAsync();
  }
}

/**
 * Clean-up steps pushed by the tests of the calling describe, run after each test, last first, failures ignored.
 * Stopping directors, broker sessions and fake tables can take seconds on a loaded CI machine: 30 s by default.
 */
export function cleanupAfterEach(timeoutMs = 30_000): (() => Promise<unknown>)[] {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  }, timeoutMs);
  return cleanup;
}

/**
 * Starts director instances of one club on one store (a cluster on PostgreSQL), each with `config(instance)` over the
 * test config; each is stopped, and its broker session cleared, by the calling test's clean-up.
 */
export function clusterStarter(cleanup: (() => Promise<unknown>)[], club: string, storeUrl: string, config: (instance: string) => Partial<DirectorConfig>, service: Partial<DirectorServiceOptions> = {}) {
  const ids: string[] = [];
  cleanup.push(async () => {
    for (const id of ids) await (await mqtt.connectAsync(BROKER, { clientId: id, clean: true, protocolVersion: 5 })).endAsync();
  });
  return async (instance: string): Promise<{ s: DirectorService; store: DirectorStore; stop: () => Promise<void> }> => {
    const store = await DirectorStore.open(storeUrl);
    const s = new DirectorService({ config: testConfig(club, storeUrl, config(instance)), log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 400, ...service });
    await s.start();
    ids.push(s.clientId);
    const stop = async () => { await s.stop(); await store.close(); };
    cleanup.push(stop);
    return { s, store, stop };
  };
}

/** A director's state on an in-memory SQLite store, with no service or broker: for tests of its steps. */
export async function stateOnly(club: string, over: Partial<DirectorConfig> = {}): Promise<{ st: DirectorState; store: DirectorStore; close: () => Promise<void> }> {
  const store = await DirectorStore.open('sqlite::memory:');
  const st = new DirectorState({ config: testConfig(club, 'sqlite::memory:', over), log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false });
  const close = async () => {
    st.stopped = true;
    st.flushCancel?.();
    await store.close();
  };
  return { st, store, close };
}
