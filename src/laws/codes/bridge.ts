// Duplicate bridge card play, WBF Laws 2017: L44 following suit, L53-57 leads and plays out of turn,
// L61-64 the revoke, L67 defective tricks. Declarer plays for the dummy.
import type { LawCode, RuleContext, ScoreInput } from '../code.js';
import { S, adversaries, partnerSeat, remedy, ruling, scoreSide, tricksWonFrom } from './common.js';

const isDefender = (ctx: RuleContext, seat: number) => ctx.declarer >= 0 && (seat & 1) !== (ctx.declarer & 1);
const declarerSide = (ctx: RuleContext) => (ctx.declarer & 1 ? 'EW' : 'NS');

/** L64A/B: tricks transferred for each established revoke, with the exceptions the table can decide. */
function revokeTransfers(input: ScoreInput): [number, number] {
  const scored: [number, number] = [input.tricksWon[0], input.tricksWon[1]];
  const sides = new Set(input.revokes.map((r) => scoreSide(input.seats, r.seat)));
  if (sides.size === 2) return scored; // L64B7: both sides have revoked on the same board.
  const seen = new Set<string>();
  const owed = [0, 0];
  for (const r of input.revokes) {
    const side = scoreSide(input.seats, r.seat);
    const key = `${r.seat}:${r.suit}`;
    const repeat = seen.has(key);
    seen.add(key);
    if (repeat) continue; // L64B2: a subsequent revoke in the same suit by the same player.
    if (r.penaltyCardOrDummy || input.dummies.has(r.seat)) continue; // L64B3
    if (r.trick === 12) continue; // L64B6
    const wonFromRevoke = tricksWonFrom(input, side, r.trick);
    if (wonFromRevoke === 0) continue; // L64B1: the offending side won neither the revoke trick nor a later one.
    const offenderWonIt = input.trickWinnerSeats[r.trick - 1] === r.seat;
    const wonLater = tricksWonFrom(input, side, r.trick + 1) > 0;
    owed[side] += offenderWonIt ? 1 + (wonLater ? 1 : 0) : 1; // L64A1 / L64A2
  }
  for (const side of [0, 1]) {
    if (!owed[side]) continue;
    const first = Math.min(...input.revokes.filter((r) => scoreSide(input.seats, r.seat) === side).map((r) => r.trick));
    const t = Math.min(owed[side], tricksWonFrom(input, side, first));
    scored[side] -= t;
    scored[1 - side] += t;
  }
  return scored;
}

