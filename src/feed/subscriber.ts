// The subscriber's side of the feed: rebuild the complete public table state from the retained `state` plus the
// `event` messages alone. Each event carries the JSON Patch from snapshot `baseRev` to `rev`; events are
// de-duplicated by `seq` (QoS 1 may deliver twice, and the outbox re-sends after a reconnect), and an event that does
// not fit the snapshot held (a gap) waits until a snapshot catches up. No Node APIs: the browser view uses it.
import { type JsonValue, applyPatch } from './patch.js';
import type { PublicEventMessage, PublicFinding, PublicState, PublicTableEvent } from './projection.js';
import { SCHEMA_VERSION } from './projection.js';
import { type TableTopics, tableTopics } from './topics.js';

/** One public event as kept by the mirror. */
export interface MirroredEvent {
  seq: number;
  at: string | null;
  event: PublicTableEvent;
  findings: PublicFinding[];
}

export interface MirrorStats {
  /** Events whose patch was applied to the snapshot. */
  applied: number;
  /** Events received again (same seq). */
  duplicates: number;
  /** Snapshots taken from the `state` topic. */
  snapshots: number;
  /** Messages ignored: malformed, another schema version, or a stale snapshot. */
  ignored: number;
  /** Patches that did not fit; the mirror waits for the next snapshot. */
  patchFailures: number;
}

export interface TableMirrorOptions {
  /** Events kept in `events` (oldest dropped first), default 5000. */
  maxEvents?: number;
  /** Events kept waiting for a snapshot that fits, default 1000. */
  maxBuffered?: number;
}

function parse(payload: Uint8Array | string): unknown {
  try {
    return JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
  } catch {
    return undefined;
  }
}

function isStateMessage(o: unknown): o is PublicState {
  const s = o as PublicState;
  return typeof s === 'object' && s !== null && s.type === 'tenace.state' && s.schema === SCHEMA_VERSION
    && typeof s.epoch === 'string' && Number.isInteger(s.rev) && (s.seq === null || Number.isInteger(s.seq));
}

function isEventMessage(o: unknown): o is PublicEventMessage {
  const e = o as PublicEventMessage;
  return typeof e === 'object' && e !== null && e.type === 'tenace.event' && e.schema === SCHEMA_VERSION
    && typeof e.epoch === 'string' && Number.isInteger(e.seq) && Number.isInteger(e.rev) && Number.isInteger(e.baseRev)
    && Array.isArray(e.patch) && typeof e.event === 'object' && e.event !== null;
}

/** Rebuilds a table's public state from its `status`, `state` and `event` topics. */
export class TableMirror {
  readonly topics: TableTopics;
  /** The current public snapshot, or null before the first one. */
  state: PublicState | null = null;
  /** `online`, `offline`, or null before the first status. */
  status: string | null = null;
  /** Public events received, unique by seq, in seq order. */
  readonly events: MirroredEvent[] = [];
  /** seqs in the order they first arrived (after de-duplication): a check that delivery kept the order. */
  readonly arrivals: number[] = [];
  readonly stats: MirrorStats = { applied: 0, duplicates: 0, snapshots: 0, ignored: 0, patchFailures: 0 };
  private readonly seen = new Set<number>();
  private buffered: PublicEventMessage[] = [];
  private readonly maxEvents: number;
  private readonly maxBuffered: number;
  private readonly listeners = new Set<(m: TableMirror) => void>();

  constructor(club: string, table: string, base?: string, opts: TableMirrorOptions = {}) {
    this.topics = tableTopics(club, table, base);
    this.maxEvents = opts.maxEvents ?? 5000;
    this.maxBuffered = opts.maxBuffered ?? 1000;
  }

  /** The topics to subscribe to (QoS 1). */
  subscriptions(): string[] {
    return [this.topics.status, this.topics.state, this.topics.event];
  }

