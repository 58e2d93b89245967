// The dummy games of seeds 001/003: English Dummy, Double Dummy and Mort (French dummy). A dummy is
// played by its partner; it is not liable to a revoke penalty, and its revoke cannot be remedied once
// the trick is quitted.
import type { LawCode, RuleContext } from '../code.js';
import { S, adversaries, partnerSeat, remedy, ruling, sameSide, transferTricks } from './common.js';
import { american, cannotWinGame } from './american.js';
import { english } from './english.js';

function isDummySide(ctx: RuleContext, seat: number): boolean {
  return ctx.dummies.has(seat) || ctx.dummies.has(partnerSeat(ctx, seat));
}

/** A dummy's revoke: no penalty, and it stands once its trick is quitted. */
function dummyRevoke(law: string): LawCode['revoke'] {
  return (ctx, seat, how) => ruling(law, how === 'quitted' || how === 'next-trick'
    ? `The dummy's revoke cannot be remedied now its trick is turned and quitted; the game proceeds as if no revoke had occurred`
    : 'The dummy is not liable to any revoke penalty', [remedy('none', adversaries(ctx, seat), 'no penalty: the adversaries could see the dummy\'s cards')]);
}

/** Lead out of turn by the dummy or its partner: a suit from the one that should have led, unless it was neither's turn. */
function dummyLead(law: string, penaltyText: string): LawCode['leadOutOfTurn'] {
  return (ctx, offender, proper) => {
    if (!isDummySide(ctx, offender)) return american.leadOutOfTurn(ctx, offender, proper);
    if (!sameSide(ctx, offender, proper)) {
      return { ruling: ruling(law, 'Led out of turn when it was the turn of neither the dummy nor his partner: there is no penalty'), penalty: null };
    }
    const by = [S((proper + 3) & 3), S((proper + 1) & 3)];
    return {
      ruling: ruling(law, 'The dummy or his partner led out of turn; should all have played to the erroneous lead, the error cannot be corrected', [remedy('call-suit', adversaries(ctx, offender), penaltyText)]),
      penalty: { kind: 'call-suit', from: [S(proper)], by, law },
    };
  };
}

export const englishDummy: LawCode = {
  ...english,
  name: 'english-dummy',
  revoke(ctx, seat, how) {
    return ctx.dummies.has(seat) ? dummyRevoke('Dummy: The Revoke')(ctx, seat, how) : english.revoke(ctx, seat, how);
  },
  leadOutOfTurn: dummyLead('Dummy: Leading out of Turn', 'the adversaries may call a suit from the one who should have led'),
  exposedCard(ctx, seat, why) {
    if (isDummySide(ctx, seat)) return null; // Dummy: Cards Played in Error — no penalty for the dummy's partner.
    return english.exposedCard(ctx, seat, why);
  },
  correction(ctx, seat, laterPlayed) {
    // A renounce corrected in time: the dummy's cards lie face up already, and "Dummy's partner is not liable to any
    // penalty for cards dropped face upwards on the table … because it is obvious that Dummy cannot gain any advantage
    // from such exposed cards" (Dummy: Cards Played in Error). Only an adversary's withdrawn card is liable (Am. 29).
    if (isDummySide(ctx, seat)) return null;
    return english.correction(ctx, seat, laterPlayed);
  },
  score(input) {
    const scored = input.penaltyChoice === 'points' ? input.tricksWon.slice() as [number, number]
      : transferTricks(input, input.seats, (r) => !input.dummies.has(r.seat), () => 3);
    // "The revoking player cannot win the game that hand" — the dummy's own revoke carries no penalty at all.
    const penalised = input.revokes.filter((r) => !input.dummies.has(r.seat));
    return penalised.length ? { scored, marks: cannotWinGame({ ...input, revokes: penalised }, 'Dummy: The Revoke') } : { scored };
  },
};

export const doubleDummy: LawCode = {
  ...englishDummy,
  name: 'double-dummy',
  // Only the living players revoke: a dummy's renounce is answered by cannotRevoke below.
  revoke: english.revoke,
  leadOutOfTurn(ctx, offender, proper) {
    // Double Dummy: whoever leads out of turn, the adversary may call a suit from the one that ought to have led,
    // unless it was the turn of neither hand of the offending player.
    return dummyLead('Double Dummy: Leading out of Turn', 'the adversary may call a suit from the one that ought to have led')(
      { ...ctx, dummies: new Set([0, 1, 2, 3]) }, offender, proper);
  },
  cannotRevoke(ctx, seat) {
    return ctx.dummies.has(seat) ? 'Double Dummy, Method of Playing: "Neither dummy can revoke"' : null;
  },
  exposedCard() {
    return null; // Double Dummy: there are no such things as exposed cards, or cards played in error.
  },
  correction() {
    return null; // Double Dummy: no exposed cards, so a card withdrawn to correct a renounce is not liable.
  },
};

export const mort: LawCode = {
  ...englishDummy,
  name: 'mort',
  revoke(ctx, seat, how) {
    if (ctx.dummies.has(seat)) return dummyRevoke('Mort: The Revoke')(ctx, seat, how);
    const base = english.revoke(ctx, seat, how);
    return ruling('Mort: The Revoke', base.message, [
      remedy('points', adversaries(ctx, seat), 'the opponents may take three points from the revoking side\'s score, or add three to their own'),
      remedy('tricks', adversaries(ctx, seat), 'or take three of its tricks, leaving it at least one; the penalty cannot be divided, but each revoke may be paid in a different manner'),
    ]);
  },
  leadOutOfTurn(ctx, offender, proper) {
    if (!isDummySide(ctx, offender)) return american.leadOutOfTurn(ctx, offender, proper);
    if (!sameSide(ctx, offender, proper)) {
      return { ruling: ruling('Mort: Leading Out of Turn', 'Vivant or Mort led out of turn when it was the turn of neither: no penalty can be enforced'), penalty: null };
    }
    return {
      ruling: ruling('Mort: Leading Out of Turn', 'Vivant or Mort led out of turn; if all have played to the trick the error cannot be corrected', [
        remedy('accept', adversaries(ctx, offender), 'the adversaries may let the lead stand'),
        remedy('retract', adversaries(ctx, offender), 'or demand that it be taken back'),
      ]),
      penalty: { kind: 'accept-or-retract', from: [S(offender)], by: [S((offender + 1) & 3), S((offender + 3) & 3)], law: 'Mort: Leading Out of Turn' },
    };
  },
  exposedCard(ctx, seat, why) {
    if (!isDummySide(ctx, seat)) return english.exposedCard(ctx, seat, why);
    if (why !== 'second-card') return null; // Vivant is not liable for dropping his cards face up.
    return ruling('Mort: Cards Played in Error', 'Vivant or Mort played two cards at once to a trick', [
      remedy('call-card', adversaries(ctx, seat), 'the adversaries may select which of the two cards they allow to be played'),
    ]);
  },
  score(input) {
    const scored = input.penaltyChoice === 'points' ? input.tricksWon.slice() as [number, number]
      : transferTricks(input, input.seats, (r) => !input.dummies.has(r.seat), () => 3, 1);
    return { scored };
  },
};
