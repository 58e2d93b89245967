// Resynchronisation after a doubt (PROTOCOL.md §4, §11): where the ordered stream stands (the boot
// followed, the seq of the last line applied in order), the `since` → replay that recovers what was
// missed in order, and the `present` → snapshot that reconciles J when no replay can.
//
// - The order of play is never guessed. The driver follows the device's boot id and `last`, the seq
//   of the last line it accepted in order. Every place/lift carries `src: {bridge, boot, seq}` (the
//   arrive/leave line, or the replayed record's original seq). After any doubt — a seq gap, a bad
//   line, `err overflow`, a reconnect, lines again after silence, or its own restart (`resume`, the
//   last `src` of this bridge in the journal) — it sends `since <boot> <last>` and HOLDS live
//   arrive/leave lines until `replayend`: they are inside the replay, which is applied in seq order
//   (records not after `last` are skipped, so a replay is idempotent, and arrive/leave are
//   idempotent against J). A damaged replay is asked again from the last record applied. Then live
//   lines go on.
// - The snapshot (`present`, §11) is the fallback only: on `nak gone`, on no answer, after a reset,
//   on a heartbeat count that disagrees, when a deferred reader settles, or with nothing to resume
//   from. Every place/lift emitted while a snapshot is awaited, and every one the reconciliation
//   yields (late lifts, then late places), is marked `orderUnknown: true` with the `snapend` seq:
//   the table did not see when those cards moved, so the engine must not judge their order.
// - Resets: a `hello`, or an `hb`/`identity` whose boot differs from the one followed (the hello
//   was lost: the new boot's lines looked stale). After a lost hello it asks `since <newBoot> 0`
//   and, at once, `present`: the new boot's records begin with the first poll's re-sightings in
//   reader order, so what they yield is order-unknown too; the snapshot reconciles what the old
//   boot lost before it reset.
//
// The driver tells it what the stream shows (a gap, a damaged line, a reset, the lines of a snapshot
// or a replay) and asks it whether live arrive/leave lines are held (a replay that covers them is
// awaited) or order-unknown (a snapshot is awaited). It asks the bridge through the driver's
// command channel and applies what it learns to the driver's SeatEvents.
import type { CommandChannel } from './command-channel.js';
import { CommandError, type DriverStats, type Logger, type SyncInfo } from './driver-types.js';
import { EVENT_LOG_SIZE, seqAfter } from './protocol.js';
import type { SeatEvents } from './seat-events.js';

/** Records announced by one replay at most: the device log holds EVENT_LOG_SIZE; more is a broken line. */
const MAX_REPLAY = EVENT_LOG_SIZE * 4;
/** A since that got no replay this many times in a row gives way to a snapshot. */
const SINCE_TRIES = 3;

interface Snapshot {
  hseq: number;
  total: number;
  tags: Array<{ reader: number; uid: string }>;
}

/** A replay being received: its records are applied as they come (a clean prefix of a replay is
 * exactly the first events after `after`), so a damaged replay still moves `last` on. */
interface Replay {
  hseq: number;
  count: number;
  got: number;
  /** stats.places/lifts when it began, for the `synced` report. */
  places: number;
  lifts: number;
}

/**
 * What the driver is waiting for after a doubt. `since`: a replay from `after` (live arrive/leave
 * are held); with `thenPresent` a snapshot was asked for at once as well (after a reset), and what
 * the replay yields is order-unknown. `present`: a snapshot; places/lifts until its end are
 * order-unknown.
 */
type Recovery =
  | { phase: 'since'; epoch: number; boot: number; after: number; thenPresent: boolean; acked: boolean; tries: number }
  | { phase: 'present'; epoch: number };

/** What StreamResync needs from its driver. */
export interface ResyncHost {
  readonly bridge: string;
  readonly stats: DriverStats;
  readonly log: Logger;
  readonly commands: CommandChannel;
  readonly table: SeatEvents;
  /** Wait for a snapshot or a replay before asking again. */
  readonly snapshotTimeoutMs: number;
  /** True while the port is open (fed by receive() alone, there is nobody to ask). */
  isOpen(): boolean;
  /** True once the bridge has said which protocol it speaks. */
  isIdentified(): boolean;
  /** The reader states of a snapshot's end (its status word). */
  readerStates(status: string): void;
  synced(info: SyncInfo): void;
}

