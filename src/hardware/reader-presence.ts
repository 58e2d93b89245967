// J: the (reader, tag) pairs one bridge's readers see, and the tags themselves, each interned once.
//
// Every arrive and leave line asks "is this tag on this reader?" and changes the answer. A tag is
// interned the first time its UID is read (found again by a hash of its bytes, so a line's UID
// never becomes a string once its tag is known), with its deck entry and its seat counts looked up
// once. J is then a bit per reader on the tag: nothing is allocated, and no Map grows or shrinks,
// as cards come and go. J's order (the order its entries began, which decides the order of the
// lifts a snapshot reconciles) is kept as a stamp per entry and rebuilt only when J is listed.
import type { DeckEntry, DeckSet } from './deck.js';
import { uidHashOfString } from './card-line.js';
import { latin1 } from './line-splitter.js';
import { MAX_READERS } from './protocol.js';
import type { SeatCounts, SeatPresence } from './seat-presence.js';

/** A tag seen by this bridge. */
export interface Tag {
  readonly uid: string;
  readonly hash: number;
  /** The next tag with the same hash. */
  next: Tag | undefined;
  /** Its card and deck, when the tag is in a loaded deck. */
  readonly entry: DeckEntry | undefined;
  /** Its seat counts (see `seatCounts`: they may have been swept and made again). */
  counts: SeatCounts;
  /** The readers of this bridge that see it, one bit each: its part of J. */
  on: number;
  /** When each of its J entries began (a stamp per reader), once it had one. */
  since: Float64Array | undefined;
  /** Dropped from the table by a sweep: J is kept on the table's tag of the same UID instead. */
  swept: boolean;
}

/** An entry of J. */
export interface ReaderTag {
  reader: number;
  uid: string;
}

/** Tags kept before a sweep of those no reader sees (a few decks' worth). */
const SWEEP_MIN = 4096;

function sameBytes(uid: string, buf: Uint8Array, start: number, end: number): boolean {
  if (uid.length !== end - start) return false;
  for (let i = 0; i < uid.length; i++) if (uid.charCodeAt(i) !== buf[start + i]) return false;
  return true;
}

/** J of one bridge, over its interned tags. */
export class ReaderPresence {
  /** Tags by UID hash, colliding ones chained through `next`. */
  private readonly byHash = new Map<number, Tag>();
  private tags = 0;
  private sweepAt = SWEEP_MIN;
  private clock = 0;
  private readonly perReader = new Int32Array(MAX_READERS);
  private total = 0;

  constructor(
    private readonly decks: DeckSet,
    private readonly seats: SeatPresence,
  ) {}

  /** The tag whose UID is buf[start, end), `hash` being uidHashOfBytes of it; interned on first sight. */
  tagAt(buf: Uint8Array, start: number, end: number, hash: number): Tag {
    for (let t = this.byHash.get(hash); t !== undefined; t = t.next) {
      if (sameBytes(t.uid, buf, start, end)) return t;
    }
    return this.intern(latin1(buf as Buffer, start, end), hash);
  }

  /** The tag of a UID given as text; interned on first sight. */
  tag(uid: string): Tag {
    const hash = uidHashOfString(uid);
    for (let t = this.byHash.get(hash); t !== undefined; t = t.next) if (t.uid === uid) return t;
    return this.intern(uid, hash);
  }

  /** The tag's seat counts, made again if the shared table swept them. */
  seatCounts(t: Tag): SeatCounts {
    return t.counts.dead ? (t.counts = this.seats.counts(t.uid)) : t.counts;
  }

  /** True when the reader sees the tag. */
  has(t: Tag, reader: number): boolean {
    if (t.swept) t = this.tag(t.uid);
    return (t.on & (1 << reader)) !== 0;
  }

  /** Enters (reader, tag) into J; false when it was there already (its place in J's order kept). */
  add(t: Tag, reader: number): boolean {
    // A tag held across a sweep (a listener fed more lines meanwhile) is looked up again.
    if (t.swept) t = this.tag(t.uid);
    const bit = 1 << reader;
    if ((t.on & bit) !== 0) return false;
    t.on |= bit;
    (t.since ??= new Float64Array(MAX_READERS))[reader] = ++this.clock;
    this.perReader[reader]++;
    this.total++;
    return true;
  }

  /** Takes (reader, tag) out of J; false when it was not there. */
  delete(t: Tag, reader: number): boolean {
    if (t.swept) t = this.tag(t.uid);
    const bit = 1 << reader;
    if ((t.on & bit) === 0) return false;
    t.on &= ~bit;
    this.perReader[reader]--;
    this.total--;
    return true;
  }

  /** How many tags the reader sees. */
  count(reader: number): number {
    return this.perReader[reader];
  }

  /** How many entries J has. */
  get size(): number {
    return this.total;
  }

  /** J's entries in the order they began (a Map of them would list them so). */
  entries(): ReaderTag[] {
    const found: Array<{ at: number; reader: number; uid: string }> = [];
    for (const head of this.byHash.values()) {
      for (let t: Tag | undefined = head; t !== undefined; t = t.next) {
        if (t.on === 0) continue;
        for (let r = 0; r < MAX_READERS; r++) if ((t.on & (1 << r)) !== 0) found.push({ at: t.since![r], reader: r, uid: t.uid });
      }
    }
    found.sort((a, b) => a.at - b.at);
    return found.map((e) => ({ reader: e.reader, uid: e.uid }));
  }

  private intern(uid: string, hash: number): Tag {
    if (this.tags >= this.sweepAt) this.sweep();
    const t: Tag = { uid, hash, next: this.byHash.get(hash), entry: this.decks.lookup(uid), counts: this.seats.counts(uid), on: 0, since: undefined, swept: false };
    this.byHash.set(hash, t);
    this.tags++;
    return t;
  }

  /** Forgets the tags no reader sees (they are interned again if read again). */
  private sweep(): void {
    const keep: Tag[] = [];
    for (const head of this.byHash.values()) {
      for (let t: Tag | undefined = head; t !== undefined; t = t.next) {
        if (t.on !== 0) keep.push(t);
        else t.swept = true;
      }
    }
    this.byHash.clear();
    for (const t of keep) {
      t.next = this.byHash.get(t.hash);
      this.byHash.set(t.hash, t);
    }
    this.tags = keep.length;
    this.sweepAt = Math.max(SWEEP_MIN, 2 * keep.length);
  }
}
