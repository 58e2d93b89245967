// Playing a table log on the emulator: the log mapped to reader steps, paced, with the fault plan's
// resets, foreign hellos and unplugs fired at their events, and what happened reported.
//
// Apart from the device model (emulator.ts) because it drives the device from outside, through the
// same controls a test has (place, lift, reset, unplug); it knows nothing of lines or seqs.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Seat } from '../cards/seat.js';
import type { TableEvent } from '../formats/table-log.js';
import { type DeckFile, DeckSet } from './deck.js';
import type { FaultPlan, HelloFault, ResetCause } from './emulator-faults.js';
import { EmulatorError } from './emulator-types.js';
import { SeatMap } from './seat-map.js';

/** The device as a play drives it: the emulator's own public controls. */
export interface PlayDevice {
  readonly readers: number;
  readonly faults: FaultPlan;
  whenReady(): Promise<void>;
  whenHostSynced(timeoutMs: number): Promise<boolean>;
  whenResynced(timeoutMs: number): Promise<boolean>;
  flush(): Promise<void>;
  place(reader: number, uid: string): boolean;
  lift(reader: number, uid: string): boolean;
  reset(cause?: ResetCause, hello?: HelloFault): void;
  injectForeignHello(): void;
  unplug(forMs: number, meanwhile?: () => void | Promise<void>): Promise<void>;
}

/**
 * Play a table log on a started device (FirmwareEmulator.play documents it). `faultShown`: a lost or
 * corrupted line awaits resynchronisation and a later line has shown the host the gap.
 */
export async function playLog(
  device: PlayDevice, faultShown: () => boolean, events: readonly TableEvent[], opts: PlayOptions,
): Promise<PlayResult> {
  const steps = planSteps(events, opts.deck, opts.seatMap ?? SeatMap.default(), device.readers);
  const speed = opts.speed ?? 'max';
  if (speed !== 'max' && !(typeof speed === 'number' && speed > 0 && Number.isFinite(speed))) {
    throw new EmulatorError(`speed must be a positive number of events per second, or "max" (got ${String(speed)})`);
  }
  const waitHost = opts.waitForHost ?? true;
  const waitFaults = opts.waitAfterFaults ?? true;
  const hostWaitMs = opts.hostWaitMs ?? 10_000;
  const result: PlayResult = { played: 0, skipped: 0, trays: 0, impossible: [], outages: [], hostWaitTimeouts: 0, resyncTimeouts: 0, aborted: false };

  const sync = async () => {
    await device.whenReady();
    if (waitHost && !(await device.whenHostSynced(hostWaitMs))) result.hostWaitTimeouts++;
  };
  await sync();

  const interval = speed === 'max' ? 0 : 1000 / speed;
  let clock = Date.now();
  const pace = async () => {
    await device.flush();
    // Players are slow next to the wire: after a lost or corrupted line, once a later line has
    // shown the host the gap, wait for its resynchronisation before the next event.
    if (waitFaults && faultShown()) {
      if (!(await device.whenResynced(hostWaitMs))) result.resyncTimeouts++;
    }
    if (interval === 0) {
      await new Promise((r) => setImmediate(r));
      return;
    }
    clock += interval;
    const d = clock - Date.now();
    if (d > 0) await sleep(d);
    else clock = Date.now();
  };
  const apply = (s: RfidStep) => {
    const ok = s.kind === 'arrive' ? device.place(s.reader, s.uid) : device.lift(s.reader, s.uid);
    if (!ok) result.impossible.push(s.event);
    result.played++;
  };

  let i = 0;
  let n = 0;
  /** The next place/lift step; trays and skipped events before it are handled on the way. */
  const nextRfid = async (): Promise<RfidStep | undefined> => {
    while (i < steps.length) {
      const s = steps[i++];
      if (s.kind === 'skip') result.skipped++;
      else if (s.kind === 'tray') {
        result.trays++;
        await opts.onTray?.(s.code);
      } else return s;
    }
    return undefined;
  };

  for (let s = await nextRfid(); s !== undefined; s = await nextRfid()) {
    if (opts.signal?.aborted) {
      result.aborted = true;
      break;
    }
    n++;
    for (const r of device.faults.resets) {
      if (r.at !== n) continue;
      device.reset(r.reason, r.hello);
      await sync();
    }
    if (device.faults.badHellos.includes(n)) device.injectForeignHello();
    let done = false;
    for (const u of device.faults.unplugs) {
      if (u.at !== n || done) continue;
      const during: TableEvent[] = [];
      const first = n;
      const cur = s;
      await device.unplug(u.forMs, async () => {
        // The players go on while the cable is out: `play` events, starting with this one.
        if (u.play === 0) return;
        apply(cur);
        during.push(cur.event);
        done = true;
        while (during.length < u.play) {
          const x = await nextRfid();
          if (!x) break;
          n++;
          apply(x);
          during.push(x.event);
        }
      });
      result.outages.push({ at: first, events: during, invisible: invisibleIn(during) });
      await sync();
    }
    if (!done) apply(s);
    await pace();
  }
  return result;
}

