// The Laws of Duplicate Whist (AWL, 1900-1910; seeds 000 and 001), as they bear on the card play.
import type { LawCode, PendingPenalty, RuleContext, ScoreInput, ScoreOutput } from '../code.js';
import { S, adversaries, leftHandAdversary, partnerSeat, remedy, rightHandAdversary, ruling, scoreSide, transferTricks } from './common.js';

/** Dup. X.4: two tricks for the first revoke of a side, one for each later one. */
function revokePenalty(k: number): number {
  return k === 0 ? 2 : 1;
}

/** Which hand (2nd, 3rd, 4th) a seat is in the current trick, given its leader. */
function position(ctx: RuleContext, leader: number, seat: number): number {
  let p = 1;
  let s = leader;
  while (s !== seat && p <= 4) {
    s = nextInPlay(ctx, s);
    p++;
  }
  return p;
}

function nextInPlay(ctx: RuleContext, seat: number): number {
  for (let i = 1; i <= 4; i++) if (ctx.seats.includes((seat + i) & 3)) return (seat + i) & 3;
  return seat;
}

/** Which hand a seat is in the trick led by `leader`: 1 for the leader, 2 for second hand, and so on. */
export { position as handPosition };

export const duplicateWhist: LawCode = {
  name: 'duplicate-whist',
  quitEstablishes: true,

  renounceInError(ctx, seat) {
    return ruling('Dup. X.1', 'A renounce in error may be corrected until the trick is turned and quitted or the offender or his partner plays to the following trick', [
      remedy('correct', S(seat), 'the offender may correct it; the card improperly played becomes liable to be called (X.3)'),
      remedy('correct', adversaries(ctx, seat), 'either adversary may ask whether he has any of the suit and require the error to be corrected (X.2)'),
    ]);
  },

  revoke(ctx, seat, how) {
    const law = how === 'quitted' ? 'Dup. X.1(a)' : how === 'next-trick' ? 'Dup. X.1(b)' : 'Dup. X.1';
    const why = how === 'quitted' ? 'the trick in which it occurred has been turned and quitted'
      : how === 'next-trick' ? 'the renouncing player or his partner has led or played to the following trick'
        : how === 'proved' ? 'the offender has since played the suit he renounced' : 'the play has ended';
    return ruling(law, `Revoke established: ${why}`, [
      remedy('transfer', adversaries(ctx, seat), 'two tricks are transferred to the adversaries, one for each later revoke by the same side; never below the tricks won before the first revoke (X.4); the penalty cannot be waived (X.5)'),
    ]);
  },

  correction(ctx, seat, laterPlayed) {
    const rems = [remedy('call-card', S(rightHandAdversary(ctx, seat)), 'the card improperly played is liable to be called (X.3, VII.4)')];
    if (laterPlayed) {
      rems.push(remedy('highest', S(leftHandAdversary(ctx, seat)), 'if second or third hand, his left-hand adversary may require his highest or lowest card of the suit (X.3)'));
      rems.push(remedy('correct', 'offender', 'any player who played after him may withdraw his card and substitute another; it is not liable to be called (X.3)'));
    }
    return ruling('Dup. X.3', 'Renounce corrected in time: no revoke', rems);
  },

  leadOutOfTurn(ctx, offender, proper) {
    const partner = partnerSeat(ctx, offender);
    const trick = ctx.trick;
    if (proper === partner && ctx.seats.length === 4) {
      const caller = rightHandAdversary(ctx, proper);
      const penalty: PendingPenalty = { kind: 'call-suit', from: [S(proper)], by: [S(caller)], law: 'Dup. VIII.2' };
      return {
        ruling: ruling('Dup. VIII.2', 'Lead out of turn when it was his partner\'s lead. If all play to the false lead it stands and no penalty remains (VIII.4)', [
          remedy('call-suit', S(caller), 'the proper leader\'s right-hand adversary may at once call a suit from him; until then he must not lead (VIII.2)'),
        ]),
        penalty,
      };
    }
    const callers = [S(rightHandAdversary(ctx, offender))];
    if (ctx.seats.length === 4) callers.push(S(rightHandAdversary(ctx, partner)));
    const from = ctx.seats.length === 4 ? [S(offender), S(partner)] : [S(offender)];
    const penalty: PendingPenalty = { kind: 'call-suit', from, by: callers, law: 'Dup. VIII.1', lapsesAfterTrick: trick };
    return {
      ruling: ruling('Dup. VIII.1', 'Lead out of turn when it was an adversary\'s lead. If all play to the false lead it stands and no penalty remains (VIII.4)', [
        remedy('call-suit', adversaries(ctx, offender), 'a suit may be called from the offender or his partner the first time thereafter it is the right of either to lead, by the adversary on the right of that player, before the offending side\'s next trick is turned and quitted (VIII.1)'),
      ]),
      penalty,
    };
  },

  leadRetracted() {
    return null; // VIII.4: the cards are taken into the hand and are not liable to be called.
  },

  playOutOfTurn(ctx, offender, skipped, played) {
    const leader = played[0];
    const pos = position(ctx, leader, offender);
    const skippedPos = position(ctx, leader, skipped);
    if (skippedPos === 2 && pos === 3) {
      return { ruling: ruling('Dup. IX.1', 'Third hand played before the second; the fourth hand may also play before the second. No penalty'), penalty: null };
    }
    if (skippedPos === 2 && pos === 4) {
      const third = nextInPlay(ctx, nextInPlay(ctx, leader));
      if (played.includes(third)) return null; // IX.1: the fourth hand may also play before the second.
      const penalty: PendingPenalty = { kind: 'highest-or-lowest', from: [S(skipped)], by: [S(third)], law: 'Dup. IX.2' };
      return {
        ruling: ruling('Dup. IX.2', 'Fourth hand played before the second while the third had not played', [
          remedy('highest', S(third), 'the third hand may call on the second hand to play his highest or lowest of the suit led, or if he has none to trump or not trump; lost once the third hand plays (IX.2)'),
        ]),
        penalty,
      };
    }
    return { ruling: ruling('Dup. IX', `Played out of turn before ${S(skipped)}; the laws give no penalty for this order`), penalty: null };
  },

  exposedCard(ctx, seat, why) {
    const caller = S(rightHandAdversary(ctx, seat));
    if (why === 'led-ahead') {
      return ruling('Dup. XI.6', 'He led another card before his partner played to the trick', [
        remedy('win', adversaries(ctx, seat), 'if the cards are all better than any the adversaries hold of the suit, either adversary may call on his partner to win the trick; the remaining cards are liable to be called (XI.6)'),
      ]);
    }
    return ruling(why === 'second-card' ? 'Dup. VII.1(a)' : 'Dup. VII.1(a), IX.2',
      'The card exposed on the table is liable to be called; it must be left face up until played (VII.3)', [
        remedy('call-card', caller, 'only the adversary on his right may call it; if that adversary plays without calling it the holder may play as he pleases (VII.4)'),
      ]);
  },

  failureToComply(ctx, seat, what) {
    return ruling('Dup. XI.5', `Failing to ${what} when lawfully called upon is liable to the same penalty as a revoke`, [
      remedy('transfer', adversaries(ctx, seat), 'the revoke penalty of X.4 applies'),
    ]);
  },

  wrongTrumpCard(ctx, seat, stage) {
    if (stage === 'corrected') {
      return ruling('Dup. IV.8', 'On the overplay the dealer turned a trump card other than the one on the trump slip; corrected before play, the card turned in error is liable to be called', [
        remedy('call-card', adversaries(ctx, seat), 'the card turned in error is liable to be called'),
      ]);
    }
    const many = (ctx.tables ?? 0) > 2;
    if (stage === 'slip-wrong') {
      return ruling('Dup. IV.10', 'The trump slip records a different trump from the one turned in dealing', [
        remedy('new-deal', 'director', 'discovered at the next table: there must be a new deal; if already played with the wrong trump, the recorded trump stands and the original table takes the average (with fewer than three tables, a new deal) (IV.10)'),
      ]);
    }
    return ruling('Dup. IV.9', many ? 'The wrong trump was not corrected before the overplay began; more than two tables are in play, so this table takes the average score for the deal'
      : 'The wrong trump was not corrected before the overplay began; with fewer than three tables there must be a new deal', [
      many ? remedy('average', 'director', 'the players at this table take the average score for the deal (IV.9)') : remedy('new-deal', 'director', 'there must be a new deal (IV.9)'),
    ]);
  },

  handIrregularity(ctx, seat, what) {
    if (what === 'duplicate-card') {
      return ruling('Dup. III.2(b)', 'The pack is proved incorrect', [remedy('new-deal', 'director', 'there must be a new deal (III.2(b))')]);
    }
    if (!ctx.overplay) {
      return ruling(what === 'wrong-card-count' ? 'Dup. III.2(c)' : 'Dup. III.2(b)', 'The deal is irregular on the original play', [
        remedy('new-deal', 'director', 'there must be a new deal (III.2)'),
      ]);
    }
    const many = (ctx.tables ?? 0) > 2;
    const rems = [many ? remedy('average', 'director', 'the hands are rectified and passed on; this table takes the average score (V.1)')
      : remedy('new-deal', 'director', 'with fewer than three tables there must be a new deal (V.1)')];
    if (what === 'wrong-card-count') rems.push(remedy('none', S(seat), 'a player short of cards after the first trick is answerable for the missing cards and any revoke they cause (V.2)'));
    return ruling('Dup. V.1', 'The tray is fouled on the overplay', rems);
  },

  playOrderLost() {
    // The Laws of Duplicate Whist name no umpire for disputed facts (the umpire appears only at the shuffle, I.1);
    // what they give is the cards themselves, kept in the order played, and the revoke claim proved from them.
    return ruling('Dup. VI.2, X.6', 'The Laws of Duplicate Whist name no umpire or referee for a disputed fact. The cards must be left in the order in which they were played and quitted until the scores for the deal are recorded (VI.2), so the order can be checked from them; a revoke claim may still be urged and proved if possible (X.6)', [
      remedy('director-ruling', 'director', 'the director establishes the order from the cards left in order (VI.2) and rules on any claim made'),
    ]);
  },

  claimNotAdmitted(ctx, seat) {
    return ruling('Dup. VII.2', `${S(seat)} claimed the rest and play went on: his partner's cards must be laid face up and are liable to be called`, [
      remedy('call-card', adversaries(ctx, seat), 'each card is liable to be called by the adversary on the holder\'s right (VII.4)'),
    ]);
  },

  score(input: ScoreInput): ScoreOutput {
    const scored = transferTricks(input, input.seats, () => true, revokePenalty);
    const marks: ScoreOutput['marks'] = {};
    for (const r of input.revokes) {
      const side = scoreSide(input.seats, r.seat);
      marks[side === 0 ? 'NS' : 'EW'] = '-R';
      if (!marks[side === 0 ? 'EW' : 'NS']) marks[side === 0 ? 'EW' : 'NS'] = '+R';
    }
    return input.revokes.length ? { scored, marks } : { scored };
  },
};
