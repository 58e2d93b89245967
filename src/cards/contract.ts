// Bridge contracts in the table-log form "4HE", "3NTSX", "7CWXX" (level, strain, declarer, doubles). This is the one
// reader of contract text: the table log, PBN's Contract tag (no declarer) and LIN's results all come through it.
import { type Parsed, SUIT_LETTERS, suitIndex } from './card.js';
import { SEATS, seatIndex } from './seat.js';

export interface Contract {
  level: number;
  /** Suit index 0..3 (S H D C), or -1 for no trump. */
  strain: number;
  declarer: number;
  doubled: 0 | 1 | 2;
}

/** A contract as written, where the declarer may be left to another field (PBN's Declarer tag). */
export type ContractText = Omit<Contract, 'declarer'> & { declarer?: number };

// "NT" is tried before "N", and the declarer comes after the strain: the N of "3NTW" is never taken for North.
// The suit symbols ♠♥♦♣ as \u escapes: see src/feed/privacy.ts.
const CONTRACT = /^([1-7])(NT|N|[SHDC\u2660\u2665\u2666\u2663])([NESW])?(XX|X)?$/i;

const parsedContracts = new Map<string, Parsed<ContractText>>();

/** Parse "4HE", "3NTSX", or a contract without its declarer ("3NT", "4HX"); returns a reason when it is none. */
export function parseContractText(text: string): Parsed<ContractText> {
  let r = parsedContracts.get(text);
  if (!r) {
    r = readContract(text);
    // Only a few hundred contracts exist; memoising keeps replaying a session cheap.
    if (parsedContracts.size < 4096) parsedContracts.set(text, r);
  }
  return r;
}

/** Parse a contract with its declarer, such as "4HE" or "3NTSX"; returns a reason when the text is not one. */
export function parseContract(text: string): Parsed<Contract> {
  const r = parseContractText(text);
  if (!r.ok) return r;
  if (r.value.declarer === undefined) return { ok: false, error: `contract "${text}" names no declarer: add N, E, S or W after the strain, e.g. "3NTW"` };
  return r as Parsed<Contract>;
}

function readContract(text: string): Parsed<ContractText> {
  const m = CONTRACT.exec(text.trim());
  // JSON quoting escapes control characters: the reason may be printed as a note of the deal.
  if (!m) return { ok: false, error: `contract ${JSON.stringify(text.slice(0, 40))} must be level 1-7, strain S H D C or NT, declarer N E S W, then X or XX, e.g. "4HE"` };
  const st = m[2].toUpperCase();
  const value: ContractText = {
    level: Number(m[1]),
    strain: st === 'NT' || st === 'N' ? -1 : suitIndex(st),
    doubled: m[4] ? (m[4].length as 1 | 2) : 0,
  };
  if (m[3]) value.declarer = seatIndex(m[3].toUpperCase());
  return { ok: true, value };
}

/** Table-log form of a contract: "4HE", "3NTSX", "7CWXX". */
export function formatContract(c: Contract): string {
  return `${c.level}${c.strain < 0 ? 'NT' : SUIT_LETTERS[c.strain]}${SEATS[c.declarer]}${c.doubled === 2 ? 'XX' : c.doubled === 1 ? 'X' : ''}`;
}
