// English whist (seed 002, English Whist Laws): the play follows the whist laws of the seeds, and the
// revoke costs three tricks or three points at the adversaries' option (the English penalty quoted in
// the Dummy chapter), taking precedence of all other scores (Eng. 5).
import type { LawCode } from '../code.js';
import { adversaries, remedy, ruling, transferTricks } from './common.js';
import { american, cannotWinGame } from './american.js';

const ENGLISH_REVOKE = 'Eng. 5; English revoke penalty (Dummy, The Revoke)';

export const english: LawCode = {
  ...american,
  name: 'english',

  revoke(ctx, seat, how) {
    const base = american.revoke(ctx, seat, how);
    return ruling(ENGLISH_REVOKE, base.message, [
      remedy('tricks', adversaries(ctx, seat), 'the adversaries may take three tricks from the revoking side'),
      remedy('points', adversaries(ctx, seat), 'or deduct three points from its score, or add three to their own; the revoke takes precedence of all other scores (Eng. 5), and the revoking side cannot win the game that hand'),
    ]);
  },

  handIrregularity(ctx, seat, what) {
    if (what === 'duplicate-card') return ruling('Eng. 37.I', 'The pack is proved incorrect or imperfect', [remedy('new-deal', 'director', 'there must be a new deal (Eng. 37)')]);
    return american.handIrregularity(ctx, seat, what);
  },

  score(input) {
    const scored = input.penaltyChoice === 'points' ? input.tricksWon.slice() as [number, number]
      : transferTricks(input, input.seats, () => true, () => 3);
    return input.revokes.length ? { scored, marks: cannotWinGame(input, 'Eng. 5') } : { scored };
  },
};
