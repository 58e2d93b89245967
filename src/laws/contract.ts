// Bridge contracts in the table-log form "4HE", "3NTSX", "7CWXX" (level, strain, declarer, doubles).
import { type Parsed, SUIT_LETTERS, suitIndex } from '../cards/card.js';
import { SEATS, seatIndex } from '../cards/seat.js';

export interface Contract {
  level: number;
  /** Suit index 0..3 (S H D C), or -1 for no trump. */
  strain: number;
  declarer: number;
  doubled: 0 | 1 | 2;
}

const parsedContracts = new Map<string, Parsed<Contract>>();

/** Parse a contract such as "4HE" or "3NTSX"; returns a reason when the text is not a contract. */
export function parseContract(text: string): Parsed<Contract> {
  let r = parsedContracts.get(text);
  if (!r) {
    r = parseContractText(text);
    // Only a few hundred contracts exist; memoising keeps replaying a session cheap.
    if (parsedContracts.size < 4096) parsedContracts.set(text, r);
  }
  return r;
}

function parseContractText(text: string): Parsed<Contract> {
  const m = /^([1-7])(NT|N|[SHDC♠♥♦♣])([NESW])(XX|X)?$/i.exec(text.trim());
  if (!m) return { ok: false, error: `contract "${text}" must be level 1-7, strain S H D C or NT, declarer N E S W, then X or XX, e.g. "4HE"` };
  const st = m[2].toUpperCase();
  const strain = st === 'NT' || st === 'N' ? -1 : suitIndex(st);
  const doubled = m[4] ? (m[4].length as 1 | 2) : 0;
  return { ok: true, value: { level: Number(m[1]), strain, declarer: seatIndex(m[3].toUpperCase()), doubled } };
}

/** Table-log form of a contract: "4HE", "3NTSX", "7CWXX". */
export function formatContract(c: Contract): string {
  return `${c.level}${c.strain < 0 ? 'NT' : SUIT_LETTERS[c.strain]}${SEATS[c.declarer]}${c.doubled === 2 ? 'XX' : c.doubled === 1 ? 'X' : ''}`;
}
