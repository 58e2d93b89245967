// Seat-level presence: how many readers (of one bridge, or of several sharing the object) see a tag
// under each seat. A card is placed when the first reader under its seat sees it and lifted when
// the last one loses it, so several antennas under one seat give one place per card.
//
// Every arrive and leave of a session passes here, so a tag's four counts are one small record that
// the driver keeps with its tag (`counts`): no Map is looked up, grown or shrunk per line. Records
// of tags seen nowhere are swept when the table grows (noise UIDs cannot grow it without bound);
// a swept record is marked `dead`, so whoever kept it looks the tag up again.
import type { Seat } from '../cards/seat.js';

/** One tag's reference counts under the seats N, E, S, W. */
export interface SeatCounts {
  readonly uid: string;
  readonly n: Int32Array;
  /** Swept from the table: no longer counted; get the tag's current record with `counts(uid)`. */
  dead: boolean;
}

/** Records kept before a sweep of the tags seen nowhere (a few decks' worth). */
const SWEEP_MIN = 4096;

function slot(seat: Seat): number {
  switch (seat) {
    case 'N':
      return 0;
    case 'E':
      return 1;
    case 'S':
      return 2;
    default:
      return 3;
  }
}

/** Reference counts of (seat, uid) across readers (and bridges, when shared). */
export class SeatPresence {
  private readonly byUid = new Map<string, SeatCounts>();
  private sweepAt = SWEEP_MIN;

  /** The record of a tag, made on first use: keep it and pass it to addAt/removeAt/hasAt. */
  counts(uid: string): SeatCounts {
    let c = this.byUid.get(uid);
    if (c === undefined) {
      if (this.byUid.size >= this.sweepAt) this.sweep();
      c = { uid, n: new Int32Array(4), dead: false };
      this.byUid.set(uid, c);
    }
    return c;
  }
  /** Increments; true when the tag was not yet present at the seat. */
  addAt(c: SeatCounts, seat: Seat): boolean {
    return c.n[slot(seat)]++ === 0;
  }
  /** Decrements; true when the tag is no longer present at the seat. */
  removeAt(c: SeatCounts, seat: Seat): boolean {
    const i = slot(seat);
    const n = c.n[i];
    if (n === 0) return false;
    c.n[i] = n - 1;
    return n === 1;
  }
  /** True when the tag is present at the seat. */
  hasAt(c: SeatCounts, seat: Seat): boolean {
    return c.n[slot(seat)] > 0;
  }
  /** Increments; true when the tag was not yet present at the seat. */
  add(seat: Seat, uid: string): boolean {
    return this.addAt(this.counts(uid), seat);
  }
  /** Decrements; true when the tag is no longer present at the seat. */
  remove(seat: Seat, uid: string): boolean {
    const c = this.byUid.get(uid);
    return c === undefined ? false : this.removeAt(c, seat);
  }
  /** True when the tag is present at the seat. */
  has(seat: Seat, uid: string): boolean {
    const c = this.byUid.get(uid);
    return c === undefined ? false : this.hasAt(c, seat);
  }

  /** Drops the records of tags seen at no seat; the next sweep waits until the table doubles. */
  private sweep(): void {
    for (const [uid, c] of this.byUid) {
      const n = c.n;
      if (n[0] === 0 && n[1] === 0 && n[2] === 0 && n[3] === 0) {
        c.dead = true;
        this.byUid.delete(uid);
      }
    }
    this.sweepAt = Math.max(SWEEP_MIN, 2 * this.byUid.size);
  }
}
