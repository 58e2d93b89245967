// The duplicate contract score of one bridge result (WBF Laws 2017, Law 77) and the board's dealer and
// vulnerability from its number (Law 2). Pure functions: the traveller, the table side and the tray import use them.
import type { Seat } from '../../cards/seat.js';
import { SEATS } from '../../cards/seat.js';
import { parseContract } from '../../cards/contract.js';

/** Vulnerability as PBN's Vulnerable tag writes it. */
export type Vulnerability = 'None' | 'NS' | 'EW' | 'All';

// Law 2: the sixteen-board cycle of vulnerability; it repeats for boards 17-32 and so on.
const VULNERABILITY_CYCLE: readonly Vulnerability[] = [
  'None', 'NS', 'EW', 'All', 'NS', 'EW', 'All', 'None', 'EW', 'All', 'None', 'NS', 'All', 'None', 'NS', 'EW',
];

function checkBoard(board: number): void {
  if (!Number.isInteger(board) || board < 1) throw new Error(`board ${JSON.stringify(board)} must be a whole number 1 or more`);
}

/** The vulnerability of a board by its number (Law 2: "None" for 1, "NS" for 2, "EW" for 3, "All" for 4, ...). */
export function boardVulnerability(board: number): Vulnerability {
  checkBoard(board);
  return VULNERABILITY_CYCLE[(board - 1) % 16];
}

/** The dealer of a board by its number (Law 2: N deals 1, 5, 9, 13; E 2, 6, ...; S 3, 7, ...; W 4, 8, ...). */
export function boardDealer(board: number): Seat {
  checkBoard(board);
  return SEATS[(board - 1) % 4];
}

/** True when the side of `seat` is vulnerable under `vul`. */
export function isVulnerable(vul: Vulnerability, seat: Seat): boolean {
  if (vul === 'All') return true;
  if (vul === 'None') return false;
  return vul.includes(seat);
}

/** A passed-out board: "PASS" (also "P", "AP", "PASSED", "ALL PASS" in any case, as results programs write it). */
export function isPassedOut(contract: string): boolean {
  return /^\s*(pass(ed)?( ?out)?|p|ap|all ?pass)\s*$/i.test(contract);
}

/**
 * The Law 77 score of a contract for the declaring side (positive when made, negative when set).
 * `level` 1-7, `strain` -1 for no trump, 0..3 for S H D C, `doubled` 0/1/2, `tricks` the declarer's tricks 0-13.
 */
export function contractScore(level: number, strain: number, doubled: 0 | 1 | 2, vulnerable: boolean, tricks: number): number {
  if (!Number.isInteger(tricks) || tricks < 0 || tricks > 13) throw new Error(`tricks ${JSON.stringify(tricks)} must be the declarer's tricks, 0 to 13`);
  const needed = level + 6;
  const mult = doubled === 2 ? 4 : doubled === 1 ? 2 : 1;
  if (tricks < needed) {
    const down = needed - tricks;
    if (doubled === 0) return -down * (vulnerable ? 100 : 50);
    // Law 77, undertricks doubled: not vulnerable 100, then 200 each for the 2nd and 3rd, then 300 each;
    // vulnerable 200, then 300 each. Redoubled is twice doubled.
    let pen = 0;
    for (let k = 1; k <= down; k++) pen += vulnerable ? (k === 1 ? 200 : 300) : k === 1 ? 100 : k <= 3 ? 200 : 300;
    return -pen * (doubled === 2 ? 2 : 1);
  }
  // Contract trick score: minors 20, majors 30, no trump 40 for the first trick and 30 for the others.
  const perTrick = strain < 0 ? 30 : strain <= 1 ? 30 : 20;
  const contractPoints = (level * perTrick + (strain < 0 ? 10 : 0)) * mult;
  let score = contractPoints;
  // Premiums: game (100 or more trick points) 300 / 500 vulnerable, else a part-score 50.
  score += contractPoints >= 100 ? (vulnerable ? 500 : 300) : 50;
  if (level === 6) score += vulnerable ? 750 : 500;
  if (level === 7) score += vulnerable ? 1500 : 1000;
  // Making a doubled or redoubled contract: 50 / 100 ("for the insult").
  if (doubled === 1) score += 50;
  if (doubled === 2) score += 100;
  const over = tricks - needed;
  if (over > 0) {
    // Overtricks: trick value undoubled; doubled 100 / 200 vulnerable each; redoubled 200 / 400.
    const each = doubled === 0 ? perTrick : (vulnerable ? 200 : 100) * (doubled === 2 ? 2 : 1);
    score += over * each;
  }
  return score;
}

/**
 * The duplicate score of a traveller line from N-S's point of view: "4HE" with 11 tricks on board 3 (E-W
 * vulnerable) is -650. "PASS" scores 0. Throws a sentence naming the field when the contract or tricks are wrong.
 */
export function bridgeScore(board: number, contract: string, tricks: number | undefined): number {
  if (isPassedOut(contract)) return 0;
  const parsed = parseContract(contract);
  if (!parsed.ok) throw new Error(`contract: ${parsed.error}, or "PASS"`);
  const c = parsed.value;
  if (typeof tricks !== 'number') throw new Error(`tricks: give the declarer's tricks (0 to 13) for contract "${contract}"`);
  const declarer = SEATS[c.declarer];
  const s = contractScore(c.level, c.strain, c.doubled, isVulnerable(boardVulnerability(board), declarer), tricks);
  return declarer === 'N' || declarer === 'S' ? s : -s;
}
