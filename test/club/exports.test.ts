// The session exports read back: PBN 2.1 through the project's own PBN reader (deals, the ScoreTable of §5.7 and the
// TotalScoreTable of §5.8), USEBIO 1.2 through a small well-formedness checker (elements, attributes, entities,
// nesting), CSV through an RFC 4180 reader. Sessions are built by hand: a two-table bridge Mitchell scored by
// matchpoints, a whist session scored by averages, and a Howell whose pairs change direction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDeal, parseDeal } from '../../src/cards/deal.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { readPbnTravellers } from '../../src/club/scoring/travellers.js';
import {
  CSV_COLUMNS, csvField, exportCsv, exportPbn, exportUsebio, parseCsv, readPbnTables, sessionExports, usebioPairNumbers,
} from '../../src/club/exports/index.js';
import type { Schedule, ScoreReport, SessionExport, TrayRecord, Traveller } from '../../src/club/types.js';

// ------------------------------------------------------------------------------------------------------------------
// Fixtures

/** A deal from a seed: the 52 cards shuffled by a small LCG, dealt 13 each, as a PBN deal string from North. */
function dealFromSeed(seed: number): string {
  const cards = [...'SHDC'].flatMap((s) => [...'AKQJT98765432'].map((r) => s + r));
  let x = seed;
  for (let i = cards.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  const hands = [0, 1, 2, 3].map((h) => {
    const mine = cards.slice(h * 13, h * 13 + 13);
    return [...'SHDC'].map((s) => mine.filter((c) => c[0] === s).map((c) => c[1]).join('')).join('.');
  });
  // Normalised (ranks high to low) by the project's own deal reader.
  return formatDeal(parseDeal(`N:${hands.join(' ')}`), 0);
}

const SEATS = ['N', 'E', 'S', 'W'] as const;

function record(session: string, board: number, extra: Partial<TrayRecord> = {}): TrayRecord {
  return {
    schema: 1, type: 'tenace.tray', session, board, hands: dealFromSeed(board * 7919), dealer: SEATS[(board - 1) % 4],
    source: { kind: 'original-play', table: '1', fromSeq: board * 10, toSeq: board * 10 + 60, at: '2026-12-03T19:00:00Z' }, rev: 1, ...extra,
  };
}

/** Two tables, two rounds, two boards a round: a Mitchell with N-S sitting, E-W moving. */
function mitchellSchedule(): Schedule {
  return {
    movement: 'mitchell', tables: 2, kind: 'pairs', boardsPerRound: 2, trays: 4,
    participants: ['1NS', '2NS', '1EW', '2EW'],
    rounds: [
      { round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [3, 4] }] },
      { round: 2, tables: [{ table: 1, ns: '1NS', ew: '2EW', trays: [3, 4] }, { table: 2, ns: '2NS', ew: '1EW', trays: [1, 2] }] },
    ],
  };
}

// Bridge results; scores by hand from the duplicate scoring table (board 1 none vulnerable, board 2 N-S, board 3 E-W,
// board 4 all), matchpoints 2/0 or 1/1 with two results a board.
const BRIDGE_RESULTS: { t: Traveller; score: number; mp: [number, number] }[] = [
  { t: { board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, contract: '4SN', tricks: 10 }, score: 420, mp: [2, 0] },
  { t: { board: 1, ns: '2NS', ew: '1EW', table: 2, round: 2, contract: '4SN', tricks: 9 }, score: -50, mp: [0, 2] },
  { t: { board: 2, ns: '1NS', ew: '1EW', table: 1, round: 1, contract: '3NTEX', tricks: 7 }, score: 200, mp: [1, 1] },
  { t: { board: 2, ns: '2NS', ew: '1EW', table: 2, round: 2, contract: '2DS', tricks: 10 }, score: 200, mp: [1, 1] },
  { t: { board: 3, ns: '2NS', ew: '2EW', table: 2, round: 1, contract: 'PASS' }, score: 0, mp: [0, 2] },
  { t: { board: 3, ns: '1NS', ew: '2EW', table: 1, round: 2, contract: '1CN', tricks: 8 }, score: 90, mp: [2, 0] },
  { t: { board: 4, ns: '2NS', ew: '2EW', table: 2, round: 1, contract: '6HW', tricks: 12 }, score: -1430, mp: [1, 1] },
  { t: { board: 4, ns: '1NS', ew: '2EW', table: 1, round: 2, contract: '6HWX', tricks: 12 }, score: -1430, mp: [1, 1] },
];

