// The tricks each card cost: before every card played, the position is solved; a card whose result is below the best
// card's cost its side the difference (the card-by-card "tricks lost" of vugraph commentary).
import { SUIT_LETTERS, cardCode, formatCard, tryParseCard } from '../cards/card.js';
import { winningIndex } from '../cards/trick.js';
import { type Deal, formatDeal } from '../cards/deal.js';
import { type Hand, handSize, removeCard } from '../cards/hand.js';
import { type Seat, SEATS } from '../cards/seat.js';
import type { DoubleDummy } from './solver.js';
import { type Strain, dealHands } from './types.js';

/** One card played, what its side could take before it, and what it cost. */
export interface CardCost {
  trick: number;
  seat: Seat;
  card: string;
  /** The tricks the player's side could still take, with best play, before this card (the trick in progress included). */
  best: number;
  /** Tricks this card cost its side: 0 for a card as good as the best. */
  cost: number;
}

export interface PlayAnalysis {
  cards: CardCost[];
  /**
   * When play stopped with cards in hand (a claim, a concession, a record cut short): the tricks won so far, and
   * what each side can still take from the cards left with best play (the trick in progress included).
   */
  after?: { won: { NS: number; EW: number }; left: { NS: number; EW: number } };
  /** Why the analysis stopped before the last card played (an irregular card), if it did. */
  stopped?: string;
}

/**
 * Solve the position before each card of `plays` (in play order, from the opening lead) and say what each cost.
 * Stops at the first card that is not one DDS would let that seat play: a revoke, a card out of turn, a card the
 * hand did not hold.
 */
export async function analysePlay(dd: Pick<DoubleDummy, 'solve'>, hands: string, strain: Strain, plays: readonly { seat: Seat; card: string }[]): Promise<PlayAnalysis> {
  const m = dealHands(hands);
  if ('error' in m) throw new Error(m.error);
  const deal = m.hands.map((h) => [...h] as Hand) as Deal;
  const out: PlayAnalysis = { cards: [] };
  let leader: Seat | undefined = plays[0]?.seat;
  let trick: string[] = [];
  const won = { NS: 0, EW: 0 };
  for (let i = 0; i < plays.length && leader; i++) {
    const p = plays[i];
    const trickNo = Math.floor(i / 4) + 1;
    const r = await dd.solve({ hands: formatDeal(deal), strain, leader, trick: [...trick] });
    const parsed = tryParseCard(p.card);
    const name = parsed.ok ? formatCard(parsed.value) : p.card;
    const played = r.cards.find((c) => c.card === name);
    if (r.toPlay !== p.seat || !played || !parsed.ok) {
      out.stopped = r.toPlay !== p.seat
        ? `the analysis stops at trick ${trickNo}: ${p.seat} played ${name} when it was ${r.toPlay}'s turn`
        : `the analysis stops at trick ${trickNo}: ${p.seat}'s ${name} was not a card ${p.seat} could play there (a revoke, or a card not in that hand)`;
      break;
    }
    const best = r.cards[0].tricks;
    out.cards.push({ trick: trickNo, seat: p.seat, card: name, best, cost: best - played.tricks });
    removeCard(deal[SEATS.indexOf(p.seat)]!, parsed.value);
    trick.push(name);
    if (trick.length === 4) {
      leader = winner(leader, trick, strain);
      won[leader === 'N' || leader === 'S' ? 'NS' : 'EW']++;
      trick = [];
    }
  }
  if (!out.stopped && leader && deal.some((h) => h && handSize(h) > 0)) {
    const r = await dd.solve({ hands: formatDeal(deal), strain, leader, trick: [...trick] });
    out.after = { won, left: r.tricks };
  }
  return out;
}

/** The seat that won a complete trick led by `leader`. */
function winner(leader: Seat, trick: readonly string[], strain: Strain): Seat {
  const cards = trick.map((c) => cardCode(c));
  return SEATS[(SEATS.indexOf(leader) + winningIndex(cards, strain === 'NT' ? -1 : SUIT_LETTERS.indexOf(strain))) & 3];
}
