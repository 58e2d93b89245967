// Random deals for the simulator and the benchmark corpora, from a seeded Rng (never Math.random).
import type { Hand } from '../cards/hand.js';
import type { Rng } from './prng.js';

// One shared deck reused across calls: dealing is on the benchmark's corpus-building path, and a fresh shuffle of
// the same array is as uniform as shuffling a new one.
const deck = new Uint8Array(52);

/** Deal 52 cards at random, 13 to each seat; hands indexed N E S W as suit masks. */
export function randomDeal(rng: Rng): [Hand, Hand, Hand, Hand] {
  for (let c = 0; c < 52; c++) deck[c] = c;
  for (let i = 51; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = deck[i]; deck[i] = deck[j]; deck[j] = t;
  }
  const hands: [Hand, Hand, Hand, Hand] = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  // Seat i gets deck positions i, i+4, ...: the order does not matter for a uniform shuffle, only the split.
  for (let i = 0; i < 52; i++) {
    const c = deck[i];
    const s = (c / 13) | 0;
    hands[i & 3][s] |= 1 << (c - s * 13);
  }
  return hands;
}
