// Humbug Whist and Thirteen and the Odd (seed 001): two players, tricks of two cards, whist laws for
// the play, and a revoke penalty of three tricks that takes precedence of other scores.
import type { LawCode } from '../code.js';
import { adversaries, remedy, ruling, transferTricks } from './common.js';
import { american } from './american.js';

function twoHanded(name: string, law: string): LawCode {
  return {
    ...american,
    name,
    revoke(ctx, seat, how) {
      return ruling(law, american.revoke(ctx, seat, how).message, [
        remedy('transfer', adversaries(ctx, seat), 'the penalty for a revoke is three tricks; it takes precedence of other scores'),
      ]);
    },
    score(input) {
      return { scored: transferTricks(input, input.seats, () => true, () => 3) };
    },
  };
}

export const humbug = twoHanded('humbug', 'Humbug: Scoring');
export const thirteenAndTheOdd = twoHanded('thirteen-and-the-odd', 'Thirteen and the Odd; Humbug: Scoring');
