// Commands on `request/<cmd>` (DESIGN §6): one JSON schema per command, checked with ajv, then the checks a schema
// cannot express (card and deal notation, contracts). Every refusal is one sentence "<field>: <problem>; <fix>", so
// whoever sent the command can act on it, and nothing is applied.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { formatCard, tryParseCard } from '../cards/card.js';
import { parseDeal } from '../cards/deal.js';
import type { Seat } from '../cards/seat.js';
import { canonicalJson } from '../formats/canonical-json.js';
import type { CommandTx, DealEvent, RemedyName, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../cards/contract.js';
import { variantNames } from '../laws/variants.js';
import { COMMANDS, type CommandName, isCommandName } from './topics.js';
import * as precompiled from './command-validators.generated.js';

/** A transaction id: echoed in the response so the sender can match it. */
export type Transaction = string | number;

/** The deal event's fields (DESIGN §4), the board number required. */
export type StartDealParams = Omit<DealEvent, 'type' | 'seq' | 'at' | 'board'> & { board: number };
export interface AbandonDealParams { board?: number; reason?: string }
export interface SetContractParams { contract: string }
export interface RemedyParams { by: Seat; remedy: RemedyName; seat?: Seat; suit?: string; card?: string; points?: 'add' | 'deduct' }
export interface ClaimParams { seat: Seat; tricks: number }
/** Undo a physical misread: journaled as a new event that cancels event `seq`; nothing is erased. */
export interface UndoMisreadParams { seq: number; reason?: string }
/** An honours call (English Law 7: honours "must be called"): `count` honours held by the caller's side, or the `cards`. */
export interface HonoursParams { seat: Seat; count?: number; cards?: string[] }

/** An adversary of the claimant accepts or disputes the standing claim (Am. 27; WBF L68-69). */
export interface AnswerClaimParams { seat: Seat; accept: boolean; reason?: string }
/** A player of the other side accepts the result shown at the table. */
export interface AcceptResultParams { seat: Seat; board?: number }
/** The director is called to the table, with the reason a player picked. */
export interface CallDirectorParams { reason: string; seat?: Seat }

/** The players' names for a round, entered at the table (each 1-60 characters; an empty one clears it). */
export interface SetPlayersParams { round: number; names: Partial<Record<Seat, string>> }

/** A validated command, ready for the handler. */
export type FeedCommand =
  | { name: 'start-deal'; transaction: Transaction; params: StartDealParams }
  | { name: 'abandon-deal'; transaction: Transaction; params: AbandonDealParams }
  | { name: 'set-contract'; transaction: Transaction; params: SetContractParams }
  | { name: 'remedy'; transaction: Transaction; params: RemedyParams }
  | { name: 'claim'; transaction: Transaction; params: ClaimParams }
  | { name: 'undo-misread'; transaction: Transaction; params: UndoMisreadParams }
  | { name: 'honours'; transaction: Transaction; params: HonoursParams }
  | { name: 'answer-claim'; transaction: Transaction; params: AnswerClaimParams }
  | { name: 'accept-result'; transaction: Transaction; params: AcceptResultParams }
  | { name: 'call-director'; transaction: Transaction; params: CallDirectorParams }
  | { name: 'set-players'; transaction: Transaction; params: SetPlayersParams };

export type CommandCheck =
  | { ok: true; command: FeedCommand }
  | { ok: false; transaction: Transaction | null; error: string };

const SEATS = ['N', 'E', 'S', 'W'];
const SUITS = ['S', 'H', 'D', 'C'];
const REMEDIES: RemedyName[] = ['call-suit', 'call-card', 'highest', 'lowest', 'trump', 'not-trump', 'win', 'accept', 'retract', 'waive', 'tricks', 'points'];
const VULNERABLE = ['None', 'NS', 'EW', 'All', 'Both', 'Love', '-'];

/** What to do about each field, quoted in error sentences. */
const FIX: Record<string, string> = {
  transaction: 'give a transaction id (a string of 1-128 characters or an integer) to match the response',
  board: 'give the board number, an integer 0 or more, e.g. 7',
  variant: `use one of ${variantNames().join(', ')}`,
  dealer: 'use one of N, E, S, W',
  seat: 'use one of N, E, S, W',
  by: 'use one of N, E, S, W (the player entitled to the remedy)',
  hands: 'give the PBN deal of the tray record, e.g. "N:AKQ.JT9.876.5432 ..." (suits S.H.D.C)',
  trumpSlip: 'give the card on the trump slip, e.g. "H5"',
  trump: 'use one of S, H, D, C',
  suit: 'use one of S, H, D, C',
  card: 'give a card, suit then rank, e.g. "SA" or "HT"',
  contract: 'give level, strain, declarer and X or XX, e.g. "4HE" or "3NTSX"',
  vulnerable: `use one of ${VULNERABLE.join(', ')}`,
  dummy: 'give a seat or a list of seats (N, E, S, W)',
  seats: 'list two to four different seats, e.g. ["N","S"]',
  tables: 'give the number of tables in play, an integer 1 or more',
  overplay: 'use true or false',
  remedy: `use one of ${REMEDIES.join(', ')}`,
  tricks: 'give the number of tricks claimed, an integer 0-13',
  seq: 'give the seq of the misread event, an integer 0 or more',
  reason: 'give a short text of at most 200 characters',
  points: 'use "add" (three points added to the adversaries\' score) or "deduct" (three taken from the revoking side\'s), with "remedy": "points"',
  count: 'give the number of trump honours (A, K, Q, J) the caller\'s side held: 2, 3 or 4',
  round: 'give the round number, an integer 1 or more',
  names: 'give the names by seat, e.g. {"N":"Ann Lee","S":"Bob Lee"}, each at most 60 characters',
  N: 'give a name of at most 60 characters', E: 'give a name of at most 60 characters', S: 'give a name of at most 60 characters', W: 'give a name of at most 60 characters',
  accept: 'use true (the claim is accepted) or false (it is disputed and the director called)',
  cards: 'list the 2 to 4 trump honours the caller\'s side held, e.g. ["HA","HK","HQ"]',
};

const seat = { type: 'string', enum: SEATS };
const transaction = { type: ['string', 'integer'], minLength: 1, maxLength: 128 };
const reason = { type: 'string', maxLength: 200 };
const cardText = { type: 'string', minLength: 2, maxLength: 4 };

/** The JSON schema of each command's payload (`transaction` included). */
export const COMMAND_SCHEMAS: Record<CommandName, object> = {
  'start-deal': {
    type: 'object', additionalProperties: false, required: ['transaction', 'board'],
    properties: {
      transaction, board: { type: 'integer', minimum: 0, maximum: 9999 }, variant: { type: 'string', enum: variantNames() },
      dealer: seat, hands: { type: 'string', minLength: 3, maxLength: 200 }, trumpSlip: cardText, trump: { type: 'string', enum: SUITS },
      contract: { type: 'string', minLength: 3, maxLength: 8 }, vulnerable: { type: 'string', enum: VULNERABLE },
      dummy: { anyOf: [seat, { type: 'array', items: seat, minItems: 1, maxItems: 3, uniqueItems: true }] },
      seats: { type: 'array', items: seat, minItems: 2, maxItems: 4, uniqueItems: true },
      tables: { type: 'integer', minimum: 1, maximum: 1000 }, overplay: { type: 'boolean' },
    },
  },
  'abandon-deal': {
    type: 'object', additionalProperties: false, required: ['transaction'],
    properties: { transaction, board: { type: 'integer', minimum: 0, maximum: 9999 }, reason },
  },
  'set-contract': {
    type: 'object', additionalProperties: false, required: ['transaction', 'contract'],
    properties: { transaction, contract: { type: 'string', minLength: 3, maxLength: 8 } },
  },
  remedy: {
    type: 'object', additionalProperties: false, required: ['transaction', 'by', 'remedy'],
    properties: {
      transaction, by: seat, remedy: { type: 'string', enum: REMEDIES }, seat, suit: { type: 'string', enum: SUITS }, card: cardText,
      points: { type: 'string', enum: ['add', 'deduct'] },
    },
    allOf: [
      { if: { properties: { remedy: { const: 'call-suit' } }, required: ['remedy'] }, then: { required: ['suit'] } },
      { if: { properties: { remedy: { const: 'call-card' } }, required: ['remedy'] }, then: { required: ['card'] } },
    ],
  },
  claim: {
    type: 'object', additionalProperties: false, required: ['transaction', 'seat', 'tricks'],
    properties: { transaction, seat, tricks: { type: 'integer', minimum: 0, maximum: 13 } },
  },
  'undo-misread': {
    type: 'object', additionalProperties: false, required: ['transaction', 'seq'],
    properties: { transaction, seq: { type: 'integer', minimum: 0 }, reason },
  },
  'answer-claim': {
    type: 'object', additionalProperties: false, required: ['transaction', 'seat', 'accept'],
    properties: { transaction, seat, accept: { type: 'boolean' }, reason },
  },
  'accept-result': {
    type: 'object', additionalProperties: false, required: ['transaction', 'seat'],
    properties: { transaction, seat, board: { type: 'integer', minimum: 0, maximum: 9999 } },
  },
  'call-director': {
    type: 'object', additionalProperties: false, required: ['transaction', 'reason'],
    properties: { transaction, reason: { type: 'string', minLength: 1, maxLength: 200 }, seat },
  },
  'set-players': {
    type: 'object', additionalProperties: false, required: ['transaction', 'round', 'names'],
    properties: {
      transaction, round: { type: 'integer', minimum: 1, maximum: 999 },
      names: { type: 'object', additionalProperties: false, minProperties: 1, properties: Object.fromEntries(SEATS.map((s) => [s, { type: 'string', maxLength: 60 }])) },
    },
  },
  honours: {
    type: 'object', additionalProperties: false, required: ['transaction', 'seat'],
    properties: {
      transaction, seat, count: { type: 'integer', minimum: 2, maximum: 4 },
      cards: { type: 'array', items: cardText, minItems: 2, maxItems: 4, uniqueItems: true },
    },
  },
};

let compiled: Map<CommandName, ValidateFunction> | null = null;

/** The options the command validators are compiled with, ahead of time or at run time alike. */
export const COMMAND_AJV_OPTIONS = { allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true } as const;

/** A digest of the command and query schemas, to tell whether the generated validators were built from them. */
export function commandSchemasHash(): string {
  return createHash('sha256').update(JSON.stringify([COMMAND_SCHEMAS, EVENTS_QUERY_SCHEMA])).digest('hex').slice(0, 32);
}

/** The export name of a schema's validator in the generated module ('start-deal' → 'start_deal'). */
export function validatorExportName(name: CommandName | 'events'): string {
  return name === 'events' ? 'events_query' : name.replace(/-/g, '_');
}

let usePrecompiled: boolean | undefined;
/**
 * The validator of `name`: compiled ahead of time (./command-validators-source.ts) when built from these schemas,
 * else by ajv, loaded only then (it costs the daemon about 40 ms and 8 MB).
 */
function validatorOf(name: CommandName | 'events', schema: object, ajv: () => AjvClass): ValidateFunction {
  usePrecompiled ??= precompiled.SCHEMA_HASH === commandSchemasHash();
  const pre = usePrecompiled ? (precompiled as Record<string, unknown>)[validatorExportName(name)] : undefined;
  return typeof pre === 'function' ? pre as ValidateFunction : ajv().compile(schema);
}

function newAjv(): AjvClass {
  const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass };
  return new Ajv({ ...COMMAND_AJV_OPTIONS });
}

