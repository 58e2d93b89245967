// Which seat's play zone each reader sits under: (bridge id, reader index) → seat N/E/S/W.
//
// Config shape (JSON or YAML, for example in the daemon settings):
//
//   { "bridges": { "tenace-bridge-E6614C31": { "0": "N", "1": "E", "2": "S", "3": "W" },
//                  "*": { "0": "N" } } }
//
// `"*"` is a wildcard bridge: it applies to any bridge without an entry of its own for that reader.
// On the command line (`tenace listen --map`) the same thing for one bridge is `r0=N,r1=E,r2=S,r3=W`.
// Several readers may share one seat (for example two antennas under a wide play zone): the driver
// then reports a card once per seat, not once per antenna.
import { type Seat, isSeat, SEATS } from '../cards/seat.js';
import { MAX_READERS } from './protocol.js';

export interface SeatMapEntry {
  bridge: string;
  reader: number;
  seat: Seat;
}

export class SeatMapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeatMapError';
  }
}

const ANY = '*';

export class SeatMap {
  private readonly byKey = new Map<string, Seat>();
  /** seatOf results per bridge, by reader index (the driver asks on every line). */
  private readonly cache = new Map<string, (Seat | undefined)[]>();

  constructor(entries: Iterable<SeatMapEntry> = []) {
    for (const e of entries) {
      if (!Number.isInteger(e.reader) || e.reader < 0 || e.reader >= MAX_READERS) {
        throw new SeatMapError(`reader index ${e.reader} is out of range 0..${MAX_READERS - 1}`);
      }
      if (!isSeat(e.seat)) throw new SeatMapError(`"${String(e.seat)}" is not a seat (N, E, S or W)`);
      if (typeof e.bridge !== 'string' || e.bridge === '') throw new SeatMapError('a bridge id must be a non-empty string');
      const k = key(e.bridge, e.reader);
      if (this.byKey.has(k)) throw new SeatMapError(`reader ${e.reader} of bridge ${e.bridge} is mapped twice`);
      this.byKey.set(k, e.seat);
    }
  }

  /** The default map: reader i of any bridge → N, E, S, W for i = 0..3. */
  static default(bridge: string = ANY): SeatMap {
    return new SeatMap(SEATS.map((seat, reader) => ({ bridge, reader, seat })));
  }

  /** Parses `r0=N,r1=E,...` (the `r` is optional) for one bridge (default: any bridge). */
  static parseSpec(spec: string, bridge: string = ANY): SeatMap {
    const entries: SeatMapEntry[] = [];
    for (const part of spec.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      const m = /^r?(\d)=([NESWnesw])$/.exec(part);
      if (!m) throw new SeatMapError(`"${part}" is not a reader mapping: write r<index>=<seat>, e.g. r0=N`);
      entries.push({ bridge, reader: Number(m[1]), seat: m[2].toUpperCase() as Seat });
    }
    if (entries.length === 0) throw new SeatMapError('the map is empty: write e.g. r0=N,r1=E,r2=S,r3=W');
    return new SeatMap(entries);
  }

  /** Reads the config shape `{ "bridges": { "<id>": { "<reader>": "<seat>" } } }`. */
  static fromConfig(obj: unknown): SeatMap {
    const bridges = (obj as { bridges?: unknown } | null)?.bridges;
    if (typeof bridges !== 'object' || bridges === null || Array.isArray(bridges)) {
      throw new SeatMapError('a seat map needs "bridges": an object from bridge id to { "<reader>": "<seat>" }');
    }
    const entries: SeatMapEntry[] = [];
    for (const [bridge, readers] of Object.entries(bridges as Record<string, unknown>)) {
      if (typeof readers !== 'object' || readers === null || Array.isArray(readers)) {
        throw new SeatMapError(`bridges.${bridge} must be an object from reader index to seat`);
      }
      for (const [r, seat] of Object.entries(readers as Record<string, unknown>)) {
        if (!/^\d$/.test(r)) throw new SeatMapError(`bridges.${bridge}: "${r}" is not a reader index 0..7`);
        if (!isSeat(seat)) throw new SeatMapError(`bridges.${bridge}.${r}: "${String(seat)}" is not a seat (N, E, S or W)`);
        entries.push({ bridge, reader: Number(r), seat });
      }
    }
    return new SeatMap(entries);
  }

  /** The seat zone of a reader, or undefined when the reader is not mapped. */
  seatOf(bridge: string, reader: number): Seat | undefined {
    let row = this.cache.get(bridge);
    if (!row) {
      row = [];
      for (let r = 0; r < MAX_READERS; r++) row.push(this.byKey.get(key(bridge, r)) ?? this.byKey.get(key(ANY, r)));
      this.cache.set(bridge, row);
    }
    return row[reader];
  }

  /** The readers of `bridge` that lie under `seat`, in index order. */
  readersOf(bridge: string, seat: Seat): number[] {
    const out: number[] = [];
    for (let r = 0; r < MAX_READERS; r++) if (this.seatOf(bridge, r) === seat) out.push(r);
    return out;
  }

  entries(): SeatMapEntry[] {
    return [...this.byKey].map(([k, seat]) => {
      const i = k.lastIndexOf('#');
      return { bridge: k.slice(0, i), reader: Number(k.slice(i + 1)), seat };
    });
  }

  /** The config shape of this map (inverse of fromConfig). */
  toConfig(): { bridges: Record<string, Record<string, Seat>> } {
    const bridges: Record<string, Record<string, Seat>> = {};
    for (const e of this.entries()) (bridges[e.bridge] ??= {})[String(e.reader)] = e.seat;
    return { bridges };
  }
}

function key(bridge: string, reader: number): string {
  return `${bridge}#${reader}`;
}
