// Seat-level presence: how many readers (of one bridge, or of several sharing the object) see a tag
// under each seat. A card is placed when the first reader under its seat sees it and lifted when
// the last one loses it, so several antennas under one seat give one place per card.
import type { Seat } from '../cards/seat.js';

/** Reference counts of (seat, uid) across readers (and bridges, when shared). */
export class SeatPresence {
  /** One map per seat, by uid: no key string built per line (the driver asks on every arrive/leave). */
  private readonly counts = new Map<Seat, Map<string, number>>();
  private atSeat(seat: Seat): Map<string, number> {
    let m = this.counts.get(seat);
    if (!m) this.counts.set(seat, (m = new Map()));
    return m;
  }
  /** Increments; true when the tag was not yet present at the seat. */
  add(seat: Seat, uid: string): boolean {
    const m = this.atSeat(seat);
    const n = m.get(uid) ?? 0;
    m.set(uid, n + 1);
    return n === 0;
  }
  /** Decrements; true when the tag is no longer present at the seat. */
  remove(seat: Seat, uid: string): boolean {
    const m = this.atSeat(seat);
    const n = m.get(uid) ?? 0;
    if (n <= 1) {
      m.delete(uid);
      return n === 1;
    }
    m.set(uid, n - 1);
    return false;
  }
  /** True when the tag is present at the seat. */
  has(seat: Seat, uid: string): boolean {
    return this.counts.get(seat)?.has(uid) ?? false;
  }
}
