// Helpers for the format tests: the shared real files, and a legality check of a record's play.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDeal } from '../../src/cards/deal.js';
import { holds, holdsSuit, removeCard } from '../../src/cards/hand.js';
import { parseCard, suitOf } from '../../src/cards/card.js';
import { seatIndex } from '../../src/cards/seat.js';
import type { DealRecord } from '../../src/formats/record.js';

/** Path of a real hand-record file in ../shared/data, the shared/ folder beside the checkout; a missing one says so. */
export function dataPath(name: string): string {
  const file = path.resolve(import.meta.dirname, '../../../shared/data', name);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: the format and replay tests read real hand records from ../shared/data, the shared/ folder beside this checkout (README.md, System packages)`);
  }
  return file;
}

/** Text of a file in ../shared/data. */
export function dataFile(name: string): string {
  return readFileSync(dataPath(name), 'utf8');
}

export const PBN_FILES = ['bridgebots-sample.pbn', 'camrose2024-ben.pbn', 'tablemonitor-training.pbn'];

/**
 * Problems with a record's play against its hands: a card not held by the seat that plays it, or a
 * renounce while able to follow. Wrong seats (a mistaken play order) show up as exactly these.
 */
export function playProblems(rec: DealRecord): string[] {
  const deal = parseDeal(rec.hands as string);
  const out: string[] = [];
  let led = -1;
  rec.plays.forEach((p, i) => {
    const hand = deal[seatIndex(p.seat)];
    if (!hand) return;
    const c = parseCard(p.card);
    if (i % 4 === 0) led = suitOf(c);
    else if (suitOf(c) !== led && holdsSuit(hand, led as 0 | 1 | 2 | 3)) out.push(`${p.seat} renounced with ${p.card} at card ${i + 1}`);
    if (!holds(hand, c)) out.push(`${p.seat} does not hold ${p.card} at card ${i + 1}`);
    removeCard(hand, c);
  });
  return out;
}

/** The fields that must survive a round trip through PBN. */
export function essentials(rec: DealRecord): unknown {
  const { board, dealer, hands, contract, passedOut, declarer, vulnerable, plays, claim, result, irregularities, players, declarerSwapped, playUnfinished } = rec;
  return { board, dealer, hands, contract, passedOut, declarer, vulnerable, plays, claim, result, irregularities, players, declarerSwapped, playUnfinished };
}
