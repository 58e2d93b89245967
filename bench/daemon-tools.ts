// The daemon benchmark's shared parts (bench/daemon.ts): its options and time budgets, the subscriber's inbox, the
// cleanup list, and the corpus of deals its parts play.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as BindingMock from '@serialport/binding-mock' with { 'resolution-mode': 'require' };
import mqtt, { type MqttClient } from 'mqtt';
import type { DealEvent } from '../src/formats/table-log.js';
import { type DeckFile, virtualDeck, writeDeckFile } from '../src/hardware/deck.js';
import { type RfidStep, planSteps } from '../src/hardware/emulator.js';
import { SeatMap } from '../src/hardware/seat-map.js';
import { createRng } from '../src/sim/prng.js';
import { simulateDeal } from '../src/sim/simulate.js';


export const { MockBinding } = createRequire(import.meta.url)('@serialport/binding-mock') as typeof BindingMock;
export type MockPortBinding = BindingMock.MockPortBinding;

export interface DaemonBenchOptions {
  seed: number;
  /**
   * The broker: 'shipped' starts a Mosquitto from the shipped mosquitto/tenace.conf (made local, `set_tcp_nodelay`
   * kept; bench/broker.ts) for the run, as the club benchmark does; or a URL to use as it is.
   */
  broker: string;
  /** (a) recorded cards per side, after `warmupCards` unrecorded ones. */
  cards: number;
  warmupCards: number;
  /** (b) place/lift events fed to the child daemon before its RSS is read. */
  events: number;
  /** (c) spawns of each kind (daemon, floor), alternating. */
  starts: number;
  /** Which parts to run: "a" (latency) and/or "bc" ((b) and (c) share their child daemons); both by default. */
  parts: string;
}

export const DAEMON_DEFAULTS: DaemonBenchOptions = { seed: 20_240_601, broker: 'shipped', cards: 500, warmupCards: 24, events: 10_000, starts: 5, parts: 'abc' };

/** The whole benchmark in the child may take this long; spawnSync kills it (SIGTERM, then it cleans up) after. */
export const HARD_LIMIT_MS = 59_000;
/** The child keeps this much of the limit for cleaning up and reporting. */
const RESERVE_MS = 5_000;
/** Budgets of the parts, so that the sum stays under HARD_LIMIT_MS on a busy machine. */
export const BUDGET_A_MS = 25_000;
export const BUDGET_B_MS = 13_000;
/** (c) stops after this long once it has at least MIN_STARTS runs of each kind. */
export const BUDGET_C_MS = 8_000;
export const MIN_STARTS = 3;
/** When the child started (the parts' deadlines are also capped by HARD_LIMIT_MS - RESERVE_MS from here). */
const STARTED = Date.now();
export const timeLeft = () => HARD_LIMIT_MS - RESERVE_MS - (Date.now() - STARTED);
export const CHILD_FLAG = '--tenace-daemon-bench-child';
export const REPORT_PREFIX = 'TENACE-BENCH-REPORT ';
export const CLUB = 'bench';

const here = dirname(fileURLToPath(import.meta.url));
/** build/bench/bench → the repository (node_modules, and the built daemon under build/bench/src/bundle). */
export const ROOT = resolve(here, '..', '..', '..');
/** The bundled daemon of the same build (scripts/bundle-daemon.mjs; npm run bench makes it), as bin/tenace.mjs runs `tenace run`. */
export const DAEMON = join(ROOT, 'build', 'bench', 'src', 'bundle', 'main.js');

// ------------------------------------------------------------------ small tools

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const progress = (msg: string) => process.stderr.write(`[bench daemon] ${msg}\n`);