/** One driver's position in its bridge's stream, and the resynchronisation in progress. */
export class StreamResync {
  /** The boot id followed, and the seq of the last line of it accepted in order. */
  boot?: number;
  last = 0;
  /** A snapshot or replay has been applied since the start: J is as the bridge sees it. */
  private synced = false;
  /** A snapshot has been asked for and has not begun. */
  private presentInFlight = false;
  /** Readers whose absent tags the last snapshot kept (they were not O). */
  private readonly deferred = new Set<number>();
  private recovery?: Recovery;
  private epoch = 0;
  private replay?: Replay;
  private snap?: Snapshot;
  private snapshotTimer?: NodeJS.Timeout;
  private recoveryTimer?: NodeJS.Timeout;

  constructor(private readonly host: ResyncHost) {}

  /** A resynchronisation is in progress: live places/lifts are order-unknown (or held). */
  get active(): boolean {
    return this.recovery !== undefined;
  }

  /** A replay is awaited: live arrive/leave lines are inside it, and it applies them in order. */
  get holding(): boolean {
    return this.recovery?.phase === 'since';
  }

  /** Stops its timers (the driver stops). */
  clearTimers(): void {
    clearTimeout(this.snapshotTimer);
    clearTimeout(this.recoveryTimer);
    this.snapshotTimer = this.recoveryTimer = undefined;
  }

  /** A `snap` line: a snapshot begins (unless a replay awaited would be mixed with it). */
  onSnap(hseq: number, total: number): void {
    this.presentInFlight = false;
    clearTimeout(this.snapshotTimer);
    const rs = this.recovery;
    if (rs?.phase === 'since' && !rs.thenPresent) {
      // J is behind the stream while a replay is awaited: a snapshot now would mix the two.
      this.host.stats.snapshotsDiscarded++;
      return;
    }
    this.snap = { hseq, total, tags: [] };
  }

  /** A `tag` line of the snapshot being received. */
  onTag(reader: number, uid: string): void {
    if (!this.snap) {
      this.host.stats.strayTags++;
      return;
    }
    this.snap.tags.push({ reader, uid });
    if (this.snap.tags.length > this.snap.total) {
      this.discardSnapshot('more tag lines than announced');
      this.requestSnapshot(false);
    }
  }

  /** A `snapend` line: the snapshot is reconciled if it came whole. */
  onSnapEnd(seq: number, hseq: number, total: number, status: string): void {
    if (!this.snap) {
      // The end of a snapshot whose start we did not see (or did not want).
      this.host.stats.strayTags++;
      if (this.recovery?.phase === 'present') this.requestSnapshot(true);
      return;
    }
    this.finishSnapshot(seq, hseq, total, status);
  }

  /** A `rec` line: one record of the replay being received. */
  onRec(oseq: number, kind: 'arrive' | 'leave', reader: number, uid: string): void {
    if (!this.replay) {
      this.host.stats.strayReplayLines++;
      return;
    }
    this.onRecord(oseq, kind, reader, uid);
  }

  /** A `replayend` line: the replay is done if it came whole. */
  onReplayEnd(seq: number, hseq: number, count: number): void {
    if (!this.replay) {
      // The end of a replay whose start was lost: if it answered the since in force, ask again now.
      this.host.stats.strayReplayLines++;
      if (this.recovery?.phase === 'since' && this.recovery.acked) this.resendSince();
      return;
    }
    this.finishReplay(seq, hseq, count);
  }

  /** An `ack` of a since: the replay follows, maybe in the same chunk, so it counts at once. */
  sinceAcked(): void {
    if (this.recovery?.phase === 'since') this.recovery.acked = true;
  }

