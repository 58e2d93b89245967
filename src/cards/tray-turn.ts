// A tray turned on the table. In Memory Duplicate "the trays are reversed. If the indicators pointed N & S on the
// original deals, they must lie E & W for the overplay" (Foster 1914): the players keep their seats, and the tray is
// turned a quarter clockwise, so the pocket dealt North lies at East. The table sees cards by where they are played
// (its seats); the tray record and the travellers name the seats the hands were dealt to (the tray's seats).
import { type Deal, formatDeal, parseDeal } from './deal.js';
import { SEATS, type Seat, seatIndex } from './seat.js';

/** Quarter turns clockwise, 0 to 3: 1 is Memory Duplicate's overplay (the pocket dealt North lies at East). */
export type TrayTurn = 0 | 1 | 2 | 3;

/** True for a whole number of quarter turns 0-3. */
export function isTrayTurn(v: unknown): v is TrayTurn {
  return v === 0 || v === 1 || v === 2 || v === 3;
}

/** The table's seat where the pocket dealt to `traySeat` lies. */
export function tableSeat(traySeat: Seat, turn: TrayTurn): Seat {
  return SEATS[(seatIndex(traySeat) + turn) & 3];
}

/** The seat of the tray whose pocket lies at the table's `seat`. */
export function traySeat(seat: Seat, turn: TrayTurn): Seat {
  return SEATS[(seatIndex(seat) - turn + 4) & 3];
}

/** Four things by the tray's seats (N E S W), laid by the table's seats: each at the seat its pocket lies at. */
export function atTable<T>(byTraySeat: readonly [T, T, T, T], turn: TrayTurn): [T, T, T, T] {
  return [0, 1, 2, 3].map((i) => byTraySeat[(i - turn + 4) & 3]) as [T, T, T, T];
}

/** A PBN deal of the tray's seats as the hands lie at the table. */
export function dealAtTable(trayDeal: string, turn: TrayTurn): string {
  return turn === 0 ? trayDeal : formatDeal(atTable<Deal[number]>(parseDeal(trayDeal), turn), 0);
}

/** A side or a vulnerability ("NS", "EW", "None", "All") as it lies after the turn: an odd turn swaps N-S and E-W. */
export function turnedSide<T extends string>(side: T, turn: TrayTurn): T {
  if (turn % 2 === 0) return side;
  return (side === 'NS' ? 'EW' : side === 'EW' ? 'NS' : side) as T;
}