function bridgeSession(over: Partial<SessionExport> = {}): SessionExport {
  const totals = new Map<string, number>();
  for (const r of BRIDGE_RESULTS) {
    totals.set(r.t.ns, (totals.get(r.t.ns) ?? 0) + r.mp[0]);
    totals.set(r.t.ew, (totals.get(r.t.ew) ?? 0) + r.mp[1]);
  }
  const ranked = [...totals].sort((a, b) => b[1] - a[1]);
  const report: ScoreReport = {
    method: 'matchpoints',
    pairs: ranked.map(([pair, total], i) => ({ pair, total, rank: i + 1, percent: (total / 8) * 100, direction: pair.endsWith('NS') ? 'NS' : 'EW' })),
    boards: [1, 2, 3, 4].map((board) => ({
      board, top: 2,
      results: BRIDGE_RESULTS.filter((r) => r.t.board === board).map((r) => ({
        table: r.t.table, ns: r.t.ns, ew: r.t.ew, contract: r.t.contract, declarerTricks: typeof r.t.tricks === 'number' ? r.t.tricks : undefined,
        score: r.score, mp: { NS: r.mp[0], EW: r.mp[1] },
      })),
    })),
  };
  return {
    club: 'Hoyle & Co "Duplicate"', session: 's-2026-12-03', date: '2026-12-03', variant: 'bridge', schedule: mitchellSchedule(),
    records: [1, 2, 3, 4].map((b) => record('s-2026-12-03', b, { vulnerable: ['None', 'NS', 'EW', 'All'][b - 1] })),
    travellers: BRIDGE_RESULTS.map((r) => r.t), report,
    names: { '1NS': ['Ann Smith', 'Bob <Jones>'], '1EW': ['Cé & Dee', 'Eve "E" Ford'], '2NS': ['Gil, Hal', 'Ivy'], '2EW': ['Jo', 'Kit'] },
    ...over,
  };
}

/** Whist: tricks per side after penalties, the seed's plus/minus against the direction's average. */
function whistSession(): SessionExport {
  const travellers: Traveller[] = [
    { board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: { NS: 8, EW: 5 } },
    { board: 1, ns: '2NS', ew: '1EW', table: 2, round: 2, tricks: { NS: 6, EW: 7 } },
    { board: 2, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: { NS: 4, EW: 9 } },
    { board: 2, ns: '2NS', ew: '1EW', table: 2, round: 2, tricks: { NS: 5, EW: 8 } },
  ];
  return {
    club: 'whist club', session: 'w1', date: '2026-12-03', variant: 'whist', schedule: mitchellSchedule(),
    records: [1, 2].map((b) => record('w1', b, { trumpCard: b === 1 ? 'H7' : 'SQ' })),
    travellers,
    report: {
      method: 'average', averages: { NS: 11.5, EW: 14.5 },
      pairs: [
        { pair: '1EW', direction: 'EW', total: 29, vsAverage: 14.5, rank: 1 },
        { pair: '1NS', direction: 'NS', total: 12, vsAverage: 0.5, rank: 2 },
        { pair: '2NS', direction: 'NS', total: 11, vsAverage: -0.5, rank: 3 },
      ],
      boards: [1, 2].map((board) => ({ board, results: travellers.filter((t) => t.board === board).map((t) => ({ table: t.table, ns: t.ns, ew: t.ew, tricks: t.tricks as { NS: number; EW: number } })) })),
    },
  };
}

// ------------------------------------------------------------------------------------------------------------------
// A small XML well-formedness checker: the prolog, a DOCTYPE without an internal subset, comments, elements with
// quoted attributes, text with the predefined and numeric entities. It throws on anything else, so the test fails
// when the export writes a raw "&" or "<", a mismatched tag, or an unquoted attribute.

interface XmlNode { name: string; attrs: Record<string, string>; children: XmlNode[]; text: string }

