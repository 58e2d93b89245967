// The director's intake: what a table may send it, and what happens to the rest (issue 18). A table's account can
// publish anything on its own topics, so the director bounds each message by its kind, bounds the events it holds
// past a gap, rate-limits a table's alerts, and refuses a seq that is not a positive whole number. Every refusal is
// counted, and logged once per burst with one alert on the director's console naming the table: a flood costs a
// counter, not a log line, a stored row or a console entry per message.
import type { Logger } from '../../config/logger.js';
import type { ClubAlert } from '../types.js';

/** The kinds of message the director takes in, by topic. */
export type MessageKind = 'event' | 'events' | 'status' | 'alert' | 'decision' | 'tray';

/** The events a `request/events` asks for at once (its `limit`). */
export const REQUEST_LIMIT = 500;

/** One journal event's limit: a place or lift is about 100 bytes, a deal with its hands about 300. */
const EVENT_BYTES = 4096;

/**
 * The largest message of each kind the director takes (bytes of the MQTT payload). Generous, about ten times the
 * largest a table makes, but bounded: what is over is refused before it is parsed, stored or folded.
 */
export const INTAKE_LIMITS: Readonly<Record<MessageKind, number>> = {
  /** `<table>/director/event`: one journal event in its envelope. */
  event: EVENT_BYTES + 256,
  /** `<table>/response/events`: up to REQUEST_LIMIT events. */
  events: REQUEST_LIMIT * EVENT_BYTES + 4096,
  /** `<table>/status`: "online" or "offline". */
  status: 64,
  /** `<table>/director`: a table's alert (a wrong tray). */
  alert: 4096,
  /** `club/<session>/request/<cmd>`: a director's decision (a corrected tray, fouled-board groups of 200 tables). */
  decision: 16384,
  /** `trays/<session>/<board>`: a tray record. */
  tray: 8192,
};

/**
 * The largest MQTT packet the director accepts (MQTT 5 `maximumPacketSize`): the broker drops anything larger
 * instead of sending it, so a 100 MB publish never reaches the director's memory at all.
 */
export const MAX_PACKET_BYTES = 4 * 1024 * 1024;

/** How far past the last event folded a table's events are held while a gap is filled; beyond, dropped and asked again. */
export const GAP_WINDOW = REQUEST_LIMIT;

/** A table's alerts: at most this many at once, then one more every ALERT_REFILL_MS. */
export const ALERT_BURST = 10;
const ALERT_REFILL_MS = 10_000;

/** Refusals of one reason from one table less than this far apart are one burst: logged and alerted once. */
export const BURST_MS = 10_000;

/** Why a message was refused. */
export type RefusalReason = 'too-large' | 'bad-seq' | 'invalid-event' | 'past-window' | 'reused-seq' | 'alert-rate' | 'other-session' | 'not-understood';

/** What the director is told about a refusal: the table, the reason, and what to put in the log and the sentence. */
export interface Refusal {
  table: string | null;
  reason: RefusalReason;
  /** For the log line only (never published: it may hold what a table sent). */
  detail?: Record<string, unknown>;
  /** too-large: the kind and size. */
  kind?: MessageKind;
  bytes?: number;
  /** bad-seq, past-window, reused-seq: the seq. */
  seq?: unknown;
}

/** The sentence for the director's console: plain words, the table, and what became of the message. */
function sentence(r: Refusal, n: number): string {
  const t = `Table ${r.table}`;
  const seq = typeof r.seq === 'number' ? String(r.seq) : JSON.stringify(r.seq ?? null).slice(0, 24);
  const more = n > 1 ? ` (${n} refused from this table so far)` : '';
  switch (r.reason) {
    case 'too-large': return `${t} sent a message larger than the director takes (${r.bytes} bytes, the limit for ${KIND_WORDS[r.kind!]} is ${INTAKE_LIMITS[r.kind!]}); it was refused${more}.`;
    case 'bad-seq': return `${t} sent an event numbered ${seq}, which is not a whole number from 1 up; it was refused${more}.`;
    case 'invalid-event': return `${t} sent an event the director cannot read; it was refused${more}. Check the table's software.`;
    case 'past-window': return `${t} sent event ${seq}, more than ${GAP_WINDOW} events ahead of a gap in its events; it was dropped and will be asked for again${more}.`;
    case 'reused-seq': return `${t} sent event ${seq} a second time with other content; the first one stands${more}. Check the table's journal.`;
    case 'alert-rate': return `${t} sent more alerts than ${ALERT_BURST} at once; the rest were refused${more}.`;
    case 'other-session': return `${t} is sending events of another session; they were refused${more}. Check the session the table was started with.`;
    case 'not-understood': return `${t} sent a message the director cannot read; it was refused${more}.`;
  }
}