  /** A line of type `t` other than the snapshot's or replay's own breaks them (§11: theirs are consecutive). */
  interrupt(t: string): void {
    if (this.snap && t !== 'tag' && t !== 'snapend') {
      this.discardSnapshot(`a ${t} line inside the snapshot`);
      if (t !== 'hello' && this.recovery) this.requestSnapshot(true);
    }
    if (this.replay && t !== 'rec' && t !== 'replayend') {
      this.discardReplay(`a ${t} line inside the replay`);
      if (t !== 'hello') this.resendSince();
    }
  }

  /**
   * The bridge is identified (again): resume the ordered stream where it was — a replay of what
   * was missed — or, with nothing to resume from or on a new boot, reconcile.
   */
  identified(boot: number): void {
    if (this.boot === undefined) {
      // Nothing to resume from: the snapshot says what lies on the table.
      this.boot = boot;
      this.last = 0;
      this.startPresent();
    } else if (boot === this.boot) {
      // Reconnected, re-identified or restarted: ask for what was missed, in order.
      this.startSince(this.boot, this.last, false);
    } else {
      this.newBoot(boot, false);
    }
  }

  /**
   * A heartbeat (its reader statuses already reported). A deferred reader that settled, or a tag
   * count of a settled reader that J disagrees with while the stream is in order, asks for a
   * snapshot: no replay can explain a count (§11).
   */
  heartbeat(status: string, tags: readonly number[]): void {
    let wake = false;
    for (let r = 0; r < status.length; r++) if (status[r] === 'O' && this.deferred.has(r)) wake = true;
    if (this.recovery) return;
    if (wake) {
      this.startPresent();
      return;
    }
    if (!this.synced || this.host.table.unmatched || this.presentInFlight) return;
    for (let r = 0; r < status.length; r++) {
      if (status[r] === 'O' && this.host.table.count(r) !== tags[r]) {
        this.host.stats.doubts++;
        this.host.log.info({ bridge: this.host.bridge, reader: r, device: tags[r], host: this.host.table.count(r) }, 'tag count differs; resynchronising');
        this.startPresent();
        return;
      }
    }
  }

  /** A seq gap at a line of type `t`: lines were lost before it. */
  onGap(t: string): void {
    if (this.snap) this.discardSnapshot('a gap inside the snapshot');
    if (this.replay) this.discardReplay('a gap inside the replay');
    // A snapshot or replay that starts here is positioned after the gap: it covers the lost lines.
    const rs = this.recovery;
    if (t === 'snap' && rs && (rs.phase === 'present' || rs.thenPresent)) return;
    if (t === 'replay' && rs?.phase === 'since') return;
    this.doubt(`a seq gap before a ${t} line`);
  }

  /**
   * The device runs a new boot. With its hello seen, every line since is here: a snapshot
   * reconciles what the old boot lost. Without it (lost), the new boot's lines may have been
   * dropped as stale: replay them from 0 and take a snapshot right behind.
   */
  newBoot(boot: number, helloSeen: boolean): void {
    const prev = this.boot;
    this.boot = boot;
    this.last = 0;
    this.host.stats.resets++;
    if (prev !== undefined && prev !== boot) {
      this.host.log.warn({ bridge: this.host.bridge, from: prev, to: boot, hello: helloSeen },
        helloSeen ? 'the bridge restarted' : 'the bridge restarted; its hello was lost (new boot id)');
    }
    this.reset();
    if (helloSeen) this.startPresent();
    else this.startSince(boot, 0, true);
  }

  /** Something may have been missed: get it back in order (or, failing that, reconcile). */
  doubt(why: string): void {
    if (!this.host.isOpen() || !this.host.isIdentified()) return; // the identification will resynchronise
    const rs = this.recovery;
    if (!rs) {
      this.host.log.debug({ bridge: this.host.bridge, why, boot: this.boot, last: this.last }, 'doubt: asking for a replay');
      if (this.boot === undefined) this.startPresent();
      else this.startSince(this.boot, this.last, false);
      return;
    }
    if (rs.phase === 'since') {
      // The replay to come covers everything before it; but once the since was acked, the replay
      // has started, so what was lost may be its first line.
      if (rs.acked) this.resendSince();
      return;
    }
    // Waiting for a snapshot: it covers the loss, unless the lost line was its `snap` (then the
    // stray `snapend` asks again).
    this.requestSnapshot(false);
  }

