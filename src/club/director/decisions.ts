// Director decisions on `<base>/<club>/club/<session>/request/<cmd>` (docs/club.md): one JSON schema per command,
// checked with ajv; every refusal is one sentence "<field>: <problem>; <fix>", as the table's commands do
// (src/feed/commands.ts). A decision is journaled with its transaction id and the digest of its body, so a retry is
// answered from the journal and never applied twice.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import { parseDeal } from '../../cards/deal.js';
import type { Seat } from '../../cards/seat.js';
import { canonicalJson } from '../../formats/canonical-json.js';
import type { Traveller } from '../types.js';
import type { TableResultParams } from './hand-scored.js';

export type { TableResultParams };

export const DECISIONS = ['adjust-score', 'fouled-board', 'late-play', 'correct-tray', 'advance-round', 'table-result', 'result-stands'] as const;
export type DecisionName = (typeof DECISIONS)[number];

export interface AdjustScoreParams { board: number; table: string; adjusted: NonNullable<Traveller['adjusted']>; reason?: string }
/** Law 87B: the tables that played the same version of a fouled board, one list per version. */
export interface FouledBoardParams { board: number; groups: string[][]; reason?: string }
export interface LatePlayParams { board: number; table: string; reason?: string }
export interface CorrectTrayParams { board: number; hands: string; dealer?: Seat; trumpCard?: string; reason: string }
/** Advance one table (or, without `table`, every table) to its next round. */
export interface AdvanceRoundParams { table?: string; reason?: string }
/** The director has looked at the findings of a tray at a table and lets the result stand as the engine scored it. */
export interface ResultStandsParams { board: number; table: string; reason?: string }

export type Decision =
  | { name: 'adjust-score'; transaction: string | number; params: AdjustScoreParams }
  | { name: 'fouled-board'; transaction: string | number; params: FouledBoardParams }
  | { name: 'late-play'; transaction: string | number; params: LatePlayParams }
  | { name: 'correct-tray'; transaction: string | number; params: CorrectTrayParams }
  | { name: 'advance-round'; transaction: string | number; params: AdvanceRoundParams }
  | { name: 'table-result'; transaction: string | number; params: TableResultParams }
  | { name: 'result-stands'; transaction: string | number; params: ResultStandsParams };

/** The answer to a decision, on `response/<cmd>` or to the page that took it. */
export type DecisionResponse = { transaction: string | number | null; ok: boolean; error?: string } & Record<string, unknown>;

export type DecisionCheck = { ok: true; decision: Decision } | { ok: false; transaction: string | number | null; error: string };

const transaction = { type: ['string', 'integer'], minLength: 1, maxLength: 128 };
const board = { type: 'integer', minimum: 0, maximum: 9999 };
const table = { type: 'string', minLength: 1, maxLength: 64 };
const reason = { type: 'string', maxLength: 200 };

const SCHEMAS: Record<DecisionName, object> = {
  'adjust-score': {
    type: 'object', additionalProperties: false, required: ['transaction', 'board', 'table', 'adjusted'],
    properties: {
      transaction, board, table, reason,
      adjusted: {
        anyOf: [
          { type: 'string', enum: ['average', 'average-plus', 'average-minus'] },
          { type: 'object', additionalProperties: false, required: ['NS', 'EW'], properties: { NS: { type: 'number' }, EW: { type: 'number' } } },
        ],
      },
    },
  },
  'fouled-board': {
    type: 'object', additionalProperties: false, required: ['transaction', 'board', 'groups'],
    properties: { transaction, board, reason, groups: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'array', minItems: 1, items: table } } },
  },
  'late-play': { type: 'object', additionalProperties: false, required: ['transaction', 'board', 'table'], properties: { transaction, board, table, reason } },
  'correct-tray': {
    type: 'object', additionalProperties: false, required: ['transaction', 'board', 'hands', 'reason'],
    properties: {
      transaction, board, reason: { type: 'string', minLength: 1, maxLength: 200 }, hands: { type: 'string', minLength: 3, maxLength: 200 },
      dealer: { type: 'string', enum: ['N', 'E', 'S', 'W'] }, trumpCard: { type: 'string', minLength: 2, maxLength: 3 },
    },
  },
  'advance-round': { type: 'object', additionalProperties: false, required: ['transaction'], properties: { transaction, table, reason } },
  'table-result': {
    type: 'object', additionalProperties: false, required: ['transaction', 'board', 'table'],
    properties: {
      transaction, board, table, reason, round: { type: 'integer', minimum: 1, maximum: 999 },
      contract: { type: 'string', minLength: 3, maxLength: 8 }, lead: { type: 'string', minLength: 2, maxLength: 3 },
      tricks: {
        anyOf: [
          { type: 'integer', minimum: 0, maximum: 13 },
          { type: 'object', additionalProperties: false, required: ['NS', 'EW'], properties: { NS: { type: 'integer', minimum: 0, maximum: 13 }, EW: { type: 'integer', minimum: 0, maximum: 13 } } },
        ],
      },
    },
  },
  'result-stands': { type: 'object', additionalProperties: false, required: ['transaction', 'board', 'table'], properties: { transaction, board, table, reason } },
};

