// From reader presence to seat events: J (which reader sees which tag), the journal's entries not
// yet matched to a tag, the seat counts, and the place/lift TableEvents they yield.
//
// The driver owns the stream (order, resyncs); this module owns what the table holds. It is told
// each arrive/leave in stream order (`applyOne`, the hot path of every card line) or a whole
// snapshot (`reconcile`), and emits through its host: the driver, which names the events' `src`
// and catches its listeners' exceptions.
import type { Seat } from '../cards/seat.js';
import type { EventSource } from '../formats/table-log.js';
import type { DeckEntry, DeckSet } from './deck.js';
import type { DriverStats, EventOrigin, PresenceChange, PresenceEntry, SeatEvent } from './driver-types.js';
import { MAX_READERS } from './protocol.js';
import { ReaderPresence, type Tag } from './reader-presence.js';
import type { SeatMap } from './seat-map.js';
import type { SeatPresence } from './seat-presence.js';

/** What SeatEvents needs from its driver. */
export interface SeatEventsHost {
  readonly stats: DriverStats;
  /** The boot id the events' `src` name: the one the driver follows. */
  boot(): number;
  /** Emits a place/lift (the host catches and counts a listener's exception). */
  event(ev: SeatEvent, origin: EventOrigin): void;
  /** True when someone listens to reader-level presence changes. */
  wantsPresence(): boolean;
  presence(change: PresenceChange): void;
}

/** One bridge's presence (J and the journal's unmatched entries) and the seat events it yields. */
export class SeatEvents {
  /** J: the (reader, tag) pairs present on this bridge, over the tags it has seen. */
  private readonly j: ReaderPresence;
  /** The seat of each reader of this bridge (a SeatMap never changes): asked on every arrive/leave. */
  private readonly readerSeat: (Seat | undefined)[] = [];
  /** Seat-level entries from a journal, not yet matched to a (reader, uid): label → count. */
  private readonly pendingSeat = new Map<string, number>();

  constructor(
    private readonly bridge: string,
    private readonly seatMap: SeatMap,
    decks: DeckSet,
    private readonly seats: SeatPresence,
    private readonly host: SeatEventsHost,
  ) {
    this.j = new ReaderPresence(decks, seats);
    for (let r = 0; r < MAX_READERS; r++) this.readerSeat.push(seatMap.seatOf(bridge, r));
  }

  /** The tag whose UID is buf[start, end) (`hash`: uidHashOfBytes of it), interned on first sight. */
  tagAt(buf: Uint8Array, start: number, end: number, hash: number): Tag {
    return this.j.tagAt(buf, start, end, hash);
  }

  /** The tag of a UID given as text. */
  tag(uid: string): Tag {
    return this.j.tag(uid);
  }

  /** How many tags J has on the reader. */
  count(reader: number): number {
    return this.j.count(reader);
  }

  /** True while journal entries wait to be matched to a tag (J is not complete yet). */
  get unmatched(): boolean {
    return this.pendingSeat.size > 0;
  }

  /** J's (reader, uid) pairs, then the journal entries not matched yet. */
  presence(): PresenceEntry[] {
    const out: PresenceEntry[] = this.j.entries().map((p) => ({ bridge: this.bridge, reader: p.reader, uid: p.uid }));
    for (const [label, n] of this.pendingSeat) {
      const seat = label[0] as Seat;
      const rest = label.slice(2);
      for (let i = 0; i < n; i++) {
        out.push(rest.startsWith('card:') ? { bridge: this.bridge, seat, card: rest.slice(5) } : { bridge: this.bridge, seat, tag: rest.slice(4) });
      }
    }
    return out;
  }

