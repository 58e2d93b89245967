// BBO LIN import: the real sample, a cross-check against PBN, multi-board files and errors.
import { describe, expect, it } from 'vitest';
import { parseLin } from '../../src/formats/lin.js';
import { parsePbn, formatPbn } from '../../src/formats/pbn.js';
import { parseDeal } from '../../src/cards/deal.js';
import { type Hand } from '../../src/cards/hand.js';
import { RANK_LETTERS } from '../../src/cards/card.js';
import type { DealRecord } from '../../src/formats/record.js';
import { dataFile, playProblems, essentials } from './data.js';

const SAMPLE = dataFile('bridgebots-sample.lin').trim();

describe('bridgebots-sample.lin', () => {
  const { records, errors } = parseLin(SAMPLE);
  const r = records[0];

  it('reads one board: number, dealer, vulnerability, names', () => {
    expect(errors).toEqual([]);
    expect(records).toHaveLength(1);
    expect(r.board).toBe(15);
    expect(r.dealer).toBe('S');
    expect(r.vulnerable).toBe('NS');
    expect(r.players).toEqual({ S: 'PrinceBen', W: 'Forrest_', N: 'smalark', E: 'granola357' });
  });

  it('computes the missing East hand from the other three', () => {
    expect(r.hands).toBe('N:K5.A.AJT52.J9762 AT7.T94.984.K853 Q982.Q82.KQ763.T J643.KJ7653..AQ4');
  });

  it('derives 3NT by North from the auction (North bid no trump first, with the unusual 2NT)', () => {
    expect(r.contract).toBe('3NTN');
    expect(r.declarer).toBe('N');
  });

  it('gives the cards their seats in play order: East leads, winners lead next', () => {
    expect(r.plays.slice(0, 8)).toEqual([
      { seat: 'E', card: 'H4' }, { seat: 'S', card: 'H2' }, { seat: 'W', card: 'HJ' }, { seat: 'N', card: 'HA' },
      { seat: 'N', card: 'DA' }, { seat: 'E', card: 'D4' }, { seat: 'S', card: 'D3' }, { seat: 'W', card: 'S3' },
    ]);
    expect(r.plays).toHaveLength(52);
    expect(playProblems(r)).toEqual([]);
    expect(r.result).toBe(6);
    expect(r.claim).toBeUndefined();
  });

  it('exports to PBN and reads back the same', () => {
    const back = parsePbn(formatPbn(records));
    expect(back.errors).toEqual([]);
    expect(back.records.map(essentials)).toEqual(records.map(essentials));
  });

  it('is a board the PBN sample does not hold, so the two files do not overlap', () => {
    const pbn = parsePbn(dataFile('bridgebots-sample.pbn')).records;
    expect(pbn.map((p) => p.board)).not.toContain(15);
    expect(pbn.map((p) => p.hands)).not.toContain(r.hands);
  });
});

/** LIN form of a hand: `S` and its ranks, then H, D, C. */
function linHand(h: Hand | null): string {
  if (!h) return '';
  return 'SHDC'.split('').map((s, i) => s + [...RANK_LETTERS].filter((_, r) => h[i] & (1 << r)).reverse().join('')).join('');
}

describe('LIN and PBN agree on the same board', () => {
  // Board 1 of bridgebots-sample.pbn written as LIN: hands S W N (East left out), the auction from the
  // PBN Auction section, the cards in play order, and a claim of 9 total tricks for declarer.
  const pbn = parsePbn(dataFile('bridgebots-sample.pbn')).records[1];
  const deal = parseDeal(pbn.hands as string);
  const auction = 'p 1D d r 1S d p 2C 2H p p 3C p 3D p p p'.split(' ');
  const lin = [
    `pn|Bauke Muller,Franky Karwur,Wubbo De Boer,Denny Sacul|st||md|3${linHand(deal[2])},${linHand(deal[3])},${linHand(deal[0])},|`,
    'rh||ah|Board 1|sv|o|',
    auction.map((c) => `mb|${c}|`).join(''),
    'pg||' + pbn.plays.map((p, i) => `pc|${i % 2 ? p.card.toLowerCase() : p.card}|${i % 4 === 3 ? 'pg||' : ''}`).join(''),
    'mc|9|',
  ].join('');
  const { records, errors } = parseLin(lin);

  it('has the same deal, contract, seats, claim and result', () => {
    expect(errors).toEqual([]);
    const l = records[0];
    const pick = (x: DealRecord): unknown => ({
      board: x.board, dealer: x.dealer, hands: x.hands, contract: x.contract, declarer: x.declarer,
      vulnerable: x.vulnerable, plays: x.plays, claim: x.claim, result: x.result, players: x.players,
    });
    expect(pick(l)).toEqual(pick(pbn));
    expect(l.claim).toEqual({ seat: 'E', tricks: 5 });
  });
});