export interface PlayOptions {
  /** The deck whose tags carry the cards (one pack; the first deck of a DeckSet). */
  deck: DeckSet | DeckFile;
  /** Reader → seat (the emulator uses the first reader under each seat). Default r0=N,r1=E,r2=S,r3=W. */
  seatMap?: SeatMap;
  /** RFID events per second, or `max`. Default `max`. */
  speed?: number | 'max';
  /** Called for each `tray` event (forward it to a scanner emulator). */
  onTray?: (code: string) => void | Promise<void>;
  /** Before playing, and after each reset or unplug, wait until a host has taken a snapshot or a
   * replay of the new boot (it has resynchronised), at most `hostWaitMs` (default 10 s). Default true. */
  waitForHost?: boolean;
  hostWaitMs?: number;
  /** After a lost or corrupted line (or a foreign hello), hold the next event until the host has
   * resynchronised (a clean snapshot after the fault, or a clean replay covering it), at most
   * `hostWaitMs`. People play far slower than a
   * resynchronisation takes; a fast emulated play must not outrun it, or a card placed and lifted
   * before the host could look again is lost to any host. Default true. */
  waitAfterFaults?: boolean;
  /** Stop playing when aborted (the result says `aborted`). */
  signal?: AbortSignal;
}

export interface PlayResult {
  /** place/lift events played. */
  played: number;
  /** Events that are not RFID (deal, claim, remedy, exchange). */
  skipped: number;
  trays: number;
  /** place of a card already lying there, or lift of a card not there: played as nothing. */
  impossible: TableEvent[];
  /** Each unplug: the index of its first event, the events played while the cable was out, and
   * those no hardware could see (a card both placed and lifted during the outage). */
  outages: { at: number; events: TableEvent[]; invisible: TableEvent[] }[];
  /** Times the host did not resynchronise within hostWaitMs after a reset or unplug. */
  hostWaitTimeouts: number;
  /** Times the host did not resynchronise within hostWaitMs after a lost or corrupted line. */
  resyncTimeouts: number;
  aborted: boolean;
}

export interface RfidStep { kind: 'arrive' | 'leave'; reader: number; uid: string; event: TableEvent }
export type Step = RfidStep | { kind: 'tray'; code: string } | { kind: 'skip' };

/** Map a log to device steps; throws EmulatorError naming every card the deck lacks and every seat
 * without a reader. */
export function planSteps(events: readonly TableEvent[], deck: DeckSet | DeckFile, seatMap: SeatMap, readers = 4): Step[] {
  const decks = deck instanceof DeckSet ? deck : new DeckSet([deck]);
  const readerOf = new Map<Seat, number>();
  const missingCards = new Set<string>();
  const missingSeats = new Set<string>();
  const steps: Step[] = [];
  for (const e of events) {
    if (e.type === 'place' || e.type === 'lift') {
      let r = readerOf.get(e.seat);
      if (r === undefined) {
        r = seatMap.readersOf('*', e.seat).find((x) => x < readers);
        if (r !== undefined) readerOf.set(e.seat, r);
      }
      // A place may carry a tag from no deck instead of a card (an unknown card): play its UID.
      const { card, tag } = e as { card?: string; tag?: string };
      const uid = card !== undefined ? decks.uidOf(card) : tag;
      if (r === undefined) missingSeats.add(e.seat);
      if (uid === undefined) missingCards.add(card ?? '(no card)');
      if (r !== undefined && uid !== undefined) steps.push({ kind: e.type === 'place' ? 'arrive' : 'leave', reader: r, uid, event: e });
    } else if (e.type === 'tray') steps.push({ kind: 'tray', code: e.code });
    else steps.push({ kind: 'skip' });
  }
  const problems: string[] = [];
  if (missingCards.size) problems.push(`the deck ${decks.decks[0]?.deck ?? '(empty)'} has no tag for ${[...missingCards].join(' ')}`);
  if (missingSeats.size) problems.push(`no reader (of ${readers}) is mapped to seat ${[...missingSeats].join(', ')}`);
  if (problems.length) throw new EmulatorError(`cannot play this log: ${problems.join('; ')}`);
  return steps;
}

/** Events of an outage no hardware could see: a card placed and lifted again within it. */
export function invisibleIn(events: readonly TableEvent[]): TableEvent[] {
  const out: TableEvent[] = [];
  const placed = new Map<string, TableEvent>();
  for (const e of events) {
    if (e.type !== 'place' && e.type !== 'lift') continue;
    const { card, tag } = e as { card?: string; tag?: string };
    const k = `${e.seat}${card ?? `#${tag}`}`;
    if (e.type === 'place') placed.set(k, e);
    else if (placed.has(k)) {
      out.push(placed.get(k)!, e);
      placed.delete(k);
    }
  }
  return out;
}