/** Nearest-rank percentile of a sorted array. */
export function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
export const sortNum = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
export const median = (xs: readonly number[]) => pct(sortNum(xs), 50);
export const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)} ms` : 'n/a');
export const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

/** Cleanups run last-in first-out, once, on success, failure or SIGTERM. */
export class Cleanup {
  private readonly steps: { what: string; run: () => unknown }[] = [];
  failures: string[] = [];
  add(what: string, run: () => unknown): void {
    this.steps.push({ what, run });
  }
  async runAll(): Promise<void> {
    while (this.steps.length > 0) {
      const s = this.steps.pop()!;
      try {
        await Promise.race([Promise.resolve(s.run()), sleep(5000).then(() => { throw new Error('took more than 5 s'); })]);
      } catch (e) {
        this.failures.push(`${s.what}: ${(e as Error).message}`);
      }
    }
  }
}

/** What the subscriber has seen, and promises that resolve when a condition on it holds. */
export class Inbox {
  /** table → event seq → arrival (performance.now) and the event's type. */
  readonly events = new Map<string, Map<number, { at: number; type: string }>>();
  /** table → last director/state seq seen. */
  readonly dirSeq = new Map<string, number>();
  /** table → last arrival of `state`, and its payload length. */
  readonly stateAt = new Map<string, { at: number; bytes: number }>();
  /** table → place/lift events seen. */
  readonly cardEvents = new Map<string, number>();
  /** table → director alerts (findings) seen. */
  readonly directorAlerts = new Map<string, number>();
  /** table → responses to commands by transaction. */
  readonly responses = new Map<string, { ok: boolean; error?: string }>();
  /** Floor topic → arrivals. */
  readonly floor = new Map<string, { n: number; at: number }>();
  private readonly waiters = new Set<() => boolean>();

  constructor(private readonly floorPrefix: string) {}

  onMessage(topic: string, payload: Buffer): void {
    const at = performance.now();
    if (topic.startsWith(this.floorPrefix)) {
      const f = this.floor.get(topic) ?? { n: 0, at: 0 };
      f.n++;
      f.at = at;
      this.floor.set(topic, f);
    } else {
      const parts = topic.split('/');
      // tenace/<club>/<table>/<kind>[/...]
      const tbl = parts[2];
      const kind = parts.slice(3).join('/');
      if (payload.length > 0) {
        if (kind === 'event') {
          const m = JSON.parse(payload.toString('utf8')) as { seq: number; event?: { type?: string } };
          let byTable = this.events.get(tbl);
          if (!byTable) this.events.set(tbl, (byTable = new Map()));
          const type = m.event?.type ?? '?';
          byTable.set(m.seq, { at, type });
          if (type === 'place' || type === 'lift') this.cardEvents.set(tbl, (this.cardEvents.get(tbl) ?? 0) + 1);
        } else if (kind === 'director') {
          this.directorAlerts.set(tbl, (this.directorAlerts.get(tbl) ?? 0) + 1);
        } else if (kind === 'director/state') {
          const m = JSON.parse(payload.toString('utf8')) as { seq: number | null };
          this.dirSeq.set(tbl, m.seq ?? -1);
        } else if (kind === 'state') {
          this.stateAt.set(tbl, { at, bytes: payload.length });
        } else if (kind.startsWith('response/')) {
          const m = JSON.parse(payload.toString('utf8')) as { transaction: string; ok: boolean; error?: string };
          this.responses.set(`${tbl}/${m.transaction}`, { ok: m.ok, error: m.error });
        }
      }
    }
    for (const w of [...this.waiters]) if (w()) this.waiters.delete(w);
  }

  /** Resolves once `cond()` holds (checked now and after every message); rejects after `timeoutMs`. */
  wait(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolveP, reject) => {
      const w = () => {
        if (!cond()) return false;
        clearTimeout(timer);
        resolveP();
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  /** Re-check the waiters (for conditions that also depend on things other than messages). */
  poke(): void {
    for (const w of [...this.waiters]) if (w()) this.waiters.delete(w);
  }
}

/** An MQTT 5 client for the benchmark, Nagle off as in the feed. */
export async function connect(url: string, clientId: string): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, clientId, clean: true, reconnectPeriod: 0, connectTimeout: 5000 });
  // The feed turns Nagle off on its socket; do the same for the floor and the subscriber so they are not slower.
  (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  return client;
}

/** Remove the retained messages a table left on the broker (an empty retained payload deletes one). */
export async function clearRetained(client: MqttClient, topics: readonly string[]): Promise<void> {
  for (const t of topics) await client.publishAsync(t, '', { qos: 1, retain: true });
}

/** The retained topics a table leaves on the broker. */
export function tableTopicsOf(table: string): string[] {
  const root = `tenace/${CLUB}/${table}`;
  return [`${root}/status`, `${root}/state`, `${root}/director/state`];
}

/** A deterministic corpus of legally played deals: their deal events and their RFID steps. */
export function dealsFor(seed: number, deck: DeckFile, count: number): { deal: DealEvent; steps: RfidStep[] }[] {
  const rng = createRng(seed);
  const map = SeatMap.default();
  const out: { deal: DealEvent; steps: RfidStep[] }[] = [];
  for (let i = 0; i < count; i++) {
    const sim = simulateDeal(rng, { variant: 'bridge', board: (i % 36) + 1, withHands: true });
    const steps = planSteps(sim.events, deck, map, 4).filter((s): s is RfidStep => s.kind === 'arrive' || s.kind === 'leave');
    out.push({ deal: sim.events[0] as DealEvent, steps });
  }
  return out;
}

/** A deal event's fields as `request/start-deal` takes them. */
export function dealParams(d: DealEvent): Record<string, unknown> {
  const { type: _t, seq: _s, at: _a, ...rest } = d;
  return rest;
}

/** A systemd watchdog that does nothing (the benchmark's daemons run without systemd). */
export const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };

/** A part's folders, removed by `clean`: one on disk, one on tmpfs where there is one, and a virtual deck's file. */
export function partDirs(clean: Cleanup, name: string): { dir: string; shm: string; deck: DeckFile; deckPath: string } {
  const dir = mkdtempSync(join(tmpdir(), `tenace-bench-${name}-`));
  clean.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const shmBase = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const shm = mkdtempSync(join(shmBase, `tenace-bench-${name}-`));
  clean.add(`remove ${shm}`, () => rmSync(shm, { recursive: true, force: true }));
  const deck = virtualDeck(`bench-${name}`);
  const deckPath = join(dir, 'deck.json');
  writeDeckFile(deckPath, deck);
  return { dir, shm, deck, deckPath };
}
