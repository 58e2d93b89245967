// DDS (Bo Haglund and Soren Hein's double-dummy solver, Debian's libdds0) called through koffi. Loaded only in the
// solver's child process (src/dd/worker.ts): the library has threads of its own and the process that loaded it
// segfaults at exit, so no daemon or director ever maps it.
import koffi, { type LibraryHandle } from 'koffi';
import { SUIT_LETTERS, RANK_LETTERS, tryParseCard } from '../cards/card.js';
import { handSize } from '../cards/hand.js';
import { type Seat, SEATS } from '../cards/seat.js';
import {
  type DdTable, type Par, type ParContract, type Position, type PositionResult, type Strain, type Vulnerability,
  DDS_SONAME, DD_OFF, STRAINS, dealHands,
} from './types.js';

/** What the worker asks of DDS. */
export interface Dds {
  version: string;
  table(hands: string): DdTable;
  par(table: DdTable, vulnerable: Vulnerability, dealer?: Seat): Par;
  solve(position: Position): PositionResult;
}

const RETURN_NO_FAULT = 1;
const VUL_CODES: Record<Vulnerability, number> = { None: 0, All: 1, NS: 2, EW: 3 };
// Par contracts name their denomination 0 NT, 1 spades .. 4 clubs; every other call takes 0 spades .. 4 NT.
const PAR_DENOMS: readonly Strain[] = ['NT', 'S', 'H', 'D', 'C'];
const PAR_SEATS: readonly ParContract['by'][] = ['N', 'E', 'S', 'W', 'NS', 'EW'];

/** Open libdds and declare the calls used; throws DD_OFF (with the loader's reason) when it cannot be opened. */
export function loadDds(path = process.env.LIBDDS_PATH || DDS_SONAME): Dds {
  let lib: LibraryHandle;
  try {
    lib = koffi.load(path);
  } catch (e) {
    throw new Error(`${DD_OFF} (${path}: ${(e as Error).message.split('\n')[0]})`);
  }
  const deal = koffi.struct('dds_deal', {
    trump: 'int', first: 'int', currentTrickSuit: koffi.array('int', 3), currentTrickRank: koffi.array('int', 3),
    remainCards: koffi.array('uint', 16),
  });
  const futureTricks = koffi.struct('dds_futureTricks', {
    nodes: 'int', cards: 'int', suit: koffi.array('int', 13), rank: koffi.array('int', 13),
    equals: koffi.array('int', 13), score: koffi.array('int', 13),
  });
  const tableDeal = koffi.struct('dds_ddTableDeal', { cards: koffi.array('uint', 16) });
  const tableResults = koffi.struct('dds_ddTableResults', { resTable: koffi.array('int', 20) });
  const contractType = koffi.struct('dds_contractType', { underTricks: 'int', overTricks: 'int', level: 'int', denom: 'int', seats: 'int' });
  const parMaster = koffi.struct('dds_parResultsMaster', { score: 'int', number: 'int', contracts: koffi.array(contractType, 10) });
  const info = koffi.struct('dds_DDSInfo', {
    major: 'int', minor: 'int', patch: 'int', versionString: koffi.array('char', 10), system: 'int', numBits: 'int',
    compiler: 'int', constructor: 'int', numCores: 'int', threading: 'int', noOfThreads: 'int',
    threadSizes: koffi.array('char', 128), systemString: koffi.array('char', 1024),
  });
  const SolveBoard = lib.func('SolveBoard', 'int', [deal, 'int', 'int', 'int', koffi.out(koffi.pointer(futureTricks)), 'int']);
  const CalcDDtable = lib.func('CalcDDtable', 'int', [tableDeal, koffi.out(koffi.pointer(tableResults))]);
  const DealerParBin = lib.func('DealerParBin', 'int', [koffi.pointer(tableResults), koffi.out(koffi.pointer(parMaster)), 'int', 'int']);
  const sidesPar = koffi.struct('dds_sidesPar', { sides: koffi.array(parMaster, 2) });
  const SidesParBin = lib.func('SidesParBin', 'int', [koffi.pointer(tableResults), koffi.out(koffi.pointer(sidesPar)), 'int']);
  const ErrorMessage = lib.func('ErrorMessage', 'void', ['int', 'uint8_t *']);
  const GetDDSInfo = lib.func('GetDDSInfo', 'void', [koffi.out(koffi.pointer(info))]);

  const check = (what: string, code: number) => {
    if (code === RETURN_NO_FAULT) return;
    const line = Buffer.alloc(80);
    ErrorMessage(code, line);
    throw new Error(`DDS ${what}: ${cString(line.toString('latin1')) || `error ${code}`}`);
  };

  const about: { versionString?: number[] | string } = {};
  GetDDSInfo(about);
  return {
    version: typeof about.versionString === 'string' ? about.versionString : cString(about.versionString ?? []),
    table(hands) {
      const m = dealHands(hands);
      if ('error' in m) throw new Error(m.error);
      if (m.hands.some((h) => handSize(h) !== 13)) throw new Error('hands: a full deal has 13 cards in each hand');
      const out: { resTable?: number[] } = {};
      check('CalcDDtable', CalcDDtable({ cards: ddsCards(m.hands) }, out));
      return tableOf(Array.from(out.resTable ?? []));
    },
    par(table, vulnerable, dealer) {
      const res = { resTable: toResTable(table) };
      if (dealer !== undefined) {
        const out: Record<string, unknown> = {};
        check('DealerParBin', DealerParBin(res, out, SEATS.indexOf(dealer), VUL_CODES[vulnerable]));
        return parOf(out as unknown as RawPar);
      }
      const out: { sides?: RawPar[] } = {};
      check('SidesParBin', SidesParBin(res, out, VUL_CODES[vulnerable]));
      return parOf(out.sides![0]);
    },
    solve(position) {
      const d = dealOf(position);
      const fut: Record<string, unknown> = {};
      // target -1, solutions 3: every legal card with its score; mode 1: search even when only one card is legal.
      check('SolveBoard', SolveBoard(d.deal, -1, 3, 1, fut, 0));
      const f = fut as unknown as { cards: number; suit: number[]; rank: number[]; equals: number[]; score: number[] };
      const cards: PositionResult['cards'] = [];
      for (let i = 0; i < f.cards; i++) {
        cards.push({ card: SUIT_LETTERS[f.suit[i]] + RANK_LETTERS[f.rank[i] - 2], tricks: f.score[i] });
        for (let r = 14; r >= 2; r--) {
          if (f.equals[i] & (1 << r)) cards.push({ card: SUIT_LETTERS[f.suit[i]] + RANK_LETTERS[r - 2], tricks: f.score[i] });
        }
      }
      cards.sort((a, b) => b.tricks - a.tricks);
      const best = cards[0]?.tricks ?? 0;
      const side = SEATS.indexOf(d.toPlay) % 2 === 0 ? 'NS' : 'EW';
      const rest = d.remaining - best;
      return { toPlay: d.toPlay, tricks: side === 'NS' ? { NS: best, EW: rest } : { NS: rest, EW: best }, cards };
    },
  };
}

