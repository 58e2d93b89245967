// PBN import and export on hand-made games: column order, irregularity marks, comments, errors.
import { describe, expect, it } from 'vitest';
import { parsePbn, formatPbn, formatPbnFromResult } from '../../src/formats/pbn.js';
import type { DealResult } from '../../src/laws/types.js';
import { essentials } from './data.js';

const lines = (...ls: string[]): string => ls.join('\n');

// Four short tricks, Play tag West. North wins trick 1, so North leads trick 2 although
// every line starts with West's card.
const game = (contract: string, declarer = 'S', result = '10'): string => lines(
  '[Event "hand made"]',
  `[Declarer "${declarer}"]`,
  `[Contract "${contract}"]`,
  `[Result "${result}"]`,
  '[Play "W"]',
  'HK HA H2 H3',
  'C2 CA C3 C4',
  'D2 DA D3 S5',
  'C5 C6 C7 C8',
  '*',
);

describe('PBN play columns are in seat order from the Play tag, not in play order', () => {
  it('with spades trumps: North leads 2 and 3, South ruffs trick 3 and leads 4', () => {
    const { records, errors } = parsePbn(game('4S'));
    expect(errors).toEqual([]);
    expect(records[0].plays.map((p) => p.seat + p.card)).toEqual([
      'WHK', 'NHA', 'EH2', 'SH3',
      'NCA', 'EC3', 'SC4', 'WC2',
      'NDA', 'ED3', 'SS5', 'WD2',
      'SC8', 'WC5', 'NC6', 'EC7',
    ]);
    // N-S won all four, need 10: 6 more of the 9 left.
    expect(records[0].claim).toEqual({ seat: 'S', tricks: 6 });
  });

  it('at no trump the same columns give another order: North keeps the lead with the diamond ace', () => {
    const { records } = parsePbn(game('3NT'));
    expect(records[0].plays.slice(12).map((p) => p.seat + p.card)).toEqual(['NC6', 'EC7', 'SC8', 'WC5']);
  });

  it('a claim is not derived when play is to be continued ("+")', () => {
    const { records, errors } = parsePbn(game('4S').replace('*', '+ - - -'));
    expect(errors).toEqual([]);
    expect(records[0].plays).toHaveLength(16);
    expect(records[0].claim).toBeUndefined();
    expect(records[0].playUnfinished).toBe(true);
  });

  it('reports a Result that the play makes impossible', () => {
    const { records, errors } = parsePbn(game('4S', 'S', '2'));
    expect(records[0].claim).toBeUndefined();
    expect(errors).toEqual([{ line: 5, message: expect.stringContaining('result 2') }]);
  });
});

describe('PBN irregularity marks (PBN 3.9)', () => {
  it('^L before a card: that seat led out of turn and the others follow it clockwise', () => {
    const text = game('4S').replace('C5 C6 C7 C8', 'C5 C6 ^L C7 C8');
    const { records, errors } = parsePbn(text);
    expect(errors).toEqual([]);
    expect(records[0].plays.slice(12).map((p) => p.seat + p.card)).toEqual(['EC7', 'SC8', 'WC5', 'NC6']);
    expect(records[0].irregularities).toEqual([{ trick: 4, seat: 'E', marker: 'L' }]);
  });

  it('^R before a card, or appended to it, marks a revoke by that seat; notes and NAGs are skipped', () => {
    const text = game('4S').replace('C2 CA C3 C4', 'C2 =1= CA $7 ^R S3 C4!').replace('D2 DA D3 S5', 'D2 DA D3 S5^R');
    const { records, errors } = parsePbn(text);
    expect(errors).toEqual([]);
    expect(records[0].irregularities).toEqual([
      { trick: 2, seat: 'E', marker: 'R' },
      { trick: 3, seat: 'S', marker: 'R' },
    ]);
    expect(records[0].plays[5]).toEqual({ seat: 'E', card: 'S3' });
  });

  it('an unknown mark is an error on its line', () => {
    const { errors } = parsePbn(game('4S').replace('HK HA', 'HK ^Q HA'));
    expect(errors).toEqual([{ line: 6, message: expect.stringContaining('^Q') }]);
  });
});