export const bridge: LawCode = {
  name: 'bridge',
  quitEstablishes: false, // L63A: only a later lead or play by the offending side, or a claim, establishes it.

  renounceInError(ctx, seat) {
    return ruling('L61', `${S(seat)} failed to follow suit although able (L44C): a revoke, to be corrected if attention is drawn before it is established (L62A)`, [
      remedy('correct', S(seat), 'the offender must correct it; a defender\'s withdrawn card becomes a major penalty card (L62B1)'),
      remedy('correct', adversaries(ctx, seat), 'the non-offending side may ask whether he has a card of the suit (L61B) and may withdraw cards played after the revoke (L62C1)'),
    ]);
  },

  revoke(ctx, seat, how) {
    // A revoke proved when the hands are unknown was proved by the offender's own play to a later trick: L63A1.
    const law = how === 'claim' ? 'L63A3' : how === 'next-trick' || how === 'proved' ? 'L63A1' : 'L63A';
    const dummy = ctx.dummies.has(seat);
    return ruling(law, dummy ? 'The revoke by dummy is established; a card belonging to dummy: no trick adjustment (L64B3)' : 'Revoke established', [
      remedy('transfer', dummy ? 'director' : adversaries(ctx, seat), dummy ? 'the Director may adjust if the non-offenders were damaged (L64C)'
        : 'at the end of play: the revoke trick and one more if the offender won it, otherwise one trick if the offending side won that or a later trick (L64A), save the exceptions of L64B; the Director may adjust further (L64C)'),
    ]);
  },

  correction(ctx, seat) {
    if (!isDefender(ctx, seat)) return null; // L62B2: declarer or dummy may replace the card without penalty.
    return ruling('L62B1', 'The revoke is corrected; the defender\'s withdrawn card becomes a major penalty card (L50)', [
      remedy('call-card', declarerSide(ctx), 'the penalty card must be played at the first legal opportunity; declarer may impose lead restrictions when the offender\'s partner gains the lead (L50D, L50E)'),
    ]);
  },

  leadOutOfTurn(ctx, offender, proper) {
    const opening = ctx.trick === 1;
    if (isDefender(ctx, offender)) {
      return {
        ruling: ruling(opening ? 'L54' : 'L56', `${opening ? 'Opening lead' : 'Lead'} out of turn by a defender`, [
          remedy('accept', S(ctx.declarer), opening ? 'declarer may accept it and play second, or spread his hand and become dummy (L54A, L54B)' : 'declarer may accept it (L53A); it is accepted if the next player plays to it'),
          remedy('retract', S(ctx.declarer), 'or require it to be withdrawn: the card becomes a major penalty card and L50D lead restrictions apply (L56, L54D)'),
        ]),
        penalty: { kind: 'accept-or-retract', from: [S(offender)], by: [S(ctx.declarer)], law: opening ? 'L54' : 'L56' },
      };
    }
    const defenders = [S((ctx.declarer + 1) & 3), S((ctx.declarer + 3) & 3)];
    return {
      ruling: ruling('L55', `Declarer led out of turn${proper === partnerSeat(ctx, offender) || proper === offender ? ' from the wrong hand' : ''}`, [
        remedy('accept', adversaries(ctx, ctx.declarer), 'either defender may accept the lead (L55A)'),
        remedy('retract', adversaries(ctx, ctx.declarer), 'or require its retraction; declarer then leads from the correct hand without penalty (L55B)'),
      ]),
      penalty: { kind: 'accept-or-retract', from: [S(offender)], by: defenders, law: 'L55' },
    };
  },

  leadRetracted(ctx, seat) {
    if (!isDefender(ctx, seat)) return null; // L55B: declarer's card is restored to his hand.
    return ruling(ctx.trick === 1 ? 'L54D' : 'L56', 'The lead out of turn was withdrawn: the card is a major penalty card', [
      remedy('call-card', declarerSide(ctx), 'it must be played at the first legal opportunity; when the offender\'s partner next has the lead declarer may require or forbid the lead of its suit (L50D)'),
    ]);
  },

  playOutOfTurn(ctx, offender, skipped) {
    if (isDefender(ctx, offender) && partnerSeat(ctx, offender) === skipped) {
      return {
        ruling: ruling('L57A', 'A defender played before his partner; the card so played becomes a penalty card', [
          remedy('highest', S(ctx.declarer), 'declarer may require the offender\'s partner to play his highest or lowest card of the suit led, or a card of another suit he names (L57A)'),
        ]),
        penalty: { kind: 'highest-or-lowest', from: [S(skipped)], by: [S(ctx.declarer)], law: 'L57A' },
      };
    }
    if (!isDefender(ctx, offender)) {
      return { ruling: ruling('L57C', 'Declarer played before his right-hand opponent: no rectification; the card may not be withdrawn'), penalty: null };
    }
    return { ruling: ruling('L57', `${S(offender)} played before ${S(skipped)}`), penalty: null };
  },

  exposedCard(ctx, seat) {
    if (!isDefender(ctx, seat)) return null; // L48A: declarer is not subject to rectification for exposing a card.
    return ruling('L50', 'A defender\'s card exposed otherwise than in the normal course of play is a penalty card (L49, L58B)', [
      remedy('call-card', declarerSide(ctx), 'a major penalty card must be played at the first legal opportunity (L50D)'),
    ]);
  },

  failureToComply(ctx, seat, what) {
    return ruling('L61A', `Failure to ${what}, a play requirement of the laws, constitutes a revoke`, [
      remedy('transfer', adversaries(ctx, seat), 'as for any established revoke (L64)'),
    ]);
  },

  wrongTrumpCard(ctx, seat) {
    return ruling('L87', `${S(seat)}: the trump is fixed by the contract; a turned card indicates a fouled board`, [remedy('average', 'director', 'the Director scores the board as fouled (L87)')]);
  },

  handIrregularity(ctx, seat, what) {
    if (what === 'wrong-card-count') {
      return ruling('L67', `${S(seat)} has the wrong number of cards: a defective trick or an incorrect hand (L13)`, [
        remedy('correct', 'director', 'before the offender plays to the next trick he supplies a card; later the Director establishes the facts and may apply a one-trick penalty (L67A, L67B)'),
      ]);
    }
    return ruling('L87', 'The board is fouled: a card is not in the hand the board record gives', [
      remedy('average', 'director', 'the Director determines the scoring of a fouled board (L87B)'),
    ]);
  },

  playOrderLost() {
    return ruling('L85', 'Rulings on disputed facts: the Director bases his view of the facts on the balance of probabilities, in accordance with the weight of the evidence he is able to collect (L85A1); if he cannot determine them to his satisfaction he makes a ruling that permits play to continue (L85B)', [
      remedy('director-ruling', 'director', 'the Director determines the order of play from the evidence and rules as in L84 (L85A2)'),
    ]);
  },

  claimNotAdmitted() {
    return null; // L68D: play ceases on a claim; the Director decides.
  },

  score(input) {
    return { scored: revokeTransfers(input) };
  },
};