const KIND_WORDS: Record<MessageKind, string> = {
  event: 'an event', events: 'a batch of events', status: 'a status', alert: 'an alert', decision: 'a decision', tray: 'a tray record',
};

/** The kind of a message by its topic below `<base>/<club>/`; null for a topic the intake does not bound. */
export function kindOf(parts: readonly string[]): MessageKind | null {
  if (parts[0] === 'club') return parts[2] === 'request' ? 'decision' : null;
  if (parts[0] === 'trays') return 'tray';
  const rest = parts.slice(1).join('/');
  return rest === 'director/event' ? 'event' : rest === 'response/events' ? 'events' : rest === 'status' ? 'status' : rest === 'director' ? 'alert' : null;
}

/** A seq as the contract has it: a positive safe integer (a string "1", -1 or 1.5 is not one). */
export function isSeq(seq: unknown): seq is number {
  return Number.isSafeInteger(seq) && (seq as number) >= 1;
}

/** The same JSON value, whatever the order of its object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The alert for a deal of a board the movement does not have (a mis-scanned or foreign tray, or a forged deal). */
export function unknownBoardAlert(session: string, table: string, board: number, seq: number, at: string): ClubAlert {
  return {
    schema: 1, type: 'tenace.alert', kind: 'unknown-board', session, table, board, seq, at,
    message: `Table ${table} dealt board ${board}, which is not in this session's movement. Check the tray at the table.`,
  };
}

/** The refusals counted, and the bursts and alert budgets per table. */
export class IntakeGuard {
  private readonly refused = new Map<string, { n: number; lastAt: number }>();
  private readonly budgets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly o: { log: Logger; session: string; now: () => number; iso: () => string }) {}

  /**
   * Count a refusal; the first of a burst is logged, and gives the alert to raise (a table's) — null otherwise.
   * A burst lasts while refusals of that reason from that table come less than BURST_MS apart.
   */
  refuse(r: Refusal): ClubAlert | null {
    const key = `${r.table ?? ''}\u0000${r.reason}`;
    const now = this.o.now();
    const s = this.refused.get(key) ?? { n: 0, lastAt: -Infinity };
    s.n++;
    const fresh = now - s.lastAt > BURST_MS;
    s.lastAt = now;
    this.refused.set(key, s);
    if (!fresh) return null;
    const { detail, ...rest } = r;
    this.o.log.warn({ ...rest, ...detail, refused: s.n }, `director: refused a message${r.table === null ? '' : ` from table ${r.table}`} (${r.reason}); more like it are counted, not logged, until they stop for ${BURST_MS / 1000} s`);
    if (r.table === null) return null;
    const at = this.o.iso();
    return {
      schema: 1, type: 'tenace.alert', kind: r.reason === 'reused-seq' ? 'reused-seq' : 'refused-message', session: this.o.session, table: r.table,
      message: sentence(r, s.n), ...(typeof r.seq === 'number' && r.reason === 'reused-seq' ? { seq: r.seq } : {}), at,
    };
  }

  /** Whether a table may raise one more alert now (a token bucket: ALERT_BURST at once, one per ALERT_REFILL_MS). */
  allowAlert(table: string): boolean {
    const now = this.o.now();
    const b = this.budgets.get(table) ?? { tokens: ALERT_BURST, at: now };
    b.tokens = Math.min(ALERT_BURST, b.tokens + (now - b.at) / ALERT_REFILL_MS);
    b.at = now;
    this.budgets.set(table, b);
    if (b.tokens < 1) return false;
    b.tokens--;
    return true;
  }

  /** The refusals so far, by table and reason (`"<table>:<reason>"`; `":<reason>"` for the club's own topics). */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.refused].map(([k, s]) => [k.replace('\u0000', ':'), s.n]));
  }
}