  /**
   * Reconciles J with a complete snapshot (its tags; `status`: its reader states) and emits what
   * changed, every event order-unknown at `endSeq`. Tags of readers that are not O are kept:
   * those readers are returned as deferred, with the readers of journal entries left unmatched.
   */
  reconcile(tags: ReadonlyArray<{ reader: number; uid: string }>, status: string, endSeq: number): { places: number; lifts: number; deferred: Set<number> } {
    const inS = new Set<string>();
    const changes: Array<{ kind: 'arrive' | 'leave'; reader: number; uid: string }> = [];
    const deferred = new Set<number>();
    for (const t of tags) {
      const k = `${t.reader} ${t.uid}`;
      if (inS.has(k)) continue;
      inS.add(k);
      if (!this.j.has(this.j.tag(t.uid), t.reader)) changes.push({ kind: 'arrive', reader: t.reader, uid: t.uid });
    }
    for (const p of this.j.entries()) {
      if (inS.has(`${p.reader} ${p.uid}`)) continue;
      if (status[p.reader] === 'O') changes.push({ kind: 'leave', reader: p.reader, uid: p.uid });
      else deferred.add(p.reader);
    }
    const batch = this.applyBatch(changes);
    // Journal entries (seat + card) that no tag matched: gone, if every reader of the seat is O.
    const labelLifts: Array<{ seat: Seat; label: string; reader: number }> = [];
    for (const [label, n] of [...this.pendingSeat]) {
      const seat = label[0] as Seat;
      const readers = this.seatMap.readersOf(this.bridge, seat);
      if (readers.length > 0 && readers.every((r) => status[r] === 'O')) {
        this.pendingSeat.delete(label);
        for (let i = 0; i < n; i++) labelLifts.push({ seat, label, reader: readers[0] });
      } else {
        for (const r of readers) deferred.add(r);
      }
    }
    // When these cards moved is not known: every event is marked so, with the snapshot's position.
    // Lifts first (as in a poll), then the late places.
    for (const b of batch.lifts) this.emitSeat('lift', b.seat, b.reader, b.tag.uid, b.tag.entry, true, endSeq, true);
    for (const l of labelLifts) this.emitLabelLift(l.seat, l.label, l.reader, endSeq);
    for (const b of batch.places) this.emitSeat('place', b.seat, b.reader, b.tag.uid, b.tag.entry, true, endSeq, true);
    return { places: batch.places.length, lifts: batch.lifts.length + labelLifts.length, deferred };
  }

  /** Enters one entry of the journal's presence (a daemon restart). */
  seed(e: PresenceEntry): void {
    if (e.bridge !== undefined && e.bridge !== this.bridge) return;
    if ('uid' in e) {
      const tag = this.j.tag(e.uid);
      if (!this.j.add(tag, e.reader)) return;
      const seat = this.readerSeat[e.reader];
      if (seat) this.seats.addAt(this.j.seatCounts(tag), seat);
      return;
    }
    // Seat-level entries belong to this bridge only if it has a reader under that seat.
    if (this.seatMap.readersOf(this.bridge, e.seat).length === 0) return;
    const label = 'card' in e ? `${e.seat}|card:${e.card}` : `${e.seat}|tag:${e.tag}`;
    this.pendingSeat.set(label, (this.pendingSeat.get(label) ?? 0) + 1);
  }

  private labelOf(seat: Seat, tag: Tag): string {
    return tag.entry ? `${seat}|card:${tag.entry.card}` : `${seat}|tag:${tag.uid}`;
  }

  /** Takes one matching journal entry, if any (true when one was consumed). */
  private takePending(seat: Seat, tag: Tag): boolean {
    if (this.pendingSeat.size === 0) return false;
    const label = this.labelOf(seat, tag);
    const n = this.pendingSeat.get(label);
    if (!n) return false;
    if (n <= 1) this.pendingSeat.delete(label);
    else this.pendingSeat.set(label, n - 1);
    return true;
  }

  /** An arrive/leave in stream order (live or replayed): the hot path. */
  applyOne(kind: 'arrive' | 'leave', reader: number, tag: Tag, late: boolean, seq: number, unknown: boolean): void {
    const seat = this.readerSeat[reader];
    if (kind === 'arrive') {
      if (!this.j.add(tag, reader)) {
        this.host.stats.redundant++;
        return;
      }
      if (this.host.wantsPresence()) this.host.presence({ kind, bridge: this.bridge, reader, uid: tag.uid, late });
      if (!seat) {
        this.host.stats.unmapped++;
        return;
      }
      const first = this.seats.addAt(this.j.seatCounts(tag), seat);
      if (first && !this.takePending(seat, tag)) this.emitSeat('place', seat, reader, tag.uid, tag.entry, late, seq, unknown);
    } else {
      if (!this.j.delete(tag, reader)) {
        // Not in J. If the journal says this card lies at this seat, the leave is real (§11).
        if (seat && this.takePending(seat, tag) && !this.seats.hasAt(this.j.seatCounts(tag), seat)) {
          if (this.host.wantsPresence()) this.host.presence({ kind, bridge: this.bridge, reader, uid: tag.uid, late });
          this.emitSeat('lift', seat, reader, tag.uid, tag.entry, late, seq, unknown);
        } else this.host.stats.redundant++;
        return;
      }
      if (this.host.wantsPresence()) this.host.presence({ kind, bridge: this.bridge, reader, uid: tag.uid, late });
      if (!seat) {
        this.host.stats.unmapped++;
        return;
      }
      if (this.seats.removeAt(this.j.seatCounts(tag), seat)) this.emitSeat('lift', seat, reader, tag.uid, tag.entry, late, seq, unknown);
    }
  }

