// The card model: cards, seats, hands and PBN deals.
export * from './card.js';
export * from './seat.js';
export * from './hand.js';
export * from './deal.js';
