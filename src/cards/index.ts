// The card model: cards, seats, hands, PBN deals, contracts and who wins a trick.
export * from './card.js';
export * from './seat.js';
export * from './hand.js';
export * from './deal.js';
export * from './contract.js';
export * from './trick.js';