const FIX: Record<string, string> = {
  transaction: 'give a transaction id (1-128 characters or an integer) to match the response',
  board: 'give the board number, an integer 0 or more',
  table: 'give the table id as the schedule names it, e.g. "3"',
  adjusted: 'give "average", "average-plus", "average-minus" or percentages such as {"NS": 60, "EW": 40}',
  groups: 'list the tables of each version of the board, e.g. [["1","2","3"],["4","5"]]',
  hands: 'give the PBN deal, e.g. "N:AKQ.JT9.876.5432 ..." (suits S.H.D.C)',
  dealer: 'use one of N, E, S, W',
  trumpCard: 'give the turned trump card, e.g. "H5"',
  reason: 'give a short sentence of at most 200 characters',
  round: 'give the round number, 1 or more',
  contract: 'give level, strain and declarer with X or XX, e.g. "4HE", or "PASS"',
  lead: 'give the opening lead as suit and rank, e.g. "SK"',
  tricks: 'bridge: the tricks declarer took, 0-13; whist: the tricks of each side, e.g. {"NS": 7, "EW": 6}',
};

let compiled: Map<DecisionName, ValidateFunction> | null = null;

function validators(): Map<DecisionName, ValidateFunction> {
  if (compiled) return compiled;
  // ajv is loaded at the first decision, not at start: most sessions take none, and an idle director need not hold it.
  const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass };
  const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true });
  compiled = new Map(DECISIONS.map((d) => [d, ajv.compile(SCHEMAS[d])]));
  return compiled;
}

/** True when the string names a decision. */
export function isDecisionName(s: string): s is DecisionName {
  return (DECISIONS as readonly string[]).includes(s);
}

/** Check a decision's raw payload for the command named by the topic. */
export function checkDecision(cmd: string, payload: Uint8Array | string): DecisionCheck {
  const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  if (text.length > 16 * 1024) return { ok: false, transaction: null, error: 'payload: is too large; send at most 16 KiB' };
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    return { ok: false, transaction: null, error: `payload: is not valid JSON (${(e as Error).message}); send a JSON object with a "transaction" id` };
  }
  const o = typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? obj as Record<string, unknown> : null;
  const t = o?.transaction;
  const tx = (typeof t === 'string' && t.length > 0 && t.length <= 128) || (typeof t === 'number' && Number.isInteger(t)) ? t : null;
  if (!isDecisionName(cmd)) return { ok: false, transaction: tx, error: `command: "${cmd}" is not a director decision; use one of ${DECISIONS.join(', ')}` };
  if (!o) return { ok: false, transaction: tx, error: 'payload: must be a JSON object; send e.g. {"transaction":"t1", ...}' };
  const validate = validators().get(cmd)!;
  if (!validate(o)) {
    const e = validate.errors![0];
    const segs = e.instancePath.split('/').slice(1);
    if (e.keyword === 'required') segs.push(String((e.params as { missingProperty: string }).missingProperty));
    if (e.keyword === 'additionalProperties') segs.push(String((e.params as { additionalProperty: string }).additionalProperty));
    const field = segs.find((s) => !/^\d+$/.test(s) && FIX[s] !== undefined) ?? segs[0] ?? 'payload';
    const what = e.keyword === 'required' ? 'is missing' : e.keyword === 'additionalProperties' ? `is not a field of ${cmd}; remove it` : (e.message ?? 'is not valid');
    return { ok: false, transaction: tx, error: `${segs.join('.') || 'payload'}: ${what}; ${FIX[field] ?? 'see docs/club.md'}` };
  }
  const params = { ...o };
  delete params.transaction;
  if (cmd === 'correct-tray') {
    try {
      parseDeal(params.hands as string);
    } catch (e) {
      return { ok: false, transaction: tx, error: `hands: ${(e as Error).message}; ${FIX.hands}` };
    }
  }
  return { ok: true, decision: { name: cmd, transaction: tx!, params } as Decision };
}

/** SHA-256 of a decision's name and canonical body: a retry has the same, a reused transaction id another. */
export function decisionDigest(d: Decision): string {
  return createHash('sha256').update(`${d.name}\n${canonicalJson(d.params)}`).digest('hex');
}

/** The stored key of a transaction id: a number and its digits are different ids. */
export function transactionKey(t: string | number): string {
  return typeof t === 'number' ? `#${t}` : `s:${t}`;
}