  private startSince(boot: number, after: number, thenPresent: boolean, tries = 0): void {
    clearTimeout(this.recoveryTimer);
    if (!this.host.isOpen()) return; // fed by receive(): nobody to ask
    const epoch = ++this.epoch;
    this.recovery = { phase: 'since', epoch, boot, after, thenPresent, acked: false, tries };
    this.replay = undefined;
    this.host.stats.sinceRequests++;
    // An earlier since still waiting for its ack is superseded: its retries would only bring stray replays.
    this.host.commands.cancel('since', 'superseded');
    this.host.commands.send('since', { boot, after }).then(
      () => undefined,
      (e: Error) => {
        if (this.recovery?.epoch !== epoch) return;
        const gone = e instanceof CommandError && e.nak === 'gone';
        if (gone) this.host.stats.gone++;
        this.host.log[gone ? 'info' : 'warn']({ bridge: this.host.bridge, boot, after, err: e.message },
          gone ? 'the bridge no longer holds the lines missed: reconciling a snapshot (order unknown)' : 'since failed: reconciling a snapshot (order unknown)');
        this.startPresent();
      },
    );
    // After a reset the snapshot goes right behind the replay, so that no play comes between them.
    if (thenPresent) this.requestSnapshot(true);
    this.recoveryTimer = setTimeout(() => {
      if (this.recovery?.epoch !== epoch) return;
      this.host.stats.replayTimeouts++;
      this.resendSince();
    }, this.host.snapshotTimeoutMs);
  }

  /**
   * Ask again from where the replay got to (a broken or missing replay); after SINCE_TRIES in a row
   * without a single record, fall back to a snapshot.
   */
  private resendSince(): void {
    const rs = this.recovery;
    if (rs?.phase !== 'since') return;
    if (rs.tries + 1 >= SINCE_TRIES) {
      this.host.log.warn({ bridge: this.host.bridge, boot: rs.boot, after: this.last }, 'no replay came through: reconciling a snapshot (order unknown)');
      this.startPresent();
      return;
    }
    this.startSince(rs.boot, this.last, rs.thenPresent, rs.tries + 1);
  }

  /** Asks for a snapshot and reconciles J with it; live places/lifts are order-unknown until its end. */
  startPresent(): void {
    clearTimeout(this.recoveryTimer);
    if (!this.host.isOpen()) return;
    this.recovery = { phase: 'present', epoch: ++this.epoch };
    this.replay = undefined;
    this.requestSnapshot(false);
  }

  /** Forget any resynchronisation in progress (port closed, new boot, foreign hello). */
  reset(): void {
    this.recovery = undefined;
    this.replay = undefined;
    this.snap = undefined;
    this.presentInFlight = false;
    this.epoch++;
    clearTimeout(this.recoveryTimer);
    clearTimeout(this.snapshotTimer);
  }

  /** A `replay` line: the replay of the since in force begins. */
  onReplay(hseq: number, count: number): void {
    // The replay line answers its since even when the ack was lost.
    this.host.commands.acked(hseq, 'since', { seq: 0, type: 'ack', hseq, cmd: 'since' });
    const rs = this.recovery;
    if (rs?.phase !== 'since') {
      this.host.stats.strayReplayLines++; // an answer to a since already served
      return;
    }
    rs.acked = true;
    if (count > MAX_REPLAY) {
      this.host.log.warn({ bridge: this.host.bridge, count }, 'a replay longer than any device log: reconciling a snapshot instead');
      this.startPresent();
      return;
    }
    this.replay = { hseq, count, got: 0, places: this.host.stats.places, lifts: this.host.stats.lifts };
  }