interface RawPar { score: number; number: number; contracts: { underTricks: number; overTricks: number; level: number; denom: number; seats: number }[] }

function parOf(p: RawPar): Par {
  const contracts = p.contracts.slice(0, p.number).map((c): ParContract => ({
    level: c.level, strain: PAR_DENOMS[c.denom], by: PAR_SEATS[c.seats], doubled: c.underTricks > 0,
    overtricks: c.overTricks, undertricks: c.underTricks,
  }));
  return { score: p.score, contracts };
}

/** A NUL-terminated char array as a string. */
function cString(chars: readonly number[] | string): string {
  if (typeof chars === 'string') return chars.replace(/\0.*$/s, '');
  const end = chars.indexOf(0);
  return String.fromCharCode(...(end < 0 ? chars : chars.slice(0, end)));
}

/** DDS holdings: hand-major 4x4, each a mask with bit 2 for the deuce .. bit 14 for the ace. */
function ddsCards(masks: readonly number[][]): number[] {
  return masks.flatMap((hand) => hand.map((m) => m << 2));
}

/** DDS's resTable is strain-major: resTable[strain][hand]. */
function tableOf(res: readonly number[]): DdTable {
  const t = {} as DdTable;
  STRAINS.forEach((s, i) => {
    t[s] = { N: res[i * 4], E: res[i * 4 + 1], S: res[i * 4 + 2], W: res[i * 4 + 3] };
  });
  return t;
}

function toResTable(t: DdTable): number[] {
  return STRAINS.flatMap((s) => SEATS.map((seat) => t[s][seat]));
}

/** The DDS deal of a position, the seat to play and the tricks left (the trick in progress included). */
function dealOf(p: Position): { deal: object; toPlay: Seat; remaining: number } {
  const m = dealHands(p.hands);
  if ('error' in m) throw new Error(m.error);
  if (p.trick.length > 3) throw new Error(`trick: at most three cards are played to a trick in progress, not ${p.trick.length}`);
  const first = SEATS.indexOf(p.leader);
  if (first < 0) throw new Error(`leader "${p.leader}" is not a seat: N, E, S or W`);
  const suits = [0, 0, 0], ranks = [0, 0, 0];
  p.trick.forEach((text, i) => {
    const r = tryParseCard(text);
    if (!r.ok) throw new Error(`trick: ${r.error}`);
    suits[i] = Math.floor(r.value / 13);
    ranks[i] = (r.value % 13) + 2;
  });
  const counts = m.hands.map(handSize);
  const toPlay = (first + p.trick.length) & 3;
  const remaining = counts[toPlay];
  // Those who played to the trick in progress hold one card fewer than those still to play.
  for (let i = 0; i < 4; i++) {
    const want = remaining - (((i - first + 4) & 3) < p.trick.length ? 1 : 0);
    if (counts[i] !== want) {
      throw new Error(`hands: ${SEATS[i]} holds ${counts[i]} cards where ${want} are needed (the trick in progress has ${p.trick.length})`);
    }
  }
  if (remaining === 0) throw new Error('hands: no card is left to play');
  const deal = { trump: STRAINS.indexOf(p.strain), first, currentTrickSuit: suits, currentTrickRank: ranks, remainCards: ddsCards(m.hands) };
  if (deal.trump < 0) throw new Error(`strain "${p.strain}" is not one of S, H, D, C, NT`);
  return { deal, toPlay: SEATS[toPlay], remaining };
}