describe('PBN tags, comments and sections', () => {
  const text = lines(
    '% a comment line',
    '[Event "one"] [Board "3"]',
    '; a rest-of-line comment [Board "99"]',
    '{ a brace comment',
    '',
    'with an empty line inside that does not end the game [Board "98"] }',
    '[Dealer "w"]',
    '[Vulnerable "Both"]',
    '[Deal "E:- AKQJ.AKQ.AKQ.AKQ - -"]',
    '[North "Smith, J."]',
    '[Declarer "^N"]',
    '[Contract "6ntxx"]',
    '[Result "NS 12"]',
    '[Auction "W"]',
    'Pass\t1NT =1=\tPass\t6NT',
    'X XX AP',
    '[Note "1:strong"]',
    '[Play "E"]',
    'h2\th3\th4\thA',
    '*',
    '[Event "two"]',
    '[Board "4"]',
  );
  const { records, errors } = parsePbn(text);

  it('skips comments, auctions and notes, and starts a game at a new [Event]', () => {
    expect(errors).toEqual([]);
    expect(records.map((r) => r.board)).toEqual([3, 4]);
  });

  it('reads lowercase values, "^" declarer, Both, side results and names', () => {
    const r = records[0];
    expect(r.dealer).toBe('W');
    expect(r.vulnerable).toBe('All');
    expect(r.hands).toBe('N:- - AKQJ.AKQ.AKQ.AKQ -');
    expect(r.declarer).toBe('N');
    expect(r.declarerSwapped).toBe(true);
    expect(r.contract).toBe('6NTNXX');
    expect(r.result).toBe(12);
    expect(r.players).toEqual({ N: 'Smith, J.' });
    expect(r.plays.map((p) => p.seat + p.card)).toEqual(['EH2', 'SH3', 'WH4', 'NHA']);
    expect(r.claim).toEqual({ seat: 'N', tricks: 11 });
  });

  it('reads a Result given for the other side', () => {
    const { records: rs } = parsePbn(lines('[Declarer "E"]', '[Contract "2S"]', '[Result "NS 5"]'));
    expect(rs[0].result).toBe(8);
  });

  it('reads a tag spread over lines, and several tags on one line', () => {
    const { records: rs, errors: es } = parsePbn(lines('[Board', '  "7"', ']  [Dealer "S"] [Vulnerable "NS"]'));
    expect(es).toEqual([]);
    expect(rs[0]).toMatchObject({ board: 7, dealer: 'S', vulnerable: 'NS' });
  });

  it('separates games at empty lines', () => {
    const { records: rs } = parsePbn(lines('[Board "1"]', '', '[Board "2"]', ' \t ', '[Board "3"]'));
    expect(rs.map((r) => r.board)).toEqual([1, 2, 3]);
  });
});

describe('malformed PBN gives errors with line numbers and keeps going', () => {
  it('names the line of each problem', () => {
    const text = lines(
      '[Board "1"]',
      '[Deal "N:AKQ.JT9.876.5432 AKQ.JT9.876.5432 - -"]',
      '[Dealer "Q"]',
      '[Declarer "S"]',
      '[Contract "8H"]',
      '[Play "W"]',
      'SA SX SK SQ',
      '',
      '[Board "2"',
      '[Event "unterminated]',
      '[Board "3"]',
      '{ never closed',
    );
    const { records, errors } = parsePbn(text);
    expect(errors).toEqual([
      { line: 2, message: expect.stringContaining('dealt to both') },
      { line: 3, message: expect.stringContaining('Dealer "Q"') },
      { line: 5, message: expect.stringContaining('Contract "8H"') },
      { line: 6, message: expect.stringContaining('needs a Contract') },
      { line: 7, message: expect.stringContaining('"SX" is not a card') },
      { line: 7, message: expect.stringContaining('trick 1 is missing a card, so 2 card(s)') },
      { line: 9, message: expect.stringContaining('not closed') },
      { line: 10, message: expect.stringContaining('closing quote') },
      { line: 12, message: expect.stringContaining('never closed') },
    ]);
    expect(records.map((r) => r.board)).toEqual([1, 3]);
    // The card that is not a card leaves a gap: West's ace is kept, the rest cannot be ordered.
    expect(records[0].plays).toEqual([{ seat: 'W', card: 'SA' }]);
  });

  it('reports cards after a gap that cannot be put in play order', () => {
    const { errors } = parsePbn(lines('[Declarer "S"]', '[Contract "1C"]', '[Play "W"]', 'SA - SK SQ', '*'));
    expect(errors).toEqual([{ line: 4, message: expect.stringContaining('2 card(s)') }]);
  });

  it('refuses "#" for the tags that may not inherit', () => {
    const { errors } = parsePbn(lines('[Deal "#"]'));
    expect(errors).toEqual([{ line: 1, message: expect.stringContaining('Deal may not use "#"') }]);
  });
});

