// Partition leases: how several director instances on one database share a session's tables (docs/championship.md).
//
// The tables fall into partitions by number; an instance follows the tables of the partitions it holds a lease on,
// and no other. A lease is a row in the store with a holder and an expiry; the holder renews it every heartbeat. An
// instance that dies stops renewing, its leases expire, and the live instances take them. Each instance aims at its
// fair share (the partitions divided among the instances seen alive), so a new instance gets work and a dying one's
// work is spread. Two instances may briefly both follow a table (a lease taken while its old holder is paused): that
// is safe, because every write is keyed (events by table and seq, results by board, table and round) and writing it twice
// changes nothing.
import type { Logger } from '../../config/logger.js';
import type { LeaseOps } from './store.js';

/** What the leases need to know and do. */
export interface LeaseOptions {
  ops: LeaseOps;
  session: string;
  instance: string;
  partitions: number;
  leaseMs: number;
  heartbeatMs: number;
  log: Logger;
  /** Partitions gained and lost since the last call; runs to completion before the next heartbeat. */
  onChange: (gained: number[], lost: number[]) => Promise<void>;
  /** The database cannot be reached for longer than a lease: the instance can no longer know what it holds. */
  onFailure: (err: Error) => void;
  now?: () => number;
}

/** The partition of a table by its number in the schedule (1-based). */
export function partitionOf(tableNo: number, partitions: number): number {
  return (tableNo - 1) % partitions;
}

/** The partitions an instance should hold: its share of the partitions among the live instances, rounded up. */
export function fairShare(partitions: number, liveInstances: number): number {
  return Math.ceil(partitions / Math.max(1, liveInstances));
}

/** An instance's leases: start() takes its share and keeps it renewed until stop(). */
export class PartitionLeases {
  /** The partitions held now. */
  readonly held = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private lastOk: number;
  private failing = false;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly o: LeaseOptions) {
    this.now = o.now ?? Date.now;
    this.lastOk = this.now();
  }

  /** The partition whose holder publishes what is the session's, not a table's (standings, released trays). */
  get leader(): boolean {
    return this.held.has(0);
  }

  /** Take the first share now, then keep at it every heartbeat. */
  async start(): Promise<void> {
    await this.o.ops.ensureLeases(this.o.session, this.o.partitions);
    await this.tick();
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.tick()).catch(() => undefined);
    }, this.o.heartbeatMs);
    this.timer.unref();
  }

  /** Stop renewing; with `release`, give every lease up so the others take them at once (a clean stop). */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running.catch(() => undefined);
    if (!release) return;
    for (const p of this.held) await this.o.ops.release(this.o.session, p, this.o.instance).catch(() => undefined);
    await this.o.ops.forget(this.o.session, this.o.instance).catch(() => undefined);
    this.held.clear();
  }

  /** One heartbeat: say we are alive, renew what we hold, give up what is over our share, take what is free. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const { ops, session, instance, leaseMs } = this.o;
    const gained: number[] = [];
    const lost: number[] = [];
    try {
      const now = this.now();
      await ops.heartbeat(session, instance, now);
      const until = now + leaseMs;
      for (const p of [...this.held]) {
        if (!(await ops.renew(session, p, instance, until))) {
          this.held.delete(p);
          lost.push(p);
        }
      }
      const live = await ops.liveInstances(session, now - leaseMs);
      const share = fairShare(this.o.partitions, live.length);
      if (this.held.size > share) {
        // Over our share (another instance came up): give up the highest partitions, keeping partition 0 (the
        // session's publisher) where we hold it, so the standings do not change hands for nothing.
        const extra = [...this.held].sort((a, b) => b - a).filter((p) => p !== 0).slice(0, this.held.size - share);
        for (const p of extra) {
          await ops.release(session, p, instance);
          this.held.delete(p);
          lost.push(p);
        }
      } else if (this.held.size < share) {
        for (const l of await ops.leases(session)) {
          if (this.held.size >= share) break;
          if (this.held.has(l.part) || l.part >= this.o.partitions) continue;
          if (l.holder !== null && l.holder !== instance && l.expiresMs >= now) continue;
          if (await ops.acquire(session, l.part, instance, now, until)) {
            this.held.add(l.part);
            gained.push(l.part);
          }
        }
      }
      this.lastOk = now;
      this.failing = false;
    } catch (err) {
      // Said once an outage: the heartbeats go on trying, and one that outlasts the lease fails the service.
      if (!this.failing) this.o.log.warn({ err: (err as Error).message }, 'director: cannot renew the partition leases; trying again at each heartbeat');
      this.failing = true;
      if (this.now() - this.lastOk > this.o.leaseMs) {
        this.o.onFailure(err as Error);
        return;
      }
    }
    if (gained.length > 0 || lost.length > 0) {
      this.o.log.info({ instance, gained, lost, held: [...this.held].sort((a, b) => a - b) }, 'director: partitions changed hands');
      await this.o.onChange(gained, lost);
    }
  }
}