function validators(): Map<CommandName, ValidateFunction> {
  if (compiled) return compiled;
  // allErrors off: the first problem is the one reported, and a hostile payload cannot make us collect thousands.
  let ajv: AjvClass | undefined;
  compiled = new Map(COMMANDS.map((c) => [c, validatorOf(c, COMMAND_SCHEMAS[c], () => (ajv ??= newAjv()))]));
  return compiled;
}

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  return path.reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc ? `${acc}.${t}` : t), '');
}

function fixFor(field: string): string {
  const leaf = field.replace(/\[\d+\]$/, '').split('.').pop() ?? field;
  return FIX[leaf] ?? 'see the command schema';
}

/** One sentence for the first schema error: "<field>: <problem>; <fix>". */
export function describeSchemaError(cmd: CommandName, e: ErrorObject): string {
  const field = fieldOf(e) || 'payload';
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${field}: is missing; ${fixFor(field)}`;
    case 'additionalProperties': {
      const allowed = Object.keys((COMMAND_SCHEMAS[cmd] as { properties: object }).properties).join(', ');
      return `${field}: is not a field of ${cmd}; remove it (the fields are ${allowed})`;
    }
    case 'type': {
      const t = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      return `${field}: must be ${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}; ${fixFor(field)}`;
    }
    case 'enum':
    case 'const':
      return `${field}: is not allowed; ${fixFor(field)}`;
    case 'minimum': case 'maximum': case 'minLength': case 'maxLength': case 'minItems': case 'maxItems': case 'uniqueItems':
      return `${field}: ${e.message ?? 'is out of range'}; ${fixFor(field)}`;
    case 'anyOf':
      return `${field}: has the wrong shape; ${fixFor(field)}`;
    default:
      return `${field}: ${e.message ?? 'is not valid'}; ${fixFor(field)}`;
  }
}

function normaliseCard(field: string, v: string): { ok: true; card: string } | { ok: false; error: string } {
  const r = tryParseCard(v);
  return r.ok ? { ok: true, card: formatCard(r.value) } : { ok: false, error: `${field}: "${v}" is not a card; ${FIX.card}` };
}

function transactionOf(o: unknown): Transaction | null {
  if (typeof o !== 'object' || o === null) return null;
  const t = (o as { transaction?: unknown }).transaction;
  return (typeof t === 'string' && t.length > 0 && t.length <= 128) || (typeof t === 'number' && Number.isInteger(t)) ? t : null;
}

/**
 * What a schema cannot say about an honours call: one of `count` or `cards`, cards that are honours (A K Q J) of one
 * suit, and a count that agrees with them. Normalises the cards in place (canonical notation).
 */
function honoursProblem(o: Record<string, unknown>): string | null {
  if (o.count === undefined && o.cards === undefined) return `count: is missing (or cards); ${FIX.count}, or ${FIX.cards}`;
  if (Array.isArray(o.cards)) {
    const cards: string[] = [];
    for (const [i, text] of (o.cards as string[]).entries()) {
      const r = tryParseCard(text);
      if (!r.ok) return `cards[${i}]: "${text}" is not a card; ${FIX.card}`;
      if (r.value % 13 < 9) return `cards[${i}]: ${formatCard(r.value)} is not an honour (A, K, Q or J); ${FIX.cards}`;
      cards.push(formatCard(r.value));
    }
    if (new Set(cards.map((c) => c[0])).size > 1) return `cards: ${cards.join(' ')} are not all of one suit; ${FIX.cards} (honours are of the trump suit)`;
    if (new Set(cards).size < cards.length) return `cards: names a card twice; ${FIX.cards}`;
    if (o.count !== undefined && o.count !== cards.length) return `count: ${String(o.count)} does not match the ${cards.length} cards called; give one of them, or make them agree`;
    o.cards = cards;
  }
  return null;
}

/** Largest request payload accepted; a command is a few hundred bytes. */
export const MAX_COMMAND_BYTES = 16 * 1024;

/** A request payload of at most MAX_COMMAND_BYTES parsed as JSON, or the refusal; `fix` ends the not-JSON sentence. */
function parsePayload(payload: Uint8Array | string, fix: string): { ok: true; value: unknown } | { ok: false; transaction: null; error: string } {
  const size = typeof payload === 'string' ? payload.length : payload.byteLength;
  if (size > MAX_COMMAND_BYTES) return { ok: false, transaction: null, error: `payload: is ${size} bytes; send at most ${MAX_COMMAND_BYTES} bytes` };
  const text = typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: false }).decode(payload);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, transaction: null, error: `payload: is not valid JSON (${(err as Error).message}); ${fix}` };
  }
}

/**
 * Check a command payload (the raw MQTT payload) for the command named by the topic. On success the parameters are
 * normalised (cards in canonical notation) and typed; on failure the sentence names the field and the fix.
 */
export function checkCommand(cmd: string, payload: Uint8Array | string): CommandCheck {
  const parsed = parsePayload(payload, 'send a JSON object with a "transaction" id');
  if (!parsed.ok) return parsed;
  const obj = parsed.value;
  const transaction = transactionOf(obj);
  if (!isCommandName(cmd)) {
    return { ok: false, transaction, error: `command: "${cmd}" is not a command; use one of ${COMMANDS.join(', ')}` };
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    return { ok: false, transaction, error: 'payload: must be a JSON object; send e.g. {"transaction":"t1", ...}' };
  }
  const validate = validators().get(cmd)!;
  if (!validate(obj)) return { ok: false, transaction, error: describeSchemaError(cmd, validate.errors![0]) };
  const o = { ...(obj as Record<string, unknown>) };
  const tx = o.transaction as Transaction;
  delete o.transaction;

  // What a schema cannot say: notation that must parse.
  for (const f of ['trumpSlip', 'card'] as const) {
    if (typeof o[f] === 'string') {
      const c = normaliseCard(f, o[f] as string);
      if (!c.ok) return { ok: false, transaction: tx, error: c.error };
      o[f] = c.card;
    }
  }
  if (typeof o.hands === 'string') {
    try {
      parseDeal(o.hands);
    } catch (err) {
      return { ok: false, transaction: tx, error: `hands: ${(err as Error).message}; ${FIX.hands}` };
    }
  }
  if (typeof o.contract === 'string') {
    const c = parseContract(o.contract);
    if (!c.ok) return { ok: false, transaction: tx, error: `contract: "${o.contract}" is not a contract; ${FIX.contract}` };
  }
  if (cmd === 'remedy' && o.points !== undefined && o.remedy !== 'points') {
    return { ok: false, transaction: tx, error: `points: is only for "remedy": "points" (got "${String(o.remedy)}"); remove it, or ${FIX.points}` };
  }
  if (cmd === 'honours') {
    const problem = honoursProblem(o);
    if (problem) return { ok: false, transaction: tx, error: problem };
  }
  return { ok: true, command: { name: cmd, transaction: tx, params: o } as FeedCommand };
}

// ------------------------------------------------------------------ queries

/** A validated `request/events` query: the journal events with seq > `after`, at most `limit` of them. */
export interface EventsQuery { transaction: Transaction; after: number; limit: number }

/** The page size of `request/events` when the query gives none, and the largest page it may ask for. */
export const EVENTS_DEFAULT_LIMIT = 500;
export const EVENTS_MAX_LIMIT = 5000;

/** The schema of a `request/events` query. */
export const EVENTS_QUERY_SCHEMA = {
  type: 'object', additionalProperties: false, required: ['transaction', 'after'],
  properties: { transaction, after: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1, maximum: EVENTS_MAX_LIMIT } },
};
const EVENTS_FIX: Record<string, string> = {
  transaction: FIX.transaction,
  after: 'give the last seq you hold, an integer 0 or more (0 for the whole session)',
  limit: `give the page size, an integer 1-${EVENTS_MAX_LIMIT} (default ${EVENTS_DEFAULT_LIMIT})`,
};
let eventsValidator: ValidateFunction | null = null;

/** Check a `request/events` payload; a refusal names the field and the fix, like the commands. */
export function checkEventsQuery(payload: Uint8Array | string): { ok: true; query: EventsQuery } | { ok: false; transaction: Transaction | null; error: string } {
  const parsed = parsePayload(payload, 'send {"transaction":"t1","after":0}');
  if (!parsed.ok) return parsed;
  const obj = parsed.value;
  const tx = transactionOf(obj);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { ok: false, transaction: tx, error: 'payload: must be a JSON object; send {"transaction":"t1","after":0}' };
  eventsValidator ??= validatorOf('events', EVENTS_QUERY_SCHEMA, newAjv);
  if (!eventsValidator(obj)) {
    const e = eventsValidator.errors![0];
    const field = fieldOf(e) || 'payload';
    const fix = EVENTS_FIX[field] ?? 'send {"transaction":"t1","after":0,"limit":500}';
    const problem = e.keyword === 'required' ? 'is missing'
      : e.keyword === 'additionalProperties' ? 'is not a field of events (the fields are transaction, after, limit); remove it'
        : e.message ?? 'is not valid';
    return { ok: false, transaction: tx, error: `${field}: ${problem}; ${fix}` };
  }
  const o = obj as { transaction: Transaction; after: number; limit?: number };
  return { ok: true, query: { transaction: o.transaction, after: o.after, limit: o.limit ?? EVENTS_DEFAULT_LIMIT } };
}

// ------------------------------------------------------------------ exactly once

/** SHA-256 (hex) of a validated command's name and canonical body: a retry has the same, a reused id another. */
export function commandDigest(cmd: FeedCommand): string {
  return createHash('sha256').update(`${cmd.name}\n${canonicalJson(cmd.params)}`).digest('hex');
}

/** The `tx` field journaled with the event a command becomes (docs/contracts.md §4). */
export function commandTx(cmd: FeedCommand): CommandTx {
  return { id: cmd.transaction, digest: commandDigest(cmd) };
}

/** The command each commanded event type comes from, to name it in a refusal after a restart. */
const COMMAND_OF_EVENT: Partial<Record<TableEvent['type'], CommandName>> = {
  deal: 'start-deal', abandon: 'abandon-deal', contract: 'set-contract', remedy: 'remedy', claim: 'claim', undo: 'undo-misread',
  honours: 'honours', 'claim-accepted': 'answer-claim', 'claim-disputed': 'answer-claim', 'result-accepted': 'accept-result',
  'director-call': 'call-director', players: 'set-players',
};

interface Bound {
  name: string;
  digest: string;
  /** The fields of the first `ok: true` answer besides `transaction` and `ok`. */
  answer: Record<string, unknown>;
}

/** What the index says about a command: never seen, a retry of an applied one, or its id reused for another body. */
export type TransactionLookup =
  | { kind: 'new' }
  | { kind: 'repeat'; answer: Record<string, unknown> }
  | { kind: 'conflict'; error: string };

/**
 * The transactions a table has applied. A retry (same id, same digest) gets the first answer; the same id with
 * another body is refused. Only applied commands bind their id: a refused command changed nothing, so its id may be
 * sent again, corrected. Built from the journal on start (each event's `tx`), so the answers survive a crash.
 */
export class TransactionIndex {
  private readonly byId = new Map<string, Bound>();

  /** The index of a journal: every event with a `tx` binds its id to the answer `{seq}`. */
  static fromEvents(events: Iterable<TableEvent>): TransactionIndex {
    const index = new TransactionIndex();
    for (const ev of events) {
      if (!ev.tx) continue;
      index.byId.set(keyOf(ev.tx.id), { name: COMMAND_OF_EVENT[ev.type] ?? ev.type, digest: ev.tx.digest, answer: ev.seq === undefined ? {} : { seq: ev.seq } });
    }
    return index;
  }

  /** How many transaction ids are bound. */
  get size(): number {
    return this.byId.size;
  }

  /** Whether `cmd` is new, a retry (with its first answer), or a reuse of its id for another body (with the refusal). */
  lookup(cmd: FeedCommand): TransactionLookup {
    const b = this.byId.get(keyOf(cmd.transaction));
    if (!b) return { kind: 'new' };
    if (b.digest === commandDigest(cmd)) return { kind: 'repeat', answer: b.answer };
    const first = typeof b.answer.seq === 'number' ? `${b.name}, journaled as seq ${b.answer.seq}` : b.name;
    return {
      kind: 'conflict',
      error: `transaction: ${JSON.stringify(cmd.transaction)} was already used for another command (${first}); ` +
        'send this command with a new transaction id, or repeat the first one unchanged to get its answer again',
    };
  }

  /** Bind the id of an applied command to its answer. */
  record(cmd: FeedCommand, answer: Record<string, unknown>): void {
    this.byId.set(keyOf(cmd.transaction), { name: cmd.name, digest: commandDigest(cmd), answer });
  }
}

// 7 and "7" are different ids: the key keeps the JSON type.
function keyOf(id: Transaction): string {
  return JSON.stringify(id);
}
