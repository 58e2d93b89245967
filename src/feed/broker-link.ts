// The feed's link to the broker as the operator sees it: each change said once (down, back up, another client with
// our client id), never once per reconnection attempt; and mqtt.js's fixed reconnection period made a back-off that
// grows while the broker stays away and while two clients take one session from each other.
import type { IDisconnectPacket, MqttClient } from 'mqtt';
import type { FeedLogger } from './feed-types.js';

/** MQTT 5 DISCONNECT reason: another connection with our client id took the session over. */
const SESSION_TAKEN_OVER = 0x8e;
/** A connection the broker ends sooner than this after accepting it counts as short-lived. */
const SHORT_LIVED_MS = 5000;
/** Short-lived connections in a row that mean another client is using our client id (MQTT 3.1.1 gives no reason). */
const SHORT_LIVED_CLASH = 3;

export interface BrokerLinkOptions {
  url: string;
  clientId: string;
  log: FeedLogger;
  /** The first wait before reconnecting, ms (default 1 s). */
  reconnectPeriod?: number;
  /** The longest wait, ms (default 30 s). */
  maxReconnectPeriod?: number;
}

/** What the feed tells the operator about its broker connection, and how long mqtt.js waits to reconnect. */
export class BrokerLink {
  /** The wait before the next reconnection attempt, ms: mqtt.js's reconnectPeriod. */
  reconnectDelay: number;
  private client: MqttClient | null = null;
  private connectedAt = 0;
  private downSince = Date.now();
  private downReported = false;
  private lastError: string | undefined;
  private takenOver = false;
  private shortLived = 0;
  /** Another client uses our client id: reported once; ends when a connection holds (clashTimer). */
  private clash = false;
  private clashTimer: NodeJS.Timeout | null = null;

  constructor(private readonly o: BrokerLinkOptions) {
    this.reconnectDelay = this.baseDelay();
  }

  /** The client whose reconnection period this link sets. */
  attach(client: MqttClient): void {
    this.client = client;
  }

  /** An error from mqtt.js: a broker refusing us is said once; connection errors wait for closed(). */
  error(err: Error): void {
    // Connection errors (refused, timed out, host unknown) are reported with the state change in closed(), once.
    // A broker refusing us (CONNACK reason: bad credentials, client id refused) is a misconfiguration: say it once.
    const refused = typeof (err as { code?: unknown }).code === 'number';
    const repeat = err.message === this.lastError;
    this.lastError = err.message;
    if (refused && !repeat) this.o.log.error({ url: this.o.url, err: err.message }, 'the broker refused the connection');
    else this.o.log.debug({ url: this.o.url, err: err.message }, 'mqtt error');
  }

  /** An MQTT 5 DISCONNECT from the broker: remember why, for the close that follows. */
  brokerDisconnect(packet: IDisconnectPacket): void {
    const code = packet.reasonCode ?? 0;
    if (code === SESSION_TAKEN_OVER) this.takenOver = true;
    this.lastError = `the broker disconnected us, reason 0x${code.toString(16).padStart(2, '0')}${packet.properties?.reasonString ? ` (${packet.properties.reasonString})` : ''}`;
  }

  /** Connected (`connects` so far, for the log): say so if the link was reported down, and watch a clash end. */
  connected(connects: number): void {
    const now = Date.now();
    this.connectedAt = now;
    if (this.clash) {
      this.o.log.debug({ url: this.o.url, connects }, 'connected to the broker');
      // The clash is over once a connection outlives the other client's longest wait before it takes the session back.
      this.clashTimer = setTimeout(() => {
        this.clashTimer = null;
        this.clash = false;
        this.shortLived = 0;
        this.reconnectDelay = this.baseDelay();
        this.applyDelay();
        this.o.log.info({ url: this.o.url, clientId: this.o.clientId }, 'the connection to the broker holds again: no other client is using our client id any more');
      }, 2 * this.maxDelay() + SHORT_LIVED_MS);
      this.clashTimer.unref();
    } else if (this.downReported) {
      const outageMs = now - this.downSince;
      this.o.log.info({ url: this.o.url, connects, outageMs }, `connected to the broker again after ${formatDuration(outageMs)}`);
    } else {
      this.o.log.info({ url: this.o.url, connects }, 'connected to the broker');
    }
    this.downReported = false;
    this.lastError = undefined;
  }

