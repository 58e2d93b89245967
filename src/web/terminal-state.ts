// What the table terminal shows: one object built from the engine, the deal's journal events and the club's messages.
// Pure. It holds only what the four players at the table have seen: cards already played, never a hand or the tray
// record, and findings as the public may see them (no renounce before it is established; WBF L9, L61).
import { parseContract } from '../cards/contract.js';
import type { Seat } from '../cards/seat.js';
import type { RoundAssignment, Schedule } from '../club/types.js';
import { boardVulnerability, contractScore, isVulnerable, type Vulnerability } from '../club/scoring/bridge-score.js';
import { type PublicFinding, isDealOver, publicFindings } from '../feed/projection.js';
import type { TableEvent } from '../formats/table-log.js';
import { shownAfterClaim } from '../club/trays/record.js';
import type { Table } from '../laws/engine.js';
import { getVariant } from '../laws/variants.js';

const SEAT_NAME: Record<Seat, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };
const ORDER: Seat[] = ['N', 'E', 'S', 'W'];

/** What the terminal page reads from `GET /terminal/api/state`. */
export interface TerminalView {
  table: string;
  variant: string;
  bridge: boolean;
  round: TerminalRound | null;
  deal: TerminalDeal | null;
  /** After the last tray of the round is played: where everyone goes ("N-S stay, E-W to table 3, trays to table 2"). */
  nextRound: string | null;
}

export interface TerminalRound {
  round: number;
  ns?: string;
  ew?: string;
  /** Player names from the director's assignment, by seat, when it carries them. */
  names: Partial<Record<Seat, string>>;
  trays: number[];
}

export interface TerminalDeal {
  board: number | null;
  dealer: Seat | null;
  vulnerable: string | null;
  /** Bridge: the contract in play ("4HSX"), null until entered. */
  contract: string | null;
  declarer: Seat | null;
  /** Bridge and no contract yet: the terminal asks for it. */
  needsContract: boolean;
  trick: number;
  whoseTurn: Seat | null;
  /** Cards of the trick in progress, face up on the table. */
  current: { seat: Seat; card: string }[];
  tricks: { NS: number; EW: number };
  remaining: number;
  findings: { text: string; law: string }[];
  claim: { seat: Seat; tricks: number; accepted: boolean } | null;
  /** The last claim disputed, while no claim stands and the play goes on. */
  disputed: { seat: Seat; by: Seat } | null;
  /**
   * A claim accepted at the tray's first play (no record yet): the cards each seat still has to pass over its reader
   * so that the record is complete for the next tables; null when nothing is to be shown.
   */
  showCards: { seat: Seat; left: number }[] | null;
  over: boolean;
  result: TerminalResult | null;
  /** Card reads of this deal that can be undone as misreads, newest first. */
  reads: { seq: number; seat: Seat; card: string; trick: number }[];
  /** The director calls made during this deal, newest first. */
  calls: { reason: string; at?: string }[];
  traveller: string;
}

export interface TerminalResult {
  tricks: { NS: number; EW: number };
  /** The tricks after any revoke penalty, as the engine scored them. */
  scored: { NS: number; EW: number };
  /** "1 trick transferred to North-South for the revoke", or null. */
  adjustment: string | null;
  /** Bridge: the duplicate score from N-S's side, and a sentence ("4♥ by South, made with an overtrick: N-S +450"). */
  score: number | null;
  summary: string;
  /** Who is asked to accept it: the defenders in bridge, E-W in whist (the daemon takes any seat in whist). */
  acceptBy: Seat[];
  acceptedBy: Seat | null;
}

/** Everything the view is made from. */
export interface TerminalInputs {
  table: string;
  variant: string;
  engine: Table;
  /** The deal in progress from its deal event on (empty when no deal has been dealt). */
  events: readonly TableEvent[];
  assignment: RoundAssignment | null;
  schedule: Schedule | null;
  released: readonly number[];
  /** Names entered at the table for the round, over the director's. */
  entered?: Partial<Record<Seat, string>>;
}

/** A contract in words: "4HSX" → "4♥ doubled by South". */
export function contractWords(text: string): string {
  const c = parseContract(text);
  if (!c.ok) return text;
  const strain = c.value.strain < 0 ? 'NT' : '♠♥♦♣'[c.value.strain];
  const dbl = c.value.doubled === 2 ? ' redoubled' : c.value.doubled === 1 ? ' doubled' : '';
  return `${c.value.level}${strain}${dbl} by ${SEAT_NAME[ORDER[c.value.declarer]]}`;
}

/** Build the terminal's view. */
export function terminalView(i: TerminalInputs): TerminalView {
  const deal = i.events[0];
  const bridge = getVariant((deal?.type === 'deal' ? deal.variant : undefined) ?? i.variant).trump === 'contract';
  return { table: i.table, variant: i.variant, bridge, round: roundOf(i.assignment, i.entered), deal: dealOf(i), nextRound: nextRoundOf(i) };
}