  /** Call `fn` after every change of state or status; returns a function that removes it. */
  onChange(fn: (m: TableMirror) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Feed one MQTT message; returns true when the mirror changed. Messages of other topics are ignored. */
  handle(topic: string, payload: Uint8Array | string): boolean {
    let changed = false;
    if (topic === this.topics.status) {
      const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
      changed = text !== this.status;
      this.status = text;
    } else if (topic === this.topics.state) {
      changed = this.applyState(parse(payload));
    } else if (topic === this.topics.event) {
      changed = this.applyEvent(parse(payload));
    } else {
      return false;
    }
    if (changed) for (const fn of this.listeners) fn(this);
    return changed;
  }

  /** Take a snapshot unless it is older than the one held; returns true when taken. */
  applyState(o: unknown): boolean {
    if (!isStateMessage(o)) {
      this.stats.ignored++;
      return false;
    }
    const cur = this.state;
    // Within one publisher run `rev` orders snapshots; a broker restored from its database may hand out an older
    // retained one after a newer arrived. Across runs (new epoch) the event seq orders them.
    if (cur && ((o.epoch === cur.epoch && o.rev <= cur.rev) || (o.epoch !== cur.epoch && (o.seq ?? -1) < (cur.seq ?? -1)))) {
      this.stats.ignored++;
      return false;
    }
    this.state = o;
    this.stats.snapshots++;
    this.drain();
    return true;
  }

  /** Record an event and apply its patch when it fits the snapshot held; returns true when the state changed. */
  applyEvent(o: unknown): boolean {
    if (!isEventMessage(o)) {
      this.stats.ignored++;
      return false;
    }
    if (o.seq >= 0) {
      if (this.seen.has(o.seq)) {
        this.stats.duplicates++;
      } else {
        this.record(o);
      }
    }
    const before = this.state;
    if (this.state === null || !this.tryApply(o)) {
      if (this.state === null || o.seq > (this.state.seq ?? -1)) this.buffer(o);
    }
    this.drain();
    return this.state !== before;
  }

  private record(o: PublicEventMessage): void {
    this.seen.add(o.seq);
    this.arrivals.push(o.seq);
    const item: MirroredEvent = { seq: o.seq, at: o.at, event: o.event, findings: o.findings };
    // Usually appended at the end; a late one is inserted in seq order.
    let i = this.events.length;
    while (i > 0 && this.events[i - 1].seq > o.seq) i--;
    this.events.splice(i, 0, item);
    if (this.events.length > this.maxEvents) {
      const old = this.events.shift()!;
      this.seen.delete(old.seq);
    }
    if (this.arrivals.length > this.maxEvents) this.arrivals.shift();
  }

  private tryApply(e: PublicEventMessage): boolean {
    const s = this.state!;
    if (e.seq >= 0 && s.seq !== null && e.seq <= s.seq) return false; // already in the snapshot
    if (e.epoch !== s.epoch || e.baseRev !== s.rev) return false;
    try {
      const next = applyPatch(s as unknown as JsonValue, e.patch) as unknown as PublicState;
      if (next.rev !== e.rev) throw new Error(`patch gave rev ${next.rev}, the event says ${e.rev}`);
      this.state = next;
      this.stats.applied++;
      return true;
    } catch {
      this.stats.patchFailures++;
      return false;
    }
  }

  private buffer(e: PublicEventMessage): void {
    if (this.buffered.some((b) => b.epoch === e.epoch && b.rev === e.rev)) return;
    this.buffered.push(e);
    if (this.buffered.length > this.maxBuffered) this.buffered.shift();
  }

  // Apply waiting events that now fit, and forget those the snapshot already includes.
  private drain(): void {
    if (this.state === null) return;
    let progress = true;
    while (progress) {
      progress = false;
      const seq = this.state.seq ?? -1;
      this.buffered = this.buffered.filter((b) => b.seq < 0 || b.seq > seq);
      const i = this.buffered.findIndex((b) => b.epoch === this.state!.epoch && b.baseRev === this.state!.rev);
      if (i >= 0) {
        const [e] = this.buffered.splice(i, 1);
        progress = this.tryApply(e);
      }
    }
  }
}
