// Hand-scored tables (issue 17): a table without readers takes part in the session as a Bridgemate table does. Its
// players enter each result on the terminal the director serves (board, contract and declarer or the whist tricks,
// the opening lead), the opponents accept it, and it reaches the director as a `table-result` decision on the
// exactly-once path. The result is scored like any other and marked hand-scored: its cards were not verified.
import { createHmac, randomBytes } from 'node:crypto';
import { formatContract, parseContract } from '../../cards/contract.js';
import { tryParseCard, formatCard } from '../../cards/card.js';
import { getVariant } from '../../laws/variants.js';
import type { Traveller } from '../types.js';
import { type ScheduledPlay, type TravellerPlace, travellerBase } from './fold.js';

/** A hand-scored result: bridge `contract` ("4HE", "3NTSX", "PASS") and the declarer's `tricks`; whist the tricks per side. */
export interface TableResultParams {
  table: string;
  board: number;
  /** The round the board was played in, where the table plays it in two rounds (a Howell of few pairs). */
  round?: number;
  contract?: string;
  tricks?: number | { NS: number; EW: number };
  /** The opening lead, e.g. "SK": what a Bridgemate asks for, and what the traveller prints. */
  lead?: string;
  reason?: string;
}

/**
 * Hand-scored results have no journal events: their stored range starts at this seq, and ends at their revision
 * counted down (-1, then -2 for a correction, ...), so that an instance reading the store sees a correction as a change.
 */
export const HAND_SCORED_SEQ = -1;

/** The seq range of a hand-scored result that replaces `prev` (the result stored for that board, table and round). */
export function handScoredSeqs(prev: { fromSeq: number; toSeq: number } | undefined): { fromSeq: number; toSeq: number } {
  return { fromSeq: HAND_SCORED_SEQ, toSeq: prev?.fromSeq === HAND_SCORED_SEQ ? prev.toSeq - 1 : HAND_SCORED_SEQ };
}

/** Why a table-result cannot be taken, naming the field and the fix; null when it can. */
export function tableResultRefusal(p: TableResultParams, o: { variant: string; handScored: boolean; plays: ScheduledPlay | undefined }): string | null {
  if (!o.handScored) return `table: table ${p.table} is a smart table, whose results come from its cards; make it hand-scored in the director's set-up (handScored) or adjust the score`;
  if (!o.plays) return `board: table ${p.table} does not play tray ${p.board}${p.round !== undefined ? ` in round ${p.round}` : ''} in this schedule`;
  const bridge = getVariant(o.variant).trump === 'contract';
  if (p.lead !== undefined && !tryParseCard(p.lead).ok) return `lead: "${p.lead}" is not a card; give it as suit and rank, e.g. "SK" or "H10"`;
  if (bridge) {
    if (p.contract === undefined) return 'contract: is missing; give level, strain and declarer with X or XX, e.g. "4HE", or "PASS"';
    if (/^pass$/i.test(p.contract)) return p.tricks === undefined || p.tricks === 0 ? null : 'tricks: a passed-out board has no tricks; leave tricks out';
    const c = parseContract(p.contract);
    if (!c.ok) return `contract: "${p.contract}" is not a contract; give level, strain and declarer with X or XX, e.g. "4HE" or "3NTSX"`;
    if (typeof p.tricks !== 'number') return 'tricks: give the tricks declarer took, 0 to 13';
    return null;
  }
  if (p.contract !== undefined) return `contract: ${o.variant} has no contract; give the tricks of each side, e.g. {"NS": 7, "EW": 6}`;
  if (typeof p.tricks !== 'object' || p.tricks.NS + p.tricks.EW !== 13) return 'tricks: give the tricks of each side, adding up to 13, e.g. {"NS": 7, "EW": 6}';
  return null;
}

/** The traveller line of a hand-scored result, placed by the schedule like a played one and marked hand-scored. */
export function handScoredTraveller(p: TableResultParams, o: TravellerPlace & { variant: string }): Traveller {
  const t = travellerBase(p.board, o);
  if (getVariant(o.variant).trump === 'contract') {
    const c = p.contract === undefined || /^pass$/i.test(p.contract) ? null : parseContract(p.contract);
    if (c?.ok) {
      t.contract = formatContract(c.value);
      t.tricks = p.tricks as number;
    } else {
      t.contract = 'PASS';
    }
  } else {
    const k = p.tricks as { NS: number; EW: number };
    t.tricks = { NS: k.NS, EW: k.EW };
  }
  const lead = p.lead === undefined ? null : tryParseCard(p.lead);
  if (lead?.ok) t.lead = formatCard(lead.value);
  t.handScored = true;
  return t;
}

/** Each table's PIN for this session: four digits from the director's secret, the same after a restart. */
export function tablePin(secret: string, session: string, table: string): string {
  const h = createHmac('sha256', secret).update(`${session}\n${table}`).digest();
  return String(h.readUInt32BE(0) % 10_000).padStart(4, '0');
}

/** A new secret for the table PINs. */
export function newPinSecret(): string {
  return randomBytes(32).toString('hex');
}