describe('LIN files with several boards', () => {
  const closed = 'qx|c15|md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,AT7.T94.984.K853|ah|Board 15|sv|n|'
    .replace('AT7.T94.984.K853', 'SAT7HT94D984CK853')
    + 'mb|p|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pg||pc|DA|pc|D4|pc|D3|pc|H3|pg||mc|10|pg||';
  const open = 'qx|o15|' + SAMPLE.replace(/^pn\|[^|]*\|/, '');
  const text = ['pn|a,b,c,d,e,f,g,h|rs|3NN-3,4HW=|bn|15|pg||', open, closed].join('\n');
  const { records, errors } = parseLin(text);

  it('starts a board at each qx and names the players of each room', () => {
    expect(errors).toEqual([]);
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.board)).toEqual([15, 15]);
    expect(records[0].players).toEqual({ S: 'a', W: 'b', N: 'c', E: 'd' });
    expect(records[1].players).toEqual({ S: 'e', W: 'f', N: 'g', E: 'h' });
  });

  it('reads a claim: mc gives declarer\'s total, so West claims 9 of the 12 tricks left', () => {
    const r = records[1];
    expect(r.contract).toBe('4HW');
    expect(r.plays).toEqual([
      { seat: 'N', card: 'DA' }, { seat: 'E', card: 'D4' }, { seat: 'S', card: 'D3' }, { seat: 'W', card: 'H3' },
    ]);
    expect(r.claim).toEqual({ seat: 'W', tricks: 9 });
    expect(r.result).toBe(10);
  });

  it('takes the result of a room from the header rs list', () => {
    expect(records[0].result).toBe(6);
    // Board 2's closed room is the fourth entry; without bn the boards count in order of appearance.
    const noPlay = 'pn|a,b,c,d|rs|,,3NN=,4HWX-2|qx|o1|md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|qx|o2|qx|c2|md|1|';
    const rs = parseLin(noPlay);
    expect(rs.errors).toEqual([]);
    expect(rs.records.map((r) => [r.board, r.contract, r.result])).toEqual([[1, undefined, undefined], [2, '3NTN', 9], [2, '4HWX', 8]]);
  });

  it('reads one board a line without qx', () => {
    const twoLines = `${SAMPLE}\n${SAMPLE.replace('PrinceBen', 'Somebody').replace('mb|p|mb|1H|', 'mb|p|mb|1H!|')}`;
    const r = parseLin(twoLines);
    expect(r.errors).toEqual([]);
    expect(r.records).toHaveLength(2);
    expect(r.records.map((x) => x.players?.S)).toEqual(['PrinceBen', 'Somebody']);
    expect(r.records[1].plays).toEqual(r.records[0].plays);
  });

  it('ignores a claim that play continued after', () => {
    const withdrawn = SAMPLE.replace('pc|DA|', 'mc|12|pc|DA|');
    expect(parseLin(withdrawn).records[0].claim).toBeUndefined();
  });
});

describe('LIN auctions', () => {
  const contract = (calls: string, dealer = '1'): string | undefined =>
    parseLin(`md|${dealer}SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|${calls.split(' ').map((c) => `mb|${c}|`).join('')}`).records[0].contract;

  it('reads doubles and redoubles in both spellings, alerts and lowercase', () => {
    expect(contract('1N! x xx p p p')).toBe('1NTSXX');
    expect(contract('1n D R p p p')).toBe('1NTSXX');
    expect(contract('1C d 1H p p d p p p')).toBe('1HNX');
  });

  it('gives the contract to the first of the side to name the strain', () => {
    // Dealer West (2): W 1S, N p, E 2S, S p, W 4S → West; E 3H later, W 4H → East named hearts first.
    expect(contract('1S p 2S p 4S p p p', '2')).toBe('4SW');
    expect(contract('1S p 3H p 4H p p p', '2')).toBe('4HE');
  });

  it('reads a passed-out auction as no contract', () => {
    expect(contract('p p p p')).toBeUndefined();
  });
});

