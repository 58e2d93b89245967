// Variant descriptors: each game as data — seats, dummies, trump source, first leader, code of laws.
import type { VariantDescriptor } from './types.js';

const FOUR = ['N', 'E', 'S', 'W'] as const;

export const VARIANTS: Readonly<Record<string, VariantDescriptor>> = {
  'duplicate-whist': { name: 'duplicate-whist', seats: FOUR, dummies: [], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'duplicate-whist' },
  whist: { name: 'whist', seats: FOUR, dummies: [], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'american' },
  'english-whist': { name: 'english-whist', seats: FOUR, dummies: [], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'english' },
  // Prussian whist (seed 001): "instead of turning up the last card for trump, the player to the left of the dealer
  // cuts a trump from the still pack": the deal event's `trumpCut` gives the suit; the card belongs to no hand.
  'prussian-whist': { name: 'prussian-whist', seats: FOUR, dummies: [], trump: 'declared', trumpCardToDealer: false, firstLeader: 'dealer-left', code: 'english' },
  // Favourite whist (seed 001): played as English whist; only the score differs (src/laws/score/favourite.ts).
  'favourite-whist': { name: 'favourite-whist', seats: FOUR, dummies: [], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'english' },
  // English Dummy: three players; the dummy's partner plays both hands. Default dummy N, overridable per deal.
  'english-dummy': { name: 'english-dummy', seats: FOUR, dummies: ['N'], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'english-dummy' },
  // Double Dummy: two players, each with a dummy on his left... by default N and E are the dummies of S and W.
  'double-dummy': { name: 'double-dummy', seats: FOUR, dummies: ['N', 'E'], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'double-dummy' },
  // Mort (French dummy): Mort is the dead hand, Vivant his partner opposite.
  mort: { name: 'mort', seats: FOUR, dummies: ['N'], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-left', code: 'mort' },
  // Humbug: two players opposite; the dealer's adversary leads; tricks of two cards.
  humbug: { name: 'humbug', seats: ['N', 'S'], dummies: [], trump: 'turned', trumpCardToDealer: true, firstLeader: 'dealer-adversary', code: 'humbug' },
  // Thirteen and the Odd: Humbug without the discard; the trump card belongs to neither player.
  'thirteen-and-the-odd': { name: 'thirteen-and-the-odd', seats: ['N', 'S'], dummies: [], trump: 'turned', trumpCardToDealer: false, firstLeader: 'dealer-adversary', code: 'thirteen-and-the-odd' },
  bridge: { name: 'bridge', seats: FOUR, dummies: [], trump: 'contract', trumpCardToDealer: false, firstLeader: 'declarer-left', code: 'bridge' },
};

/** Names of all variants, for help texts and validation. */
export function variantNames(): string[] {
  return Object.keys(VARIANTS);
}

/** Look up a variant descriptor; throws with the list of known names when it does not exist. */
export function getVariant(name: string): VariantDescriptor {
  const v = VARIANTS[name];
  if (!v) throw new Error(`unknown variant "${name}": use one of ${variantNames().join(', ')}`);
  return v;
}
