// The emulated bridge's RFID readers: the tags lying on each antenna (the physical table), the tags
// each reader has seen (the device's presence sets, PROTOCOL.md §9) and each reader's status (§10).
//
// Apart from the device class because it is the tag state alone: it decides which arrive, leave and
// overfull lines are due and hands them to the device, which numbers and writes them.
import { EmulatorError } from './emulator-types.js';
import type { ReaderState } from './protocol.js';

/** Tags one reader tracks (PROTOCOL.md §16 kMaxTagsPerReader). */
const MAX_TAGS_PER_READER = 8;

/** Where the readers' findings go: the device turns each into a line. */
export interface ReaderReports {
  /** A poll saw a new tag (`arrive`), or a tag it tracked was taken off (`leave`). */
  event(type: 'arrive' | 'leave', reader: number, uid: string): void;
  /** A reader saw more tags than it can track (`err reader <r> overfull`, once until room). */
  overfull(reader: number): void;
}

/** The readers of one bridge; their presence and status start over at every power-up. */
export class ReaderBank {
  /** The physical table: tags lying on each reader's antenna, in order of arrival. */
  private readonly table: string[][];
  /** The device's presence sets (§9). */
  private readonly present: string[][];
  private readonly status: ReaderState[];
  /** Readers that saw more tags than they can track since the last leave. */
  private readonly overfull: boolean[];

  constructor(readonly count: number, private readonly reports: ReaderReports) {
    this.table = Array.from({ length: count }, () => []);
    this.present = Array.from({ length: count }, () => []);
    this.status = new Array<ReaderState>(count).fill('W');
    this.overfull = new Array<boolean>(count).fill(false);
  }

  /** A tag is laid on a reader's antenna; `polling`: the device runs and sees it. False if it already lay there. */
  place(reader: number, uid: string, polling: boolean): boolean {
    this.checkReader(reader);
    if (this.table[reader].includes(uid)) return false;
    this.table[reader].push(uid);
    if (polling) this.see(reader, uid);
    return true;
  }

  /** A poll sees a tag: an arrive if it is new, unless the reader already tracks 8 (§9, §16). */
  private see(reader: number, uid: string): void {
    const set = this.present[reader];
    if (set.includes(uid)) return;
    if (set.length >= MAX_TAGS_PER_READER) {
      if (!this.overfull[reader]) this.reports.overfull(reader);
      this.overfull[reader] = true;
      return;
    }
    set.push(uid);
    this.reports.event('arrive', reader, uid);
  }

  /** A tag is taken off a reader; `powered`: the device notices. False if it did not lie there. */
  lift(reader: number, uid: string, powered: boolean): boolean {
    this.checkReader(reader);
    const i = this.table[reader].indexOf(uid);
    if (i < 0) return false;
    this.table[reader].splice(i, 1);
    const j = this.present[reader].indexOf(uid);
    if (powered && j >= 0) {
      this.present[reader].splice(j, 1);
      this.reports.event('leave', reader, uid);
      // Room again: a tag the reader could not track is reported now (§5 overfull).
      if (this.overfull[reader]) {
        const set = this.present[reader];
        for (const t of this.table[reader]) {
          if (set.length >= MAX_TAGS_PER_READER) break;
          if (!set.includes(t)) this.see(reader, t);
        }
        this.overfull[reader] = this.table[reader].some((t) => !set.includes(t));
      }
    }
    return true;
  }

  private checkReader(reader: number): void {
    if (!Number.isInteger(reader) || reader < 0 || reader >= this.count) {
      throw new EmulatorError(`reader ${reader} is not fitted (this bridge has readers 0..${this.count - 1})`);
    }
  }

  /** The first poll after a power-up: every tag on the table is seen, in reader order (§9). */
  firstPoll(): void {
    for (let r = 0; r < this.count; r++) {
      for (const uid of this.table[r]) this.see(r, uid);
    }
  }

  /** `misses` polls have passed: every reader is O (§10). */
  settle(): void {
    this.status.fill('O');
  }

  /** Power off: the device forgets what it saw; the table stays as it is. */
  clear(): void {
    for (const p of this.present) p.length = 0;
    this.status.fill('W');
    this.overfull.fill(false);
  }

  /** True when no reader is still W. */
  isSettled(): boolean {
    return this.status.every((s) => s !== 'W');
  }

  /** The status word of hb and snapend, one letter a reader. */
  statusWord(): string {
    return this.status.join('');
  }

  /** The tag counts of hb, one digit a reader (9 at most). */
  tagCounts(): number[] {
    return this.present.map((p) => Math.min(9, p.length));
  }

  /** Every tag the device tracks, in reader order: a snapshot's `tag` lines. */
  tracked(): { reader: number; uid: string }[] {
    const tags: { reader: number; uid: string }[] = [];
    for (let r = 0; r < this.count; r++) for (const uid of this.present[r]) tags.push({ reader: r, uid });
    return tags;
  }

  /** The device's presence sets (copies), per reader. */
  presence(): string[][] {
    return this.present.map((p) => [...p]);
  }

  /** The tags lying on the table (copies), per reader. */
  onTable(): string[][] {
    return this.table.map((p) => [...p]);
  }
}