describe('malformed LIN gives errors with line numbers', () => {
  it('names the line of each problem and keeps the rest', () => {
    const text = [
      'pn|a,b,c,d|md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|',
      'sv|z|mb|1H|mb|9Z|',
      'mb|p|mb|p|mb|p|pc|H4|pc|ZZ|',
      'x1|junk|mc|99|',
    ].join('\n');
    const { records, errors } = parseLin(text);
    expect(errors).toEqual([
      { line: 2, message: expect.stringContaining('sv "z"') },
      { line: 2, message: expect.stringContaining('mb "9Z"') },
      { line: 3, message: expect.stringContaining('pc "ZZ"') },
      { line: 4, message: expect.stringContaining('"x1" is not a LIN tag name') },
      { line: 4, message: expect.stringContaining('mc "99"') },
    ]);
    // Dealer South opened 1H; the bad call is skipped, so West leads.
    expect(records[0].contract).toBe('1HS');
    expect(records[0].plays).toEqual([{ seat: 'W', card: 'H4' }]);
  });

  it('reports impossible hands in md', () => {
    const dup = parseLin('\n\nmd|1SAKA|');
    expect(dup.errors).toEqual([{ line: 3, message: expect.stringContaining('SA appears twice') }]);
    const both = parseLin('md|1SQ982HQ82DKQ763CT,SQ643HKJ7653DCAQ4,|');
    expect(both.errors).toEqual([{ line: 1, message: expect.stringContaining('dealt to both') }]);
    const short = parseLin('md|1SQ982HQ82DKQ763C,|');
    expect(short.errors).toEqual([{ line: 1, message: expect.stringContaining('12 cards') }]);
  });

  it('reports cards played without a declarer', () => {
    const { errors, records } = parseLin('md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|\npc|H4|');
    expect(errors).toEqual([{ line: 2, message: expect.stringContaining('no declarer') }]);
    expect(records[0].plays).toEqual([]);
  });

  it('reports a tag without a value at the end', () => {
    expect(parseLin('md|1SQ982HQ82DKQ763CT,,,|pc').errors).toEqual([{ line: 1, message: expect.stringContaining('"pc" has no value') }]);
  });
});

/**
 * The real board turned round the table `r` seats clockwise: each hand, the dealer and so every call move on with
 * it, so the same 3NT is declared in turn by N, E, S and W and the same cards are played.
 */
function rotatedSample(r: number): string {
  return SAMPLE.replace(/md\|(\d)([^|]*)\|/, (_, dealer: string, hands: string) => {
    const list = hands.split(',');
    const turned = list.map((_h, k) => list[(k - r + 4) % 4]);
    return `md|${((Number(dealer) - 1 + r) % 4) + 1}${turned.join(',')}|`;
  });
}

describe('LIN no-trump contracts name their declarer, whoever it is (issue 11: "3NTW" contains the N of NT)', () => {
  const SEATS = ['N', 'E', 'S', 'W'] as const;
  for (let r = 0; r < 4; r++) {
    const declarer = SEATS[r];
    it(`3NT by ${declarer}: ${SEATS[(r + 1) % 4]} leads, every card from the hand that holds it`, () => {
      const { records, errors } = parseLin(rotatedSample(r));
      expect(errors).toEqual([]);
      const rec = records[0];
      expect(rec.contract).toBe(`3NT${declarer}`);
      expect(rec.declarer).toBe(declarer);
      expect(rec.plays[0]).toEqual({ seat: SEATS[(r + 1) % 4], card: 'H4' });
      expect(playProblems(rec)).toEqual([]);
      expect(rec.result).toBe(6);
    });
  }

  it('a result line "3NW-1" names West too', () => {
    const { records, errors } = parseLin('rs|3NW-1|qx|o1|');
    expect(errors).toEqual([]);
    expect(records[0].contract).toBe('3NTW');
    expect(records[0].declarer).toBe('W');
    expect(records[0].result).toBe(8);
  });

  it('an auction of four passes is a passed-out board', () => {
    const passed = SAMPLE.replace(/\|mb\|.*$/, '|mb|p|mb|p|mb|p|mb|p|');
    const { records, errors } = parseLin(passed);
    expect(errors).toEqual([]);
    expect(records[0].passedOut).toBe(true);
    expect(records[0].contract).toBeUndefined();
  });
});

describe('what a LIN error quotes of the input', () => {
  it('a bad call is cut and its control bytes escaped', () => {
    const { errors } = parseLin(`md|1SAKQJHAKQDAKQCAKQ,,,|mb|\u001b]0;${'y'.repeat(5000)}|`);
    const message = errors.find((e) => e.message.startsWith('mb'))?.message ?? '';
    expect(message).toMatch(/^mb "\\x1b\]0;y+…" is not a call/);
    expect(message.length).toBeLessThan(120);
  });
});