  /** One replayed record, in order: applied unless already applied (not after `last`). */
  private onRecord(oseq: number, kind: 'arrive' | 'leave', reader: number, uid: string): void {
    const rp = this.replay!;
    const rs = this.recovery as Extract<Recovery, { phase: 'since' }>;
    if (++rp.got > rp.count) {
      this.discardReplay('more records than announced');
      this.resendSince();
      return;
    }
    if (!seqAfter(oseq, this.last)) {
      this.host.stats.replaySkipped++;
      return;
    }
    this.last = oseq;
    rs.tries = 0; // progress: a damaged replay is asked again from here, as often as it helps
    this.host.table.applyOne(kind, reader, this.host.table.tag(uid), false, oseq, rs.thenPresent);
  }

  private discardReplay(why: string): void {
    this.replay = undefined;
    this.host.stats.replaysDiscarded++;
    this.host.log.debug({ bridge: this.host.bridge, why }, 'replay discarded');
  }

  private finishReplay(endSeq: number, hseq: number, count: number): void {
    const rp = this.replay!;
    this.replay = undefined;
    const rs = this.recovery as Extract<Recovery, { phase: 'since' }>;
    if (hseq !== rp.hseq || count !== rp.count || rp.got !== rp.count) {
      this.discardReplay(`announced ${rp.count} records, got ${rp.got}, end says ${count}`);
      this.resendSince();
      return;
    }
    this.host.stats.replays++;
    clearTimeout(this.recoveryTimer);
    // The replay covers every line before it: the ordered stream resumes after its end.
    this.last = endSeq;
    this.synced = true;
    const places = this.host.stats.places - rp.places;
    const lifts = this.host.stats.lifts - rp.lifts;
    this.host.log[places + lifts > 0 ? 'info' : 'debug']({ bridge: this.host.bridge, boot: rs.boot, after: rs.after, records: count, places, lifts }, 'replay applied');
    if (rs.thenPresent) {
      // The snapshot asked for with the since is on its way.
      this.recovery = { phase: 'present', epoch: ++this.epoch };
    } else this.recovery = undefined;
    this.host.synced({ bridge: this.host.bridge, via: 'replay', hseq, total: count, places, lifts, deferred: [] });
  }

  private requestSnapshot(force: boolean): void {
    if (!this.host.isOpen() || !this.host.isIdentified()) return;
    if (this.presentInFlight && !force) return;
    this.presentInFlight = true;
    this.host.commands.send('present').catch((e: Error) => this.host.log.debug({ bridge: this.host.bridge, err: e.message }, 'present failed'));
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      if (!this.presentInFlight) return;
      this.host.stats.snapshotTimeouts++;
      this.presentInFlight = false;
      this.requestSnapshot(false);
    }, this.host.snapshotTimeoutMs);
  }

  private discardSnapshot(why: string): void {
    this.snap = undefined;
    this.host.stats.snapshotsDiscarded++;
    this.host.log.debug({ bridge: this.host.bridge, why }, 'snapshot discarded');
  }

  private finishSnapshot(endSeq: number, hseq: number, total: number, status: string): void {
    const s = this.snap!;
    this.snap = undefined;
    if (total !== s.total || s.tags.length !== s.total) {
      this.discardSnapshot(`announced ${s.total} tags, got ${s.tags.length}, end says ${total}`);
      this.requestSnapshot(false);
      return;
    }
    this.host.stats.snapshots++;
    this.host.readerStates(status);
    const { places, lifts, deferred } = this.host.table.reconcile(s.tags, status, endSeq);
    this.deferred.clear();
    for (const r of deferred) this.deferred.add(r);
    this.synced = true;
    // The snapshot covers every line before it: the ordered stream resumes after its end.
    this.last = endSeq;
    if (this.recovery && this.recovery.phase === 'present') this.recovery = undefined;
    else if (this.recovery?.phase === 'since' && this.recovery.thenPresent) this.reset();
    this.host.log[places + lifts > 0 ? 'info' : 'debug']({ bridge: this.host.bridge, total, places, lifts, deferred: [...deferred] }, 'snapshot reconciled (order unknown)');
    this.host.synced({ bridge: this.host.bridge, via: 'snapshot', hseq, total, places, lifts, deferred: [...deferred].sort() });
  }
}
