// Tray records from a dealing machine's PBN hand-record file (Dealer4, Duplimate, BigDeal).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDeal, formatDeal } from '../../src/cards/deal.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { readHandRecords, recordsFromPbn } from '../../src/club/trays/index.js';
import { dataFile } from '../formats/data.js';

const OPTS = { session: 'tuesday', file: 'dealer4-4boards.pbn', at: '2026-12-03T09:00:00.000Z' };
const DEALER4 = readFileSync(new URL('../fixtures/club/trays/dealer4-4boards.pbn', import.meta.url), 'utf8');

/** The [Deal] tags of a file, written North first as records are. */
function dealTags(text: string): string[] {
  return [...text.matchAll(/\[Deal "([^"]+)"\]/g)].map((m) => formatDeal(parseDeal(m[1]), 0));
}

describe('recordsFromPbn', () => {
  it('a Dealer4 file: one record per board with its hands, dealer, vulnerability and source', () => {
    const recs = recordsFromPbn(DEALER4, OPTS);
    expect(recs.map((r) => r.board)).toEqual([1, 2, 3, 4]);
    expect(recs.map((r) => r.hands)).toEqual(dealTags(DEALER4));
    expect(recs.map((r) => r.dealer)).toEqual(['N', 'E', 'S', 'W']);
    expect(recs.map((r) => r.vulnerable)).toEqual(['None', 'NS', 'EW', 'All']);
    for (const r of recs) {
      expect(r).toMatchObject({ schema: 1, type: 'tenace.tray', session: 'tuesday', rev: 1, source: { kind: 'hand-record', file: 'dealer4-4boards.pbn', at: OPTS.at } });
      expect(r.trumpCard).toBeUndefined();
    }
  });

  it('the Deal tag may start from any seat (Dealer4 starts from the dealer): the record is written North first', () => {
    const recs = recordsFromPbn(DEALER4, OPTS);
    expect(DEALER4).toMatch(/\[Deal "E:/);
    expect(recs.every((r) => r.hands.startsWith('N:'))).toBe(true);
  });

  it('a file without Dealer or Vulnerable: Law 2 gives them by the board number', () => {
    const text = DEALER4.replace(/\[(Dealer|Vulnerable) "[^"]*"\]\r?\n/g, '');
    const recs = recordsFromPbn(text, OPTS);
    expect(recs.map((r) => [r.dealer, r.vulnerable])).toEqual([['N', 'None'], ['E', 'NS'], ['S', 'EW'], ['W', 'All']]);
  });

  it('a whist variant: no vulnerability; the variant is recorded', () => {
    const recs = recordsFromPbn(DEALER4, { ...OPTS, variant: 'duplicate-whist' });
    expect(recs.every((r) => r.vulnerable === undefined && r.variant === 'duplicate-whist')).toBe(true);
    expect(() => recordsFromPbn(DEALER4, { ...OPTS, variant: 'wist' })).toThrow(/variant "wist" is unknown/);
  });

  it('errors name the game and the tag', () => {
    const games = DEALER4.split(/\r\n\r\n/);
    // game 2: a hand of 12 cards; game 3: no Deal; game 4: a card dealt twice.
    games[2] = games[2].replace(/(\[Deal "[^ ]+ )([^.]+)\./, (_, a: string, s: string) => `${a}${s.slice(1)}.`);
    games[3] = games[3].replace(/\[Deal "[^"]*"\]\r\n/, '');
    games[4] = games[4].replace(/\[Deal "(.):(\S+) (\S+)/, (_m, f: string, h1: string, h2: string) => `[Deal "${f}:${h1} ${h1.split('.')[0]}${h2.slice(h2.indexOf('.'))}`);
    const { records, errors } = readHandRecords(games.join('\r\n\r\n'), OPTS);
    expect(records.map((r) => r.board)).toEqual([1]);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^game 2 \(Board 2, line \d+\): \[Deal\] must give four hands of 13 cards/);
    expect(errors[1]).toMatch(/^game 3 \(Board 3, line \d+\): \[Deal\] is missing/);
    expect(errors[2]).toMatch(/^game 4 \(Board 4, line \d+\), line \d+: Deal: .* dealt to both/);
    expect(() => recordsFromPbn(games.join('\r\n\r\n'), OPTS)).toThrow(/^dealer4-4boards\.pbn: 3 problems:/);
  });

  it('a Board that is not a number, and a game without Board', () => {
    const bad = DEALER4.replace('[Board "2"]', '[Board "two"]').replace('[Board "3"]\r\n', '');
    const { errors } = readHandRecords(bad, OPTS);
    expect(errors.some((e) => /game 2 .*Board "two" must be a positive integer/.test(e))).toBe(true);
    expect(errors.some((e) => /game 3 .*\[Board\] is missing/.test(e))).toBe(true);
  });

  it('not PBN at all: says what a hand record looks like', () => {
    expect(() => recordsFromPbn('', OPTS)).toThrow(/holds no PBN game: expected \[Board "1"\]/);
  });

  it('../shared/data/camrose2024-ben.pbn: 160 boards, each record holds the file\'s deal', () => {
    const text = dataFile('camrose2024-ben.pbn');
    const recs = recordsFromPbn(text, { ...OPTS, file: 'camrose2024-ben.pbn' });
    const parsed = parsePbn(text).records;
    expect(recs).toHaveLength(160);
    for (const r of recs) {
      const src = parsed.find((p) => p.board === r.board)!;
      expect([r.hands, r.dealer, r.vulnerable]).toEqual([src.hands, src.dealer, src.vulnerable]);
    }
  });

  it('../shared/data/bridgebots-sample.pbn: a file with play and auctions still gives its hand records', () => {
    const recs = recordsFromPbn(dataFile('bridgebots-sample.pbn'), OPTS);
    expect(recs.map((r) => r.board)).toEqual(parsePbn(dataFile('bridgebots-sample.pbn')).records.map((r) => r.board!).sort((a, b) => a - b));
  });

  it('../shared/data/tablemonitor-training.pbn: the same board number with different deals is refused, naming both games', () => {
    const { errors } = readHandRecords(dataFile('tablemonitor-training.pbn'), OPTS);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/^game \d+ \(Board \d+, line \d+\): \[Deal\] of board \d+ differs from game \d+ \(Board \d+, line \d+\): a hand-record file holds one deal per board/);
  });
});