  /**
   * Applies a snapshot's differences to J and the seat counts, and returns the seat-level changes
   * to emit. Seat-level effects are netted, so a tag that moved between two readers under the same
   * seat produces nothing; places that match a journal entry are adopted silently.
   */
  private applyBatch(changes: Array<{ kind: 'arrive' | 'leave'; reader: number; uid: string }>): {
    places: Array<{ seat: Seat; tag: Tag; reader: number }>;
    lifts: Array<{ seat: Seat; tag: Tag; reader: number }>;
  } {
    const before = new Map<string, { seat: Seat; tag: Tag; reader: number; was: boolean }>();
    for (const c of changes) {
      const seat = this.seatMap.seatOf(this.bridge, c.reader);
      const tag = this.j.tag(c.uid);
      if (seat) {
        const sk = seat + c.uid;
        if (!before.has(sk)) before.set(sk, { seat, tag, reader: c.reader, was: this.seats.hasAt(this.j.seatCounts(tag), seat) });
      } else this.host.stats.unmapped++;
      if (c.kind === 'arrive') {
        this.j.add(tag, c.reader);
        if (seat) this.seats.addAt(this.j.seatCounts(tag), seat);
      } else {
        this.j.delete(tag, c.reader);
        if (seat) this.seats.removeAt(this.j.seatCounts(tag), seat);
      }
      this.host.presence({ kind: c.kind, bridge: this.bridge, reader: c.reader, uid: c.uid, late: true });
    }
    const places: Array<{ seat: Seat; tag: Tag; reader: number }> = [];
    const lifts: Array<{ seat: Seat; tag: Tag; reader: number }> = [];
    for (const b of before.values()) {
      const now = this.seats.hasAt(this.j.seatCounts(b.tag), b.seat);
      if (b.was && !now) lifts.push(b);
      else if (!b.was && now && !this.takePending(b.seat, b.tag)) places.push(b);
    }
    return { places, lifts };
  }

  /**
   * Emits a place/lift TableEvent with where it came from. Every event is built whole in one
   * literal (its fields in the order a journal writes them), so all of them share one shape.
   */
  private emitSeat(type: 'place' | 'lift', seat: Seat, reader: number, uid: string, entry: DeckEntry | undefined, late: boolean, seq: number, unknown: boolean): void {
    const src: EventSource = { bridge: this.bridge, boot: this.host.boot(), seq };
    let ev: SeatEvent;
    let origin: EventOrigin;
    if (entry) {
      // Spelled twice only for the type checker (PlaceEvent | LiftEvent): one shape.
      ev = type === 'place' ? { type, seat, card: entry.card, src } : { type, seat, card: entry.card, src };
      origin = { bridge: this.bridge, reader, uid, late, deck: entry.deck };
    } else {
      ev = { type, seat, tag: uid, src };
      origin = { bridge: this.bridge, reader, uid, late };
    }
    if (unknown) {
      ev.orderUnknown = true;
      this.host.stats.orderUnknown++;
    }
    if (type === 'place') {
      this.host.stats.places++;
      if (late) this.host.stats.latePlaces++;
      if (!entry) this.host.stats.unknownTags++;
    } else {
      this.host.stats.lifts++;
      if (late) this.host.stats.lateLifts++;
    }
    this.host.event(ev, origin);
  }

  private emitLabelLift(seat: Seat, label: string, reader: number, seq: number): void {
    const rest = label.slice(2);
    const src: EventSource = { bridge: this.bridge, boot: this.host.boot(), seq };
    const ev: SeatEvent = rest.startsWith('card:') ? { type: 'lift', seat, card: rest.slice(5), src } : { type: 'lift', seat, tag: rest.slice(4), src };
    // A journal entry reconciled by a snapshot: its order is never known.
    ev.orderUnknown = true;
    this.host.stats.orderUnknown++;
    this.host.stats.lifts++;
    this.host.stats.lateLifts++;
    this.host.event(ev, { bridge: this.bridge, reader, uid: rest.startsWith('tag:') ? rest.slice(4) : '', late: true });
  }
}
