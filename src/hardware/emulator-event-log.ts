// The emulated device's event log (PROTOCOL.md §11): the last EVENT_LOG_SIZE arrive/leave lines of
// the boot, which a host's `since` replays.
//
// Apart from the device class because the log and its seq arithmetic (which `since` can still be
// answered) are a self-contained piece of the model, with no timers or I/O.
import { EVENT_LOG_SIZE, SEQ_MAX, seqAfter } from './protocol.js';

/** One logged arrive/leave line (§11): `abs` counts the boot's lines without wrapping (hello = 0). */
export interface LogEntry { abs: number; seq: number; kind: 'arrive' | 'leave'; reader: number; uid: string }

/** The log of one boot, oldest first, at most EVENT_LOG_SIZE entries. */
export class EventLog {
  private entries: LogEntry[] = [];
  /** The abs of the newest entry overwritten (0: none yet). */
  private evictedAbs = 0;

  /** Empty it: RAM starts over at a reset. */
  clear(): void {
    this.entries = [];
    this.evictedAbs = 0;
  }

  /** Append an arrive/leave line, evicting the oldest when full (§11). */
  append(entry: LogEntry): void {
    if (this.entries.length >= EVENT_LOG_SIZE) this.evictedAbs = this.entries.shift()!.abs;
    this.entries.push(entry);
  }

  /** The entries after `abs`, oldest first: what a replay from there sends. */
  after(abs: number): LogEntry[] {
    return this.entries.filter((e) => e.abs > abs);
  }

  /**
   * `since <this boot> after` (§11), the device having written up to `abs` (seq `seq`): the abs after
   * which the replay starts, or undefined for `gone` (`after` ahead of the last seq used or older
   * than this boot; an entry after it evicted). `after` names the latest line with that seq, at most
   * half the seq ring back (§4).
   */
  replayFrom(after: number, abs: number, seq: number): number | undefined {
    let from = 0;
    if (after !== 0) {
      if (abs === 0 || seqAfter(after, seq)) return undefined;
      from = abs - ((seq - after + SEQ_MAX) % SEQ_MAX);
      if (from < 1) return undefined; // a seq this boot has not used yet
    }
    return this.evictedAbs > from ? undefined : from;
  }
}
