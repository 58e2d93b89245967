// An in-memory journal and delivery mark for the feed, for tests and the simulator.
import type { TableEvent } from '../formats/table-log.js';
import type { DeliveryMark, EventSource } from './feed-types.js';

/** Whether `v` is a journal seq: a non-negative integer. */
export function isSeq(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/** An in-memory journal for tests and the simulator: events appended with increasing seq. */
export class MemoryEventSource implements EventSource {
  readonly events: TableEvent[] = [];

  /** Append an event; it must carry a seq greater than the last one. */
  append(ev: TableEvent): void {
    const last = this.events.length ? this.events[this.events.length - 1].seq! : -1;
    if (!isSeq(ev.seq) || ev.seq <= last) throw new Error(`MemoryEventSource.append: seq must be an integer > ${last} (got ${ev.seq})`);
    this.events.push(ev);
  }

  /** The events with seq greater than `seq`, in order (a snapshot: appends during iteration are not seen). */
  *eventsAfter(seq: number): Iterable<TableEvent> {
    // Binary search: the feed asks after every event, and a session holds thousands.
    let lo = 0, hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].seq! <= seq) lo = mid + 1;
      else hi = mid;
    }
    const end = this.events.length;
    for (let i = lo; i < end; i++) yield this.events[i];
  }
}

/** An in-memory delivery mark for tests and the simulator. */
export class MemoryDeliveryMark implements DeliveryMark {
  private value: number;
  /** Every value set, in order: tests check that the mark only moves forward. */
  readonly history: number[] = [];

  constructor(initial = -1) {
    this.value = initial;
  }

  /** The highest acknowledged seq, or -1. */
  get(): number {
    return this.value;
  }

  /** Record a newly acknowledged seq. */
  async set(seq: number): Promise<void> {
    this.value = seq;
    this.history.push(seq);
  }
}
