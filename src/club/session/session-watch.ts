// The runner's view of the broker: the retained records, assignments, alerts and standings it waits on, and the
// clearing of a former run's retained messages. Apart so the MQTT plumbing stays out of the play logic.
import mqtt, { type MqttClient } from 'mqtt';
import { DEFAULT_BASE, sessionTopics } from '../../feed/topics.js';
import type { ClubAlert, RoundAssignment, ScoreReport, TrayRecord } from '../types.js';
import type { SessionPlan } from './plan.js';

/** Publish empty retained messages over the session's retained topics (MQTT's way to delete them). */
export async function clearRetained(url: string, club: string, plan: SessionPlan, base = DEFAULT_BASE): Promise<void> {
  const t = sessionTopics(club, plan.session, base);
  const topics = [t.standings, t.released, t.director, t.schedule, ...[...plan.trays.keys()].map((b) => t.tray(b)),
    ...[...plan.plays.keys()].map((n) => `${base}/${club}/${n}/assignment`)];
  const client = await mqtt.connectAsync(url, { clientId: `tenace-session-clear-${process.pid}`, protocolVersion: 4 });
  try {
    await Promise.all(topics.map((topic) => client.publishAsync(topic, '', { qos: 1, retain: true })));
  } finally {
    await client.endAsync();
  }
}

/** What the session runner reads from the broker: records, assignments, alerts, standings. */
export class SessionWatch {
  readonly records = new Map<number, TrayRecord>();
  readonly assignments = new Map<string, RoundAssignment>();
  readonly alerts: ClubAlert[] = [];
  standings: ScoreReport | null = null;
  /** `board:table` → when the standings first held that result (ms epoch). */
  readonly scoredAt = new Map<string, number>();
  private readonly changed = new Set<() => void>();

  private constructor(private readonly client: MqttClient) {}

  /** Connects and subscribes to the session's records, assignments, alerts and standings (retained ones arrive at once). */
  static async connect(url: string, club: string, session: string, base = DEFAULT_BASE): Promise<SessionWatch> {
    const client = await mqtt.connectAsync(url, { clientId: `tenace-session-${club}-${session}-${process.pid}`, protocolVersion: 4, reconnectPeriod: 500 });
    const w = new SessionWatch(client);
    const t = sessionTopics(club, session, base);
    const assignment = `${base}/${club}/+/assignment`;
    const tableAlerts = `${base}/${club}/+/director`;
    client.on('message', (topic, payload) => {
      if (payload.length === 0) return;
      let msg: unknown;
      try { msg = JSON.parse(payload.toString('utf8')); } catch { return; }
      const m = msg as { type?: string; session?: string };
      if (m.type === 'tenace.tray' && m.session === session) w.records.set((msg as TrayRecord).board, msg as TrayRecord);
      else if (m.type === 'tenace.assignment' && m.session === session) w.assignments.set((msg as RoundAssignment).table, msg as RoundAssignment);
      // The table's alert comes on its own topic and again as the director relays it: keep one of each.
      else if (m.type === 'tenace.alert' && m.session === session) { if (!w.alerts.some((a) => JSON.stringify(a) === JSON.stringify(msg))) w.alerts.push(msg as ClubAlert); }
      else if (topic === t.standings) {
        w.standings = msg as ScoreReport;
        const now = Date.now();
        for (const b of w.standings.boards ?? []) for (const r of b.results) {
          const k = `${b.board}:${r.table}`;
          if (!w.scoredAt.has(k)) w.scoredAt.set(k, now);
        }
      }
      for (const f of w.changed) f();
    });
    await client.subscribeAsync([t.traysFilter, assignment, tableAlerts, t.alerts, t.standings], { qos: 1 });
    return w;
  }

  /** Resolves when `cond` holds (checked on every message and every 50 ms); rejects after `ms` naming `what`. */
  until(cond: () => boolean, ms: number, what: string, signal?: AbortSignal): Promise<void> {
    // An abort listener added after the abort never fires: the wait would hold the process until its timeout.
    if (signal?.aborted) return Promise.reject(new Error('session stopped'));
    try {
      if (cond()) return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.changed.delete(check);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err); else resolve();
      };
      const check = () => {
        try {
          if (cond()) done();
        } catch (err) {
          done(err as Error);
        }
      };
      const onAbort = () => done(new Error('session stopped'));
      const timer = setTimeout(() => done(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
      const poll = setInterval(check, 50);
      this.changed.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Disconnects from the broker. */
  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
