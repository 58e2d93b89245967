// Seats N E S W as indices 0..3, clockwise, so the player on a seat's left is (seat + 1) % 4.

export type Seat = 'N' | 'E' | 'S' | 'W';
export type SeatIndex = 0 | 1 | 2 | 3;
export type Side = 'NS' | 'EW';

export const SEATS: readonly Seat[] = ['N', 'E', 'S', 'W'];

/** Index of a seat letter (N=0, E=1, S=2, W=3), or -1 when the letter is not a seat. */
export function seatIndex(seat: string): number {
  switch (seat) {
    case 'N': case 'n': return 0;
    case 'E': case 'e': return 1;
    case 'S': case 's': return 2;
    case 'W': case 'w': return 3;
    default: return -1;
  }
}

/** True when the string is one of N E S W. */
export function isSeat(seat: unknown): seat is Seat {
  return seat === 'N' || seat === 'E' || seat === 'S' || seat === 'W';
}

/** The seat on the left of `seat`: the next to play. */
export function leftOf(seat: number): SeatIndex {
  return ((seat + 1) & 3) as SeatIndex;
}

/** The seat on the right of `seat`. */
export function rightOf(seat: number): SeatIndex {
  return ((seat + 3) & 3) as SeatIndex;
}

/** The partner of `seat`, sitting opposite. */
export function partnerOf(seat: number): SeatIndex {
  return ((seat + 2) & 3) as SeatIndex;
}

/** The side (partnership) a seat belongs to: 0 for N-S, 1 for E-W. */
export function sideOf(seat: number): 0 | 1 {
  return (seat & 1) as 0 | 1;
}

/** Name of a side index. */
export function sideName(side: number): Side {
  return side === 0 ? 'NS' : 'EW';
}