function decodeEntities(s: string, at: number): string {
  return s.replace(/&([^;]*);|&/g, (m, body: string | undefined) => {
    if (body === undefined) throw new Error(`a bare "&" at ${at}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[body]) return named[body];
    const n = /^#x([0-9a-f]+)$/i.exec(body) ? parseInt(body.slice(2), 16) : /^#(\d+)$/.exec(body) ? Number(body.slice(1)) : NaN;
    if (Number.isNaN(n)) throw new Error(`unknown entity &${body}; at ${at}`);
    return String.fromCodePoint(n);
  });
}

function parseXml(src: string): XmlNode {
  let i = 0;
  const NAME = /[A-Za-z_][\w.-]*/y;
  const fail = (msg: string): never => { throw new Error(`${msg} at ${i}: ${JSON.stringify(src.slice(i, i + 40))}`); };
  const name = (): string => { NAME.lastIndex = i; const m = NAME.exec(src); if (!m) fail('a name was expected'); i += m![0].length; return m![0]; };
  const ws = () => { while (/\s/.test(src[i] ?? '')) i++; };
  const misc = () => {
    for (;;) {
      ws();
      if (src.startsWith('<!--', i)) { const e = src.indexOf('-->', i + 4); if (e < 0 || src.slice(i + 4, e).includes('--')) fail('a bad comment'); i = e + 3; continue; }
      if (src.startsWith('<?', i)) { const e = src.indexOf('?>', i); if (e < 0) fail('an unclosed processing instruction'); i = e + 2; continue; }
      if (src.startsWith('<!DOCTYPE', i)) { const e = src.indexOf('>', i); if (e < 0 || src.slice(i, e).includes('[')) fail('a DOCTYPE'); i = e + 1; continue; }
      return;
    }
  };
  const element = (): XmlNode => {
    if (src[i] !== '<') fail('"<" expected');
    i++;
    const node: XmlNode = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      ws();
      if (src.startsWith('/>', i)) { i += 2; return node; }
      if (src[i] === '>') { i++; break; }
      const a = name();
      ws();
      if (src[i] !== '=') fail('"=" expected');
      i++;
      ws();
      const q = src[i];
      if (q !== '"' && q !== "'") fail('a quoted attribute value expected');
      const e = src.indexOf(q, i + 1);
      const raw = src.slice(i + 1, e);
      if (e < 0 || raw.includes('<')) fail('a bad attribute value');
      if (a in node.attrs) fail(`attribute ${a} twice`);
      node.attrs[a] = decodeEntities(raw, i);
      i = e + 1;
    }
    for (;;) {
      const lt = src.indexOf('<', i);
      if (lt < 0) fail(`</${node.name}> is missing`);
      const text = src.slice(i, lt);
      if (text.includes('>') && text.includes(']]>')) fail('"]]>" in text');
      node.text += decodeEntities(text, i);
      i = lt;
      if (src.startsWith('<!--', i)) { const e = src.indexOf('-->', i + 4); if (e < 0 || src.slice(i + 4, e).includes('--')) fail('a bad comment'); i = e + 3; continue; }
      if (src.startsWith('</', i)) {
        i += 2;
        const end = name();
        if (end !== node.name) fail(`</${end}> closes <${node.name}>`);
        ws();
        if (src[i] !== '>') fail('">" expected');
        i++;
        node.text = node.text.trim();
        return node;
      }
      node.children.push(element());
    }
  };
  misc();
  const root = element();
  misc();
  if (i !== src.length) fail('content after the root element');
  return root;
}

const kids = (n: XmlNode, name: string) => n.children.filter((c) => c.name === name);
const kid = (n: XmlNode, name: string): XmlNode => {
  const k = kids(n, name);
  if (k.length !== 1) throw new Error(`<${n.name}> has ${k.length} <${name}>`);
  return k[0];
};
const textOf = (n: XmlNode, name: string): string | undefined => kids(n, name)[0]?.text;

// ------------------------------------------------------------------------------------------------------------------

describe('the XML checker used by these tests', () => {
  it('rejects what is not well-formed: a bare &, a mismatched tag, an unquoted attribute, text after the root', () => {
    expect(parseXml('<A x="1"><B>a &amp; b</B></A>').children[0].text).toBe('a & b');
    for (const bad of ['<A>a & b</A>', '<A><B></A></B>', '<A x=1></A>', '<A></A><B/>', '<A>1 < 2</A>', '<A><!-- a -- b --></A>']) {
      expect(() => parseXml(bad), bad).toThrow();
    }
  });
});

describe('PBN 2.1 export with results', () => {
  it('one game per board with [Event] [Site] [Date] [Board] [Dealer] [Vulnerable] [Deal]; the project\'s PBN reader reads the deals back with no error', () => {
    const s = bridgeSession();
    const text = exportPbn(s);
    expect(text.startsWith('% PBN 2.1\r\n% EXPORT\r\n')).toBe(true);
    const parsed = parsePbn(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => r.board)).toEqual([1, 2, 3, 4]);
    for (const rec of parsed.records) {
      const tray = s.records.find((r) => r.board === rec.board)!;
      expect(rec.hands, `board ${rec.board}`).toBe(tray.hands);
      expect(rec.dealer).toBe(tray.dealer);
      expect(rec.vulnerable).toBe(tray.vulnerable);
      expect(rec.tags.Event).toBe(`${s.club} ${s.session}`);
      expect(rec.tags.Site).toBe(s.club);
      expect(rec.tags.Date).toBe('2026.12.03');
      // PBN 4.1: the Deal tag starts with the dealer's hand in export format.
      expect(rec.tags.Deal.startsWith(`${tray.dealer}:`)).toBe(true);
    }
  });

  it('§5.7 ScoreTable: PairId_NS, PairId_EW, Contract, Declarer, Result (declarer\'s tricks), Score_NS, Score_EW, MP_NS, MP_EW, one row per result', () => {
    const s = bridgeSession();
    const text = exportPbn(s);
    const parsed = parsePbn(text);
    // The reader keeps the tag value: the column names with their minimum widths and alignments (§5.2 "Name\6R").
    const spec = parsed.records[0].tags.ScoreTable;
    expect(spec.split(';').every((c) => /^[+-]?\w+\\\d+[LR]$/.test(c)), spec).toBe(true);
    const tables = readPbnTables(text, 'ScoreTable');
    expect(tables.map((t) => t.board)).toEqual([1, 2, 3, 4]);
    const cols = tables[0].columns;
    for (const c of ['PairId_NS', 'PairId_EW', 'Contract', 'Declarer', 'Result', 'Score_NS', 'Score_EW', 'MP_NS', 'MP_EW']) expect(cols).toContain(c);
    for (const t of tables) {
      const expected = BRIDGE_RESULTS.filter((r) => r.t.board === t.board);
      expect(t.rows).toHaveLength(expected.length);
      for (const row of t.rows) {
        const cell = (c: string) => row[cols.indexOf(c)];
        expect(row).toHaveLength(cols.length);
        const r = expected.find((e) => e.t.ns === cell('PairId_NS') && e.t.ew === cell('PairId_EW'))!;
        expect(r, `board ${t.board}: ${row.join(' ')}`).toBeDefined();
        if (r.t.contract === 'PASS') {
          expect([cell('Contract'), cell('Declarer'), cell('Result')]).toEqual(['Pass', '-', '-']);
        } else {
          const m = /^(\d(?:NT|[SHDC]))([NESW])(X{0,2})$/.exec(r.t.contract!)!;
          expect(cell('Contract')).toBe(m[1] + m[3]);
          expect(cell('Declarer')).toBe(m[2]);
          expect(Number(cell('Result'))).toBe(r.t.tricks);
        }
        // Score_NS holds N-S's score when N-S scored, Score_EW E-W's when E-W scored; the other is '-'.
        if (r.score >= 0) expect([Number(cell('Score_NS')), cell('Score_EW')]).toEqual([r.score, '-']);
        else expect([cell('Score_NS'), Number(cell('Score_EW'))]).toEqual(['-', -r.score]);
        expect([Number(cell('MP_NS')), Number(cell('MP_EW'))]).toEqual(r.mp);
      }
    }
  });

  it('§5.8 TotalScoreTable in the first game only: rank order, the pairs\' names as one string token, the matchpoint total and the boards played', () => {
    const s = bridgeSession();
    const text = exportPbn(s);
    const totals = readPbnTables(text, 'TotalScoreTable');
    expect(totals).toHaveLength(1);
    expect(totals[0].board).toBe(1);
    const t = totals[0];
    for (const c of ['Rank', 'PairId', 'Names', 'TotalMP', 'TotalPercentage', 'NrBoards']) expect(t.columns).toContain(c);
    const cell = (row: string[], c: string) => row[t.columns.indexOf(c)];
    expect(t.rows.map((r) => cell(r, 'PairId'))).toEqual([...s.report.pairs].sort((a, b) => a.rank - b.rank).map((p) => p.pair));
    for (const row of t.rows) {
      const p = s.report.pairs.find((x) => x.pair === cell(row, 'PairId'))!;
      expect(Number(cell(row, 'Rank'))).toBe(p.rank);
      expect(Number(cell(row, 'TotalMP'))).toBe(p.total);
      expect(cell(row, 'Names')).toBe(s.names![p.pair].join(';'));
      expect(Number(cell(row, 'NrBoards'))).toBe(s.travellers.filter((x) => x.ns === p.pair || x.ew === p.pair).length);
    }
    // The total column is marked descending ("+", §5.2), as the rows are.
    expect(parsePbn(text).records[0].tags.TotalScoreTable).toMatch(/;\+TotalMP\\/);
    expect(parsePbn(text).records[1].tags.TotalScoreTable).toBeUndefined();
    // `tenace score` reads the names back (issue 17: "its standings equal `npx tenace score` ... with player names").
    expect(readPbnTravellers(text).names).toEqual(s.names);
  });

  it('whist has no contract: the ScoreTable carries Tricks_NS and Tricks_EW, no Contract/Declarer/Result, and the file says so in a comment', () => {
    const s = whistSession();
    const text = exportPbn(s);
    expect(parsePbn(text).errors).toEqual([]);
    expect(text).toMatch(/^% Whist: no contract;.*Tricks_NS, Tricks_EW/m);
    const tables = readPbnTables(text, 'ScoreTable');
    expect(tables[0].columns).not.toContain('Contract');
    expect(tables[0].columns).not.toContain('Result');
    const rows = tables.flatMap((t) => t.rows.map((r) => ({ board: t.board, cell: (c: string) => r[tables[0].columns.indexOf(c)] })));
    expect(rows).toHaveLength(s.travellers.length);
    for (const t of s.travellers) {
      const row = rows.find((r) => r.board === t.board && r.cell('PairId_NS') === t.ns && r.cell('PairId_EW') === t.ew)!;
      const tricks = t.tricks as { NS: number; EW: number };
      expect([Number(row.cell('Tricks_NS')), Number(row.cell('Tricks_EW'))]).toEqual([tricks.NS, tricks.EW]);
    }
    // The seed's plus or minus against the average travels as a user-defined column of the TotalScoreTable.
    const total = readPbnTables(text, 'TotalScoreTable')[0];
    expect(total.columns).toContain('VsAverage');
    expect(total.rows.map((r) => r[total.columns.indexOf('VsAverage')])).toEqual(['+14.5', '+0.5', '-0.5']);
    expect(parsePbn(text).records[0].tags.TrumpCard).toBe('H7');
  });

  it('escapes tag values: a club name with quotes and a backslash reads back unchanged', () => {
    const s = bridgeSession({ club: 'The "Back\\slash" Club' });
    const parsed = parsePbn(exportPbn(s));
    expect(parsed.errors).toEqual([]);
    expect(parsed.records[0].tags.Site).toBe('The "Back\\slash" Club');
  });
});

describe('USEBIO 1.2 export', () => {
  it('is well-formed XML: USEBIO Version="1.2" > CLUB/CLUB_NAME and EVENT with EVENT_TYPE, DATE (DD/MM/YYYY), BOARD_SCORING_METHOD', () => {
    const s = bridgeSession();
    const root = parseXml(exportUsebio(s));
    expect(root.name).toBe('USEBIO');
    expect(root.attrs.Version).toBe('1.2');
    expect(textOf(kid(root, 'CLUB'), 'CLUB_NAME')).toBe(s.club);
    const event = kid(root, 'EVENT');
    expect(event.attrs.EVENT_TYPE).toBe('PAIRS');
    expect(textOf(event, 'DATE')).toBe('03/12/2026');
    expect(textOf(event, 'BOARD_SCORING_METHOD')).toBe('MATCH_POINTS');
    expect(textOf(event, 'BOARDS_PLAYED')).toBe('4');
  });

  it('PARTICIPANTS/PAIR: a Mitchell\'s "3NS" is PAIR_NUMBER 3 with DIRECTION NS (two winners), with PLACE, TOTAL_SCORE and each PLAYER/PLAYER_NAME escaped and read back', () => {
    const s = bridgeSession();
    const event = kid(parseXml(exportUsebio(s)), 'EVENT');
    expect(textOf(event, 'WINNER_TYPE')).toBe('2');
    const pairs = kids(kid(event, 'PARTICIPANTS'), 'PAIR');
    expect(pairs).toHaveLength(4);
    for (const p of s.report.pairs) {
      const [, n, dir] = /^(\d+)(NS|EW)$/.exec(p.pair)!;
      const el = pairs.find((x) => textOf(x, 'PAIR_NUMBER') === n && textOf(x, 'DIRECTION') === dir)!;
      expect(el, p.pair).toBeDefined();
      // Two winners: the place is within the pair's direction (issue 19: not 1-4 across both directions).
      const rivals = s.report.pairs.filter((o) => o.pair.endsWith(dir));
      expect(Number(textOf(el, 'PLACE')!.replace('=', ''))).toBe(1 + rivals.filter((o) => o.rank < p.rank).length);
      expect(Number(textOf(el, 'TOTAL_SCORE'))).toBe(p.total);
      expect(kids(el, 'PLAYER').map((pl) => textOf(pl, 'PLAYER_NAME'))).toEqual(s.names![p.pair]);
    }
  });

  it('BOARD/TRAVELLER_LINE: NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT, PLAYED_BY, TRICKS, SCORE (N-S), NS_MATCH_POINTS, EW_MATCH_POINTS for every result', () => {
    const s = bridgeSession();
    const event = kid(parseXml(exportUsebio(s)), 'EVENT');
    const boards = kids(event, 'BOARD');
    expect(boards.map((b) => Number(textOf(b, 'BOARD_NUMBER')))).toEqual([1, 2, 3, 4]);
    let seen = 0;
    for (const b of boards) {
      for (const line of kids(b, 'TRAVELLER_LINE')) {
        seen++;
        const board = Number(textOf(b, 'BOARD_NUMBER'));
        const r = BRIDGE_RESULTS.find((x) => x.t.board === board && x.t.ns.startsWith(textOf(line, 'NS_PAIR_NUMBER')!) && x.t.ew.startsWith(textOf(line, 'EW_PAIR_NUMBER')!))!;
        expect(r).toBeDefined();
        if (r.t.contract === 'PASS') {
          expect(textOf(line, 'CONTRACT')).toBe('PASS');
          expect(textOf(line, 'PLAYED_BY')).toBeUndefined();
        } else {
          const m = /^(\d(?:NT|[SHDC]))([NESW])(X{0,2})$/.exec(r.t.contract!)!;
          expect(textOf(line, 'CONTRACT')).toBe(m[1] + m[3]);
          expect(textOf(line, 'PLAYED_BY')).toBe(m[2]);
          expect(Number(textOf(line, 'TRICKS'))).toBe(r.t.tricks);
        }
        expect(Number(textOf(line, 'SCORE'))).toBe(r.score);
        expect([Number(textOf(line, 'NS_MATCH_POINTS')), Number(textOf(line, 'EW_MATCH_POINTS'))]).toEqual(r.mp);
      }
    }
    expect(seen).toBe(BRIDGE_RESULTS.length);
  });

  it('HANDSET: every board\'s four HANDs by DIRECTION with SPADES HEARTS DIAMONDS CLUBS, equal to the tray record', () => {
    const s = bridgeSession();
    const handset = kid(kid(parseXml(exportUsebio(s)), 'EVENT'), 'HANDSET');
    const boards = kids(handset, 'BOARD');
    expect(boards).toHaveLength(4);
    for (const b of boards) {
      const tray = s.records.find((r) => r.board === Number(textOf(b, 'BOARD_NUMBER')))!;
      expect(textOf(b, 'DEALER')).toBe(tray.dealer);
      const bySeat = Object.fromEntries(kids(b, 'HAND').map((h) => [textOf(h, 'DIRECTION'), ['SPADES', 'HEARTS', 'DIAMONDS', 'CLUBS'].map((suit) => textOf(h, suit) ?? '').join('.')]));
      expect(`N:${bySeat.N} ${bySeat.E} ${bySeat.S} ${bySeat.W}`).toBe(tray.hands);
    }
  });

  it('whist: no CONTRACT or PLAYED_BY; TRICKS is N-S\'s tricks and SCORE N-S\'s less E-W\'s, as the comment in the file says', () => {
    const s = whistSession();
    const xml = exportUsebio(s);
    expect(xml).toMatch(/<!-- Whist: no CONTRACT or PLAYED_BY\. TRICKS is the N-S side's tricks/);
    const event = kid(parseXml(xml), 'EVENT');
    expect(textOf(event, 'BOARD_SCORING_METHOD')).toBe('AGGREGATE');
    const lines = kids(event, 'BOARD').flatMap((b) => kids(b, 'TRAVELLER_LINE'));
    expect(lines).toHaveLength(4);
    for (const [i, t] of s.travellers.entries()) {
      const tricks = t.tricks as { NS: number; EW: number };
      expect(textOf(lines[i], 'CONTRACT')).toBeUndefined();
      expect(Number(textOf(lines[i], 'TRICKS'))).toBe(tricks.NS);
      expect(Number(textOf(lines[i], 'SCORE'))).toBe(tricks.NS - tricks.EW);
    }
  });

  it('a Howell\'s pairs change direction, so they are numbered 1..n in the schedule\'s order and the file names the mapping', () => {
    const s = bridgeSession();
    s.schedule = { ...s.schedule, movement: 'howell', participants: ['1NS', '1EW', '2NS', '2EW'] };
    s.travellers = s.travellers.map((t, i) => (i === 1 ? { ...t, ns: '1EW', ew: '2NS' } : t));
    const { numbers, winners } = usebioPairNumbers(s);
    expect(winners).toBe(1);
    expect(['1NS', '1EW', '2NS', '2EW'].map((id) => numbers.get(id)?.number)).toEqual(['1', '2', '3', '4']);
    const xml = exportUsebio(s);
    expect(xml).toContain('Pair numbers: 1 is 1NS, 2 is 1EW, 3 is 2NS, 4 is 2EW.');
    const line = kids(kid(parseXml(xml), 'EVENT'), 'BOARD')[0].children.filter((c) => c.name === 'TRAVELLER_LINE')[1];
    expect([textOf(line, 'NS_PAIR_NUMBER'), textOf(line, 'EW_PAIR_NUMBER')]).toEqual(['2', '3']);
  });

  it('stays well-formed for any club and player names (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (club, player) => {
      const s = bridgeSession({ club, names: { '1NS': [player, 'x'] } });
      const root = parseXml(exportUsebio(s));
      // XML 1.0 cannot carry most control characters; the export drops them, and keeps everything else.
      const keep = (t: string) => t.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/\p{Cs}/gu, '');
      const clean = (t: string) => keep(t).replace(/\r\n?/g, '\n');
      expect(clean(textOf(kid(root, 'CLUB'), 'CLUB_NAME') ?? '')).toBe(clean(club).trim());
      const pair = kids(kid(kid(root, 'EVENT'), 'PARTICIPANTS'), 'PAIR').find((p) => textOf(p, 'PAIR_NUMBER') === '1' && textOf(p, 'DIRECTION') === 'NS')!;
      expect(clean(textOf(kids(pair, 'PLAYER')[0], 'PLAYER_NAME') ?? '')).toBe(clean(player).trim());
    }), { numRuns: 200 });
  });
});

describe('CSV travellers (RFC 4180)', () => {
  it('a header row, then one line per result with the contract, declarer, tricks, N-S score and matchpoints', () => {
    const s = bridgeSession();
    const text = exportCsv(s);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + BRIDGE_RESULTS.length);
    const col = (row: string[], c: string) => row[CSV_COLUMNS.indexOf(c as (typeof CSV_COLUMNS)[number])];
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(CSV_COLUMNS.length);
      const r = BRIDGE_RESULTS.find((x) => x.t.board === Number(col(row, 'board')) && x.t.ns === col(row, 'ns') && x.t.ew === col(row, 'ew'))!;
      expect(r).toBeDefined();
      expect(col(row, 'table')).toBe(String(r.t.table));
      expect(col(row, 'round')).toBe(String(r.t.round));
      expect(Number(col(row, 'ns_score'))).toBe(r.score);
      expect([Number(col(row, 'ns_mp')), Number(col(row, 'ew_mp'))]).toEqual(r.mp);
      if (r.t.contract !== 'PASS') expect(col(row, 'declarer') + col(row, 'declarer_tricks')).toBe(r.t.contract!.replace(/^\d(?:NT|[SHDC])/, '').replace(/X+$/, '') + r.t.tricks);
    }
    // Sorted by board, then round.
    const keys = rows.slice(1).map((r) => Number(col(r, 'board')) * 100 + Number(col(r, 'round')));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });

  it('whist lines carry each side\'s tricks and no contract', () => {
    const rows = parseCsv(exportCsv(whistSession()));
    const i = (c: string) => CSV_COLUMNS.indexOf(c as (typeof CSV_COLUMNS)[number]);
    expect(rows.slice(1).map((r) => [r[i('ns_tricks')], r[i('ew_tricks')], r[i('contract')]])).toEqual([['8', '5', ''], ['6', '7', ''], ['4', '9', ''], ['5', '8', '']]);
  });

  it('quotes a field with a comma, a quote or a line break and doubles its quotes; any pair id survives the round trip (property)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('plain')).toBe('plain');
    fc.assert(fc.property(fc.string(), fc.string(), (ns, ew) => {
      const s = bridgeSession({ travellers: [{ board: 1, ns, ew, table: 1, round: 1, contract: '4SN', tricks: 10 }] });
      const rows = parseCsv(exportCsv(s));
      expect(rows).toHaveLength(2);
      expect([rows[1][CSV_COLUMNS.indexOf('ns')], rows[1][CSV_COLUMNS.indexOf('ew')]]).toEqual([ns, ew]);
    }), { numRuns: 200 });
  });
});

describe('the PBN export is what `tenace score` reads', () => {
  it('readPbnTravellers gets back every traveller of a bridge and of a whist session from the ScoreTables', () => {
    for (const s of [bridgeSession(), whistSession()]) {
      const read = readPbnTravellers(exportPbn(s));
      expect(read.errors).toEqual([]);
      const key = (t: Traveller) => `${t.board} ${t.ns} ${t.ew}`;
      const norm = (t: Traveller) => ({ board: t.board, ns: t.ns, ew: t.ew, table: Number(t.table), round: t.round, contract: t.contract, tricks: t.tricks });
      const sorted = (ts: readonly Traveller[]) => [...ts].sort((a, b) => key(a).localeCompare(key(b))).map(norm);
      expect(sorted(read.travellers as Traveller[])).toEqual(sorted(s.travellers));
    }
  });

  it('carries what Dup. X.4 needs through the file ("the revoking side\'s score ... not less than the minimum"): made, the marks, the tricks won before the revoke', () => {
    const s = whistSession();
    s.travellers[1] = { ...s.travellers[1], tricks: { NS: 4, EW: 9 }, made: { NS: 6, EW: 7 }, marks: { NS: '-R', EW: '+R' }, wonBeforeRevoke: { NS: 3 } };
    const read = readPbnTravellers(exportPbn(s));
    expect(read.errors).toEqual([]);
    const back = read.travellers.find((t) => t.board === 1 && t.ns === '2NS')!;
    expect([back.tricks, back.made, back.marks, back.wonBeforeRevoke]).toEqual([{ NS: 4, EW: 9 }, { NS: 6, EW: 7 }, { NS: '-R', EW: '+R' }, { NS: 3 }]);
    // A line without a revoke reads back without them.
    const plain = read.travellers.find((t) => t.board === 1 && t.ns === '1NS')!;
    expect([plain.made, plain.marks, plain.wonBeforeRevoke]).toEqual([undefined, undefined, undefined]);
  });
});

describe('an adjusted score', () => {
  it('has no contract: PBN writes "-" and the percentages with "^" (§5.2: an artificial score is preceded by "^"), USEBIO and CSV name the award', () => {
    const s = bridgeSession();
    s.travellers = s.travellers.map((t, i) => (i === 0 ? { board: t.board, ns: t.ns, ew: t.ew, table: t.table, round: t.round, adjusted: { NS: 60, EW: 40 } } : t));
    const text = exportPbn(s);
    expect(parsePbn(text).errors).toEqual([]);
    const t = readPbnTables(text, 'ScoreTable')[0];
    const row = t.rows.find((r) => r[t.columns.indexOf('PairId_NS')] === '1NS')!;
    const cell = (c: string) => row[t.columns.indexOf(c)];
    expect([cell('Contract'), cell('Declarer'), cell('Result')]).toEqual(['-', '-', '-']);
    expect([cell('Percentage_NS'), cell('Percentage_EW')]).toEqual(['^60', '^40']);
    const other = t.rows.find((r) => r[t.columns.indexOf('PairId_NS')] === '2NS')!;
    expect(other[t.columns.indexOf('Percentage_NS')]).toBe('-');
    const xml = exportUsebio(s);
    expect(xml).toContain('<!-- adjusted: N-S 60%, E-W 40% -->');
    const line = kids(kid(parseXml(xml), 'EVENT'), 'BOARD')[0].children.filter((c) => c.name === 'TRAVELLER_LINE')[0];
    expect(textOf(line, 'CONTRACT')).toBeUndefined();
    const rows = parseCsv(exportCsv(s));
    expect(rows[1][CSV_COLUMNS.indexOf('adjusted')]).toBe('NS 60% EW 40%');
    expect(rows[1][CSV_COLUMNS.indexOf('contract')]).toBe('');
    // The Adjusted column (our extension) gives the award as the traveller has it.
    expect(cell('Adjusted')).toBe('NS:60,EW:40');
  });

  it('Dup. V.1: a whist table\'s "average score for the deal" survives the PBN export and `tenace score` reads it back', () => {
    const s = whistSession();
    const target = s.travellers[1];
    s.travellers = s.travellers.map((t) => (t === target ? { ...t, adjusted: 'average' } : t));
    const read = readPbnTravellers(exportPbn(s));
    expect(read.errors).toEqual([]);
    const back = read.travellers.find((x) => x.board === target.board && x.ns === target.ns && x.ew === target.ew)!;
    expect(back.adjusted).toBe('average');
    expect(back.tricks).toEqual(target.tricks);
    expect(read.travellers.filter((x) => x.adjusted !== undefined)).toHaveLength(1);
  });

  it('Law 12C2: a bridge result the director replaced by an artificial score (no contract) is read back as that award', () => {
    const s = bridgeSession();
    s.travellers = s.travellers.map((t, i) => (i === 0 ? { board: t.board, ns: t.ns, ew: t.ew, table: t.table, round: t.round, adjusted: 'average-plus' as const } : t));
    const read = readPbnTravellers(exportPbn(s));
    expect(read.errors).toEqual([]);
    expect(read.travellers).toHaveLength(s.travellers.length);
    const back = read.travellers.find((x) => x.board === s.travellers[0].board && x.ns === s.travellers[0].ns)!;
    expect([back.adjusted, back.contract, back.tricks]).toEqual(['average-plus', undefined, undefined]);
    // The other rows keep their contracts, so the file is a bridge file and the award is scored as one.
    expect(read.travellers.filter((x) => x.contract !== undefined)).toHaveLength(s.travellers.length - 1);
  });

  it('an Adjusted cell that is not an adjustment is an error naming the values to give', () => {
    const s = whistSession();
    s.travellers = s.travellers.map((t, i) => (i === 0 ? { ...t, adjusted: 'average' } : t));
    const text = exportPbn(s);
    const t = readPbnTables(text, 'ScoreTable')[0];
    expect(t.rows[0][t.columns.indexOf('Adjusted')]).toBe('average');
    const read = readPbnTravellers(text.replace(/\^50 average\b/, '^50 avrage'));
    expect(read.errors.map((e) => e.message)).toEqual(['ScoreTable: Adjusted "avrage" is not an adjustment: give average, average-plus, average-minus or NS:60,EW:40']);
  });
});

describe('sessionExports', () => {
  it('gives the three exports of the session as it is when asked', () => {
    let s = bridgeSession();
    const ex = sessionExports(() => s);
    expect(parseCsv(ex.csv())).toHaveLength(1 + BRIDGE_RESULTS.length);
    s = whistSession();
    expect(parseCsv(ex.csv())).toHaveLength(1 + 4);
    expect(ex.pbn()).toMatch(/^% Whist/m);
    expect(parseXml(ex.usebio()).name).toBe('USEBIO');
  });
});
