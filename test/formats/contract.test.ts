// One reader of contract text for the table log, PBN and LIN: the N of "NT" is never taken for North.
import { describe, expect, it } from 'vitest';
import { parseContract, parseContractText } from '../../src/cards/contract.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { parseCompactContract } from '../../src/formats/record.js';

describe('parseContract', () => {
  it('reads the declarer after NT, for each seat', () => {
    expect(['3NTN', '3NTE', '3NTS', '3NTW'].map((c) => parseContract(c))).toEqual([0, 1, 2, 3].map((declarer) => ({
      ok: true, value: { level: 3, strain: -1, declarer, doubled: 0 },
    })));
    expect(parseCompactContract('1NTW')?.declarer).toBe('W');
    expect(parseCompactContract('2NN')).toEqual({ level: 2, strain: 'NT', declarer: 'N', risk: '' });
  });

  it('a contract without its declarer is one for PBN\'s Contract tag, and not one for the table log', () => {
    expect(parseContractText('3NTXX')).toEqual({ ok: true, value: { level: 3, strain: -1, doubled: 2 } });
    expect(parseContract('3NT')).toMatchObject({ ok: false, error: expect.stringContaining('names no declarer') });
    expect(parseContract('3NTQ').ok).toBe(false);
    // The table log is written by programs: its contracts have no spaces inside, so the feed never shows "4 H E".
    expect(parseContract('4 H E').ok).toBe(false);
  });
});

describe('PBN Contract tag through the same reader', () => {
  const game = (declarer: string, contract: string) => `[Board "1"]\n${declarer ? `[Declarer "${declarer}"]\n` : ''}[Contract "${contract}"]\n`;

  it('with the Declarer tag: "3NT" by W is 3NTW, and "3 NT X" (PBN import format) is 3NTWX', () => {
    expect(parsePbn(game('W', '3NT')).records[0].contract).toBe('3NTW');
    expect(parsePbn(game('W', '3 NT X')).records[0].contract).toBe('3NTWX');
  });

  it('import leniency: "3NTE" names East itself, and a Declarer tag that disagrees is named as the problem', () => {
    expect(parsePbn(game('', '3NTE')).records[0]).toMatchObject({ contract: '3NTE', declarer: 'E' });
    const clash = parsePbn(game('S', '3NTE'));
    expect(clash.errors).toEqual([{ line: 3, message: 'Contract "3NTE" names declarer E, but the Declarer tag says S' }]);
  });

  it('"Pass", or an auction of passes only, is a passed-out board', () => {
    expect(parsePbn(game('', 'Pass')).records[0].passedOut).toBe(true);
    const auction = parsePbn('[Board "99"]\n[Dealer "S"]\n[Contract ""]\n[Auction "S"]\nPASS PASS PASS PASS\n').records[0];
    expect(auction.passedOut).toBe(true);
    expect(parsePbn('[Board "9"]\n[Auction "S"]\nPass Pass Pass\n').records[0].passedOut).toBeUndefined();
    expect(parsePbn('[Board "9"]\n[Auction "S"]\nAP\n').records[0].passedOut).toBe(true);
  });
});