function roundOf(a: RoundAssignment | null, entered: Partial<Record<Seat, string>> = {}): TerminalRound | null {
  if (!a) return null;
  // `names` is being added to assignments by the director; read it when present, else the individual players.
  const given = (a as RoundAssignment & { names?: Partial<Record<Seat, string>> }).names ?? a.players ?? {};
  const names: Partial<Record<Seat, string>> = { ...given, ...entered };
  for (const s of ORDER) if (!names[s]) delete names[s];
  return { round: a.round, ...(a.ns ? { ns: a.ns } : {}), ...(a.ew ? { ew: a.ew } : {}), names, trays: [...a.trays] };
}

function dealOf(i: TerminalInputs): TerminalDeal | null {
  const deal = i.events[0];
  const r = i.engine.result();
  if (!deal || deal.type !== 'deal' || !r || r.abandoned) return null;
  const bridge = getVariant(deal.variant ?? i.variant).trump === 'contract';
  const over = isDealOver(i.engine);
  const seen = i.engine.cardsSeen();
  const visible = new Set(ORDER.flatMap((s) => seen[s]));
  const trick = i.engine.currentTrick();
  const undone = new Set(i.events.filter((e) => e.type === 'undo').map((e) => (e as { target: number }).target));
  const contract = i.engine.contract();
  const board = deal.board ?? null;
  const lastAnswer = [...i.events].reverse().find((e) => e.type === 'claim' || e.type === 'claim-disputed' || e.type === 'claim-accepted');
  let disputed: TerminalDeal['disputed'] = null;
  if (lastAnswer?.type === 'claim-disputed' && !r.claim) {
    const claim = [...i.events].reverse().find((e) => e.type === 'claim') as { seat: Seat } | undefined;
    if (claim) disputed = { seat: claim.seat, by: lastAnswer.seat };
  }
  return {
    board,
    dealer: deal.dealer ?? null,
    vulnerable: deal.vulnerable ?? (bridge && board !== null ? boardVulnerability(board) : null),
    contract,
    declarer: i.engine.declarer(),
    needsContract: bridge && contract === null,
    trick: trick.number,
    whoseTurn: i.engine.whoseTurn(),
    current: over ? [] : trick.cards,
    tricks: { ...r.tricksWon },
    remaining: 13 - r.tricks.length,
    findings: publicFindings(r.findings, { released: true, ended: over, visible }).map(plain),
    claim: r.claim ? { ...r.claim } : null,
    disputed,
    showCards: deal.hands === undefined && deal.overplay !== true ? cardsToShow(i.events, seen) : null,
    over,
    result: over ? resultOf(i, bridge, board, contract, deal.vulnerable) : null,
    reads: readsOf(i.events, undone),
    calls: i.events.filter((e) => e.type === 'director-call').reverse().map((e) => ({ reason: (e as { reason: string }).reason, ...(e.at ? { at: e.at } : {}) })),
    traveller: board === null ? '' : i.released.includes(board)
      ? `Board ${board} has been played at every table: its traveller is on the director's results page (this table does not hold it).`
      : `The traveller of board ${board} is not shown yet: other tables have still to play it.`,
  };
}

/** Per seat, the cards still to show after an accepted claim (13 less those played and shown); null before one. */
function cardsToShow(events: readonly TableEvent[], played: Record<Seat, string[]>): TerminalDeal['showCards'] {
  const after = shownAfterClaim(events);
  if (!after.accepted) return null;
  return ORDER.map((seat) => ({ seat, left: Math.max(0, 13 - played[seat].length - after.shown[seat].filter((c) => !played[seat].includes(c)).length) }));
}

function readsOf(events: readonly TableEvent[], undone: ReadonlySet<number>): TerminalDeal['reads'] {
  const out: TerminalDeal['reads'] = [];
  let count = 0;
  for (const e of events) {
    if (e.type !== 'place' || !e.card || e.seq === undefined) continue;
    count++;
    if (!undone.has(e.seq) && !e.orderUnknown) out.push({ seq: e.seq, seat: e.seat, card: e.card, trick: Math.floor((count - 1) / 4) + 1 });
  }
  return out.reverse().slice(0, 8);
}

