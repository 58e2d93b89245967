// The American whist laws 19-39 (seed 002): card play in the four-handed game.
import type { LawCode, PendingPenalty, ScoreOutput } from '../code.js';
import { S, adversaries, partnerSeat, remedy, rightHandAdversary, ruling, scoreSide, transferTricks } from './common.js';
import { duplicateWhist } from './duplicate-whist.js';

/** Marks the revoking side: it cannot win the game that hand (Am. 30; Eng. 5 gives the revoke precedence). */
export function cannotWinGame(input: Parameters<LawCode['score']>[0], law: string): ScoreOutput['marks'] {
  const marks: ScoreOutput['marks'] = {};
  for (const r of input.revokes) marks[scoreSide(input.seats, r.seat) === 0 ? 'NS' : 'EW'] = `-R (cannot win the game this hand, ${law})`;
  return marks;
}

export const american: LawCode = {
  ...duplicateWhist,
  name: 'american',

  renounceInError(ctx, seat) {
    return ruling('Am. 28', 'A renounce in error may be corrected before the trick is turned and quitted, unless the offender or his partner has led or played to the following trick', [
      remedy('correct', S(seat), 'the offender may correct it; the card improperly played is liable to be called (Am. 29)'),
    ]);
  },

  revoke(ctx, seat, how) {
    const why = how === 'quitted' ? 'the trick has been turned and quitted' : how === 'next-trick' ? 'the offender or his partner has played to the following trick'
      : how === 'proved' ? 'the offender has since played the suit he renounced' : 'the play has ended';
    return ruling('Am. 28', `Revoke: a renounce in error not corrected in time (${why})`, [
      remedy('transfer', adversaries(ctx, seat), 'two tricks transferred to the adversaries for each revoke; the revoking side cannot win the game that hand (Am. 30); it may play the hand out and score up to six (Am. 31)'),
    ]);
  },

  correction(ctx, seat, laterPlayed) {
    const rems = [remedy('call-card', adversaries(ctx, seat), 'the card improperly played is liable to be called by either adversary (Am. 29, 20)')];
    if (laterPlayed) rems.push(remedy('correct', 'offender', 'players who played after him may withdraw their cards and substitute others; those are not liable (Am. 29)'));
    return ruling('Am. 29', 'Renounce corrected in time to save a revoke', rems);
  },

  leadOutOfTurn(ctx, offender) {
    const partner = partnerSeat(ctx, offender);
    const from = ctx.seats.length === 4 ? [S(offender), S(partner)] : [S(offender)];
    const by = from.map((f) => S(rightHandAdversary(ctx, 'NESW'.indexOf(f))));
    const penalty: PendingPenalty = { kind: 'call-suit', from, by, law: 'Am. 24' };
    return {
      ruling: ruling('Am. 24', 'Lead out of turn. If all have played to the false lead no penalty can be enforced; otherwise the cards are taken back and are not liable', [
        remedy('call-suit', adversaries(ctx, offender), 'a suit may be called from the offender or his partner the first time it is the turn of either to lead, only by the adversary on the right of that player (Am. 24)'),
      ]),
      penalty,
    };
  },

  playOutOfTurn(ctx, offender, skipped, played) {
    const r = duplicateWhist.playOutOfTurn(ctx, offender, skipped, played);
    if (!r) return null;
    const law = r.ruling.law.replace('Dup. IX.1', 'Am. 25').replace('Dup. IX.2', 'Am. 26').replace('Dup. IX', 'Am. 25-26');
    return { ruling: { ...r.ruling, law }, penalty: r.penalty ? { ...r.penalty, law } : null };
  },

  exposedCard(ctx, seat, why) {
    if (why === 'led-ahead') {
      return ruling('Am. 22', 'He led a winning card and then another without waiting for his partner to play', [
        remedy('win', adversaries(ctx, seat), 'either adversary may call on his partner to take the first trick; the other cards so played are liable to be called (Am. 22)'),
      ]);
    }
    return ruling(why === 'second-card' ? 'Am. 20.II' : 'Am. 20.I', 'The card is liable to be called; it must be left face up and played when called, if that can be done without revoking (Am. 21)', [
      remedy('call-card', adversaries(ctx, seat), 'either adversary may call it (Am. 20); the holder must not play another until they have said whether they call it (Am. 23)'),
    ]);
  },

  failureToComply(ctx, seat, what) {
    return ruling('Am. 38', `Failing to ${what} when lawfully called upon is liable to the same penalty as a revoke`, [
      remedy('transfer', adversaries(ctx, seat), 'the revoke penalty of Am. 30 applies'),
    ]);
  },

  handIrregularity(ctx, seat, what) {
    if (what === 'duplicate-card') return ruling('Am. 19', 'The pack is not perfect', [remedy('new-deal', 'director', 'there must be a new deal')]);
    return ruling('Am. 19', `${S(seat)} has more or fewer than his correct number of cards`, [
      remedy('new-deal', adversaries(ctx, seat), 'the adversaries may consult and choose a new deal (Am. 19.I)'),
      remedy('none', adversaries(ctx, seat), 'or have the hand played out, the surplus or missing cards not taken into account (Am. 19.II)'),
    ]);
  },

  playOrderLost() {
    // Seed 002 has no umpire or referee provision in the laws (Am. 19-39, Eng. 1-39); the nearest are the revoke
    // claim proved from mixed cards (Am. 32) and the etiquette's referral of a disputed fact to a bystander.
    return ruling('Am. 32; Whist Etiquette 8', 'The whist laws name no umpire or referee for a disputed fact. If the cards have been mixed, a revoke claim may be urged and proved, if possible (Am. 32); no player should object to referring a disputed question of fact to a bystander who professes himself uninterested in the result and able to decide it (Whist Etiquette 8)', [
      remedy('director-ruling', 'director', 'the question of fact goes to an uninterested bystander, here the director (Whist Etiquette 8)'),
    ]);
  },

  claimNotAdmitted(ctx, seat) {
    return ruling('Am. 36', `${S(seat)} said he could win the rest: his partner's cards must be laid upon the table and are liable to be called`, [
      remedy('call-card', adversaries(ctx, seat), 'either adversary may call them (Am. 20)'),
    ]);
  },

  score(input) {
    const scored = transferTricks(input, input.seats, () => true, () => 2);
    return input.revokes.length ? { scored, marks: cannotWinGame(input, 'Am. 30') } : { scored };
  },
};