describe('PBN export', () => {
  it('round-trips marks, a swapped declarer, an unfinished play and a partial trick', () => {
    const text = game('4SX', '^S').replace('C5 C6 C7 C8', '^L C5 C6 C7 C8').replace('C3', '^R C3').replace('*', '+ - - S9');
    const first = parsePbn(text);
    expect(first.errors).toEqual([]);
    const out = formatPbn(first.records);
    expect(out).toContain('[Declarer "^S"]');
    expect(out).toContain('[Contract "4SX"]');
    const second = parsePbn(out);
    expect(second.errors).toEqual([]);
    expect(second.records.map(essentials)).toEqual(first.records.map(essentials));
  });

  it('writes the opening leader in the Play tag and each trick from that column', () => {
    const { records } = parsePbn(game('4S'));
    const out = formatPbn(records).split('\r\n');
    const at = out.indexOf('[Play "W"]');
    expect(out.slice(at + 1, at + 6)).toEqual(['HK HA H2 H3', 'C2 CA C3 C4', 'D2 DA D3 S5', 'C5 C6 C7 C8', '*']);
  });

  it('writes an engine result with ^R on the revoking card and ^L on the card led out of turn', () => {
    const rec = parsePbn(game('4S')).records[0];
    const result: DealResult = {
      variant: 'bridge',
      tricks: [
        { leader: 'W', cards: { W: 'HK', N: 'HA', E: 'H2', S: 'H3' }, winner: 'N' },
        { leader: 'N', cards: { N: 'CA', E: 'S3', S: 'C4', W: 'C2' }, winner: 'E' },
        { leader: 'W', cards: { W: 'D2', N: 'DA', E: 'D3', S: 'D4' }, winner: 'N' },
      ],
      tricksWon: { NS: 2, EW: 1 },
      findings: [
        { kind: 'revoke', seat: 'E', trick: 3, renounceTrick: 2, law: 'L64A', remedies: [], message: '' },
        { kind: 'lead-out-of-turn', seat: 'W', trick: 3, law: 'L54', remedies: [], message: '' },
      ],
      scored: { NS: 2, EW: 1 },
    };
    const out = formatPbnFromResult({ ...rec, claim: undefined }, result);
    const ls = out.split('\r\n');
    const at = ls.indexOf('[Play "W"]');
    expect(ls.slice(at + 1, at + 5)).toEqual(['HK HA H2 H3', 'C2 CA ^R S3 C4', '^L D2 DA D3 D4', '*']);
    const back = parsePbn(out).records[0];
    expect(back.irregularities).toEqual([{ trick: 2, seat: 'E', marker: 'R' }, { trick: 3, seat: 'W', marker: 'L' }]);
    expect(back.plays.slice(8).map((p) => p.seat)).toEqual(['W', 'N', 'E', 'S']);
  });
});

describe('what an error message quotes of the input (issue 11: a binary named .pbn echoed 120 KB to the terminal)', () => {
  const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('a long stray token is cut, and its control bytes are written as escapes', () => {
    const junk = '\u007fELF\u0002\u009b' + 'x'.repeat(100_000);
    const { errors } = parsePbn(`${junk}\n[Board "1"]\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/^"\\x7fELF\\x02\\x9bx+…" stands outside any tag or section$/);
    expect(errors[0].message.length).toBeLessThan(120);
    expect(errors[0].message).not.toMatch(UNPRINTABLE);
  });

  it('a long tag name is cut too', () => {
    const { errors } = parsePbn(`[${'T'.repeat(250)}\n`);
    expect(errors[0].message).toMatch(/^tag T+… is not closed with "\]"$/);
    expect(errors[0].message.length).toBeLessThan(120);
  });

  it('so is a bad tag value', () => {
    const { errors } = parsePbn(`[Board "1"]\n[Dealer "${'\u0007'.repeat(5000)}"]\n`);
    expect(errors[0].message).toMatch(/^Dealer "(\\x07)+…" must be N, E, S or W$/);
    expect(errors[0].message).not.toMatch(UNPRINTABLE);
  });
});
