// Several firmware bridges of one table as one source of events: a BridgeDriver each, one shared
// SeatPresence, the same event names and payloads as a single driver.
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import { BridgeDriver } from './bridge-driver.js';
import type { DeckSet } from './deck.js';
import type { BridgeDriverOptions, DriverStats, Logger, PresenceEntry, ResumePoint } from './driver-types.js';
import { SeatMap } from './seat-map.js';
import { SeatPresence } from './seat-presence.js';


export interface MultiBridgeOptions {
  bridges: Array<Omit<BridgeDriverOptions, 'seatPresence' | 'initialPresence'>>;
  /** Shared by all drivers unless a bridge entry sets its own. */
  seatMap?: SeatMap;
  decks?: DeckSet;
  /** From the journal; exact entries should carry `bridge`. */
  initialPresence?: PresenceEntry[];
  /** From the journal (`resumePoints`): each bridge's last journaled `src`, unless its entry sets `resume`. */
  resume?: ReadonlyMap<string, ResumePoint>;
  logger?: Logger;
}

/**
 * Runs one BridgeDriver per bridge and merges their events (same event names and payloads as
 * BridgeDriver). The drivers share one SeatPresence, so a seat served by readers of two bridges
 * still gets one place per card.
 */
export class MultiBridge extends EventEmitter {
  readonly drivers: BridgeDriver[];

  constructor(opts: MultiBridgeOptions) {
    super();
    const shared = new SeatPresence();
    const claimed = new Set<PresenceEntry>();
    this.drivers = opts.bridges.map((b) => {
      const id = b.bridgeId ?? basename(b.path);
      const seatMap = b.seatMap ?? opts.seatMap;
      const mine = (opts.initialPresence ?? []).filter((e) => {
        if (claimed.has(e)) return false;
        if (e.bridge !== undefined) return e.bridge === id;
        // Seat-level entries go to the first bridge with a reader under that seat.
        if ('seat' in e && (seatMap ?? SeatMap.default()).readersOf(id, e.seat).length > 0) {
          claimed.add(e);
          return true;
        }
        return false;
      });
      return new BridgeDriver({
        ...b,
        bridgeId: id,
        seatMap,
        decks: b.decks ?? opts.decks,
        logger: b.logger ?? opts.logger,
        seatPresence: shared,
        initialPresence: mine.map((e) => ({ ...e, bridge: id })),
        resume: b.resume ?? opts.resume?.get(id),
      });
    });
    for (const d of this.drivers) {
      for (const name of ['event', 'reader-status', 'bridge-status', 'presence', 'synced', 'line-error'] as const) {
        d.on(name, (...args: unknown[]) => {
          try {
            this.emit(name, ...args);
          } catch {
            d.stats.listenerErrors++;
          }
        });
      }
    }
  }

  start(): void {
    for (const d of this.drivers) d.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.drivers.map((d) => d.stop()));
  }

  presence(): PresenceEntry[] {
    return this.drivers.flatMap((d) => d.presence());
  }

  stats(): Record<string, DriverStats> {
    return Object.fromEntries(this.drivers.map((d) => [d.bridge, d.stats]));
  }

  resync(): void {
    for (const d of this.drivers) d.resync();
  }
}