  /** The connection closed, or an attempt failed: said once an outage, and the next wait set. */
  closed(): void {
    const now = Date.now();
    if (this.connectedAt !== 0) {
      // A connection ended (not a failed attempt).
      const lived = now - this.connectedAt;
      this.connectedAt = 0;
      this.downSince = now;
      this.shortLived = lived < SHORT_LIVED_MS ? this.shortLived + 1 : 0;
      if (this.clashTimer) clearTimeout(this.clashTimer);
      this.clashTimer = null;
      if (this.takenOver || this.shortLived >= SHORT_LIVED_CLASH) this.reportClash(lived);
      if (this.clash) {
        // Two clients taking one session from each other: keep the waits growing, or they fight every second.
        this.growDelay();
      } else {
        this.reconnectDelay = this.baseDelay();
        this.downReported = true;
        this.o.log.warn({ url: this.o.url, err: this.lastError, retryMaxMs: this.maxDelay() }, 'disconnected from the broker; events wait in the journal; reconnecting');
      }
    } else {
      // A connection attempt failed.
      if (!this.downReported && !this.clash) {
        this.downReported = true;
        this.o.log.warn({ url: this.o.url, err: this.lastError, retryMaxMs: this.maxDelay() }, 'cannot reach the broker; events wait in the journal; retrying, less often as the outage lasts');
      } else {
        this.o.log.debug({ url: this.o.url, err: this.lastError, retryInMs: this.reconnectDelay }, 'reconnection failed');
      }
      this.growDelay();
    }
    this.takenOver = false;
    this.applyDelay();
  }

  /** Stop watching (the feed stops). */
  stop(): void {
    if (this.clashTimer) clearTimeout(this.clashTimer);
    this.clashTimer = null;
  }

  /** Say once that another client uses our client id, and how to fix it. */
  private reportClash(lived: number): void {
    if (this.clash) return;
    this.clash = true;
    const id = this.o.clientId;
    const fix = 'two daemons (or a daemon and a test client) are using one client id: give each table its own table.id, or set a unique mqtt.clientId';
    const why = this.takenOver
      ? `another client connected with client id "${id}" and took our session over (MQTT reason 0x8e, session taken over)`
      : `the broker closed the connection ${this.shortLived} times in a row right after accepting it (the last after ${lived} ms): most likely another client uses client id "${id}"`;
    this.o.log.error({ url: this.o.url, clientId: id, retryMaxMs: this.maxDelay() }, `${why}; ${fix}. Reconnecting less and less often meanwhile`);
  }

  private baseDelay(): number {
    return this.o.reconnectPeriod ?? 1000;
  }

  private maxDelay(): number {
    return Math.max(this.baseDelay(), this.o.maxReconnectPeriod ?? 30_000);
  }

  private growDelay(): void {
    this.reconnectDelay = Math.min(this.maxDelay(), this.reconnectDelay * 2);
  }

  // mqtt.js reconnects on a fixed period (a setInterval it starts on 'close'); there is no public way to back off,
  // so the period is changed in its options and its timer restarted with it. Without those internals (a future
  // mqtt.js) it keeps reconnecting on the first period.
  private applyDelay(): void {
    const c = this.client as unknown as { options: { reconnectPeriod?: number }; reconnectTimer?: unknown; _clearReconnect?: () => void; _setupReconnect?: () => void } | null;
    if (!c) return;
    c.options.reconnectPeriod = this.reconnectDelay;
    if (c.reconnectTimer && typeof c._clearReconnect === 'function' && typeof c._setupReconnect === 'function') {
      c._clearReconnect();
      c._setupReconnect();
    }
  }
}

/** An outage's length for the log line that ends it: "42 s", "3 min 5 s", "1 h 12 min". */
function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}