function resultOf(i: TerminalInputs, bridge: boolean, board: number | null, contract: string | null, vul: string | undefined): TerminalResult {
  const r = i.engine.result()!;
  const moved = r.scored.NS - r.tricksWon.NS;
  const adjustment = moved === 0 ? null
    : `${Math.abs(moved)} trick${Math.abs(moved) === 1 ? '' : 's'} transferred to ${moved > 0 ? 'North-South' : 'East-West'} for the revoke`;
  const accepted = i.events.find((e) => e.type === 'result-accepted') as { seat: Seat } | undefined;
  const declarer = i.engine.declarer();
  // Bridge: the defenders confirm. Whist has no declarer: E-W confirm what N-S entered, as on a Bridgemate.
  const acceptBy: Seat[] = declarer ? ORDER.filter((s) => (ORDER.indexOf(s) & 1) !== (ORDER.indexOf(declarer) & 1)) : ['E', 'W'];
  let score: number | null = null;
  let summary = `North-South ${r.scored.NS} tricks, East-West ${r.scored.EW}`;
  const c = contract ? parseContract(contract) : null;
  if (bridge && c?.ok && declarer) {
    const side = (ORDER.indexOf(declarer) & 1) === 0 ? 'NS' : 'EW';
    const made = r.scored[side];
    const need = c.value.level + 6;
    const v = (vul ?? (board !== null ? boardVulnerability(board) : 'None')) as string;
    const vulnerable = isVulnerable(normaliseVul(v), declarer);
    const s = contractScore(c.value.level, c.value.strain, c.value.doubled, vulnerable, made);
    score = side === 'NS' ? s : -s;
    const how = made === need ? 'made exactly' : made > need ? `made with ${made - need} overtrick${made - need === 1 ? '' : 's'}` : `${need - made} down`;
    summary = `${contractWords(contract!)}: ${made} tricks, ${how}. N-S ${score > 0 ? '+' : ''}${score}`;
  }
  return { tricks: { ...r.tricksWon }, scored: { ...r.scored }, adjustment, score, summary, acceptBy, acceptedBy: accepted?.seat ?? null };
}

function normaliseVul(v: string): Vulnerability {
  return v === 'Both' || v === 'All' ? 'All' : v === 'NS' || v === 'EW' ? v : 'None';
}

const WORDS: Record<string, (seat: string, trick: number) => string> = {
  'revoke': (s, t) => `${s} revoked in trick ${t}: did not follow suit while holding it`,
  'lead-out-of-turn': (s, t) => `${s} led out of turn to trick ${t}`,
  'play-out-of-turn': (s, t) => `${s} played out of turn in trick ${t}`,
  'card-liable-to-be-called': (s) => `${s} has a card that must be left face up (a penalty card)`,
  'failure-to-comply': (s, t) => `${s} did not play the card the penalty required, in trick ${t}`,
  'wrong-trump-card': (s) => `${s} turned a trump card that is not the one on the trump slip`,
  'card-not-in-hand': (s, t) => `${s} played a card that is not in his hand, in trick ${t}: the tray may be wrong`,
  'wrong-card-count': (s) => `${s} has the wrong number of cards`,
  'duplicate-card': (s, t) => `${s} played a card already played, in trick ${t}: two packs at the table?`,
  'unknown-card': (s) => `a card the table cannot read was placed in ${s}'s place`,
};

function plain(f: PublicFinding): { text: string; law: string } {
  const seat = SEAT_NAME[f.seat as Seat] ?? f.seat;
  const words = WORDS[f.kind];
  return { text: words ? words(seat, f.trick) : `${seat}: ${f.kind.replace(/-/g, ' ')}`, law: f.law };
}

function nextRoundOf(i: TerminalInputs): string | null {
  const a = i.assignment;
  const s = i.schedule;
  if (!a || !s || a.trays.length === 0) return null;
  const last = a.trays[a.trays.length - 1];
  const deal = i.events[0];
  const done = deal?.type === 'deal' && deal.board === last && isDealOver(i.engine);
  if (!done) return null;
  const next = s.rounds.find((r) => r.round === a.round + 1);
  if (!next) return 'That was the last round: thank you. The director will announce the results.';
  const here = Number(a.table);
  const where = (pair: string | undefined): string => {
    if (!pair) return '';
    const t = next.tables.find((x) => x.ns === pair || x.ew === pair);
    if (!t) return 'sit out';
    const dir = t.ns === pair ? 'N-S' : 'E-W';
    return t.table === here ? (dir === (pair === a.ns ? 'N-S' : 'E-W') ? 'stay' : `stay, sitting ${dir}`) : `to table ${t.table}${dir === (pair === a.ns ? 'N-S' : 'E-W') ? '' : ` as ${dir}`}`;
  };
  const trayTable = next.tables.find((t) => t.trays.some((b) => b !== null && a.trays.includes(b)))?.table;
  const parts = [`N-S ${where(a.ns)}`, `E-W ${where(a.ew)}`, trayTable === undefined ? 'trays to the director' : trayTable === here ? 'trays stay' : `trays to table ${trayTable}`];
  return `Next round (${next.round}): ${parts.join(', ')}`;
}
