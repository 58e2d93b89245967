// The public results as HTML, for people: rankings per direction with names, each table's progress while the session
// runs, and for each released board its hands, its traveller and what the tables found. One renderer for the room's
// screen (served live, refreshing itself) and for the static folder a club uploads to its website. No script: it
// prints, and it works on any phone.
import type { PublicBoard, PublicResults } from './public-results.js';
import type { ParContract, Strain } from '../../dd/types.js';

const SUIT: Record<string, [string, boolean]> = { S: ['♠', false], H: ['♥', true], D: ['♦', true], C: ['♣', false] };
const SEAT_NAMES: Record<string, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };
const METHOD: Record<string, string> = { matchpoints: 'Matchpoints', 'cross-imps': 'Cross-IMPs', butler: 'Butler IMPs', average: 'Tricks against the average' };

/** Escape text for HTML. */
export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A suit letter as its coloured symbol. */
export function suit(s: string): string {
  const [sym, red] = SUIT[s] ?? [s, false];
  return `<span class="${red ? 'red' : 'black'}">${sym}</span>`;
}

/** "4HE", "3NTSX", "PASS" → "4♥ E", "3NT S ×", "Passed out". */
export function contract(c: string | undefined): string {
  if (c === undefined) return '–';
  if (/^pass$/i.test(c)) return 'Passed out';
  const m = /^([1-7])(NT|[SHDC])([NESW])(X{0,2})$/.exec(c);
  if (!m) return esc(c);
  return `${m[1]}${m[2] === 'NT' ? 'NT' : suit(m[2])}${m[4] === 'X' ? '×' : m[4] === 'XX' ? '××' : ''} ${m[3]}`;
}

/** A hand "AKQ.JT9.876.5432" as four lines of suits. */
function hand(pbn: string): string {
  return pbn.split('.').map((cards, i) => `<div>${suit('SHDC'[i])} ${cards === '' ? '—' : esc(cards.replace(/T/g, '10'))}</div>`).join('');
}

/** The four hands of a PBN deal ("N:... ... ... ...") in the compass layout a hand record uses. */
function deal(b: PublicBoard): string {
  if (!b.hands) return '';
  const m = /^([NESW]):(.*)$/.exec(b.hands.trim());
  if (!m) return '';
  const order = ['N', 'E', 'S', 'W'];
  const first = order.indexOf(m[1]);
  const by: Record<string, string> = {};
  m[2].trim().split(/\s+/).forEach((h, i) => { by[order[(first + i) % 4]] = h; });
  const cell = (seat: string) => `<div class="hand ${seat}"><b>${SEAT_NAMES[seat]}${b.dealer === seat ? ' (dealer)' : ''}</b>${hand(by[seat] ?? '...')}</div>`;
  const facts = [b.vulnerable ? `Vulnerable: ${esc(b.vulnerable === 'None' ? 'none' : b.vulnerable === 'All' ? 'both' : b.vulnerable)}` : '', b.trumpCard ? `Trump card ${suit(b.trumpCard[0])}${esc(b.trumpCard.slice(1).replace('T', '10'))}` : '']
    .filter(Boolean).join(' · ');
  return `<div class="deal">${cell('N')}${cell('W')}<div class="centre">${facts}</div>${cell('E')}${cell('S')}</div>`;
}

function traveller(b: PublicBoard, method: string | null): string {
  const bridge = b.results.some((r) => r.contract !== undefined || r.score !== undefined);
  const head = bridge
    ? '<tr><th>Table</th><th>N-S</th><th>E-W</th><th>Contract</th><th>Tricks</th><th>Score N-S</th><th>Score E-W</th><th>N-S</th><th>E-W</th></tr>'
    : '<tr><th>Table</th><th>N-S</th><th>E-W</th><th>Tricks N-S</th><th>Tricks E-W</th></tr>';
  const pts = (r: PublicBoard['results'][number], d: 'NS' | 'EW') => (r.mp ? esc(r.mp[d]) : r.imps ? esc(r.imps[d]) : '–');
  const rows = b.results.map((r) => {
    const by = r.handScored ? ' <small title="entered by hand: the cards were not checked">by hand</small>' : '';
    if (!bridge) return `<tr><td>${esc(r.table ?? '')}${by}</td><td>${esc(r.ns)}</td><td>${esc(r.ew)}</td><td>${esc(r.tricks?.NS ?? '–')}</td><td>${esc(r.tricks?.EW ?? '–')}</td></tr>`;
    const score = r.score ?? 0;
    return `<tr><td>${esc(r.table ?? '')}${by}</td><td>${esc(r.ns)}</td><td>${esc(r.ew)}</td><td>${r.contract === undefined ? 'Adjusted' : contract(r.contract)}</td>`
      + `<td>${esc(r.declarerTricks ?? '–')}</td><td>${score > 0 ? esc(score) : ''}</td><td>${score < 0 ? esc(-score) : ''}</td><td>${pts(r, 'NS')}</td><td>${pts(r, 'EW')}</td></tr>`;
  }).join('');
  const unit = method === 'matchpoints' ? `Matchpoints (top ${esc(b.top ?? '–')})` : method && method !== 'average' ? 'IMPs' : '';
  return `<table class="traveller">${unit ? `<caption>${unit}</caption>` : ''}<thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

/** A par contract as the page writes it: "4♠ N-S", "5♦× E-W" (a sacrifice), "3NT S". */
function parContract(c: ParContract): string {
  const by = c.by === 'NS' ? 'N-S' : c.by === 'EW' ? 'E-W' : c.by;
  return `${c.level + c.overtricks}${c.strain === 'NT' ? 'NT' : suit(c.strain)}${c.doubled ? '×' : ''} ${by}`;
}

/**
 * Issue 21: the board's double-dummy table, NT first as club results print it (the tricks each seat takes as declarer
 * with best play by both sides), and for bridge the par: North-South's score with best bidding, and its contracts.
 */
function doubleDummy(b: PublicBoard): string {
  if (!b.dd) return '';
  const strains: Strain[] = ['NT', 'S', 'H', 'D', 'C'];
  const t = b.dd.table;
  const head = `<tr><th>Declarer</th>${strains.map((st) => `<th>${st === 'NT' ? 'NT' : suit(st)}</th>`).join('')}</tr>`;
  const rows = (['N', 'S', 'E', 'W'] as const).map((seat) => `<tr><td>${SEAT_NAMES[seat]}</td>${strains.map((st) => `<td>${t[st][seat]}</td>`).join('')}</tr>`).join('');
  const p = b.dd.par;
  const par = !p ? ''
    : p.score === 0 && p.contracts.length === 0 ? '<p class="par">Par: 0, passed out</p>'
      : `<p class="par">Par: ${p.score >= 0 ? 'N-S' : 'E-W'} +${Math.abs(p.score)}, ${p.contracts.map(parContract).join(' or ')}</p>`;
  return `<div class="dd"><table class="dd-table"><caption>Double dummy: tricks by declarer</caption><thead>${head}</thead><tbody>${rows}</tbody></table>${par}</div>`;
}

function board(b: PublicBoard, method: string | null): string {
  const findings = b.findings.length === 0 ? ''
    : `<ul class="findings">${b.findings.map((f) => `<li>${f.table ? `Table ${esc(f.table)}: ` : ''}${esc(f.message)}${f.law ? ` <small>(${esc(f.law)})</small>` : ''}</li>`).join('')}</ul>`;
  return `<section class="board" id="board-${b.board}"><h3>Board ${b.board}</h3>${deal(b)}${doubleDummy(b)}${traveller(b, method)}${findings}</section>`;
}

function rankings(r: PublicResults): string {
  if (r.pairs.length === 0) return '<p class="none">No results yet.</p>';
  const fields = new Map<string, PublicResults['pairs']>();
  for (const p of r.pairs) fields.set(p.direction ?? '', [...(fields.get(p.direction ?? '') ?? []), p]);
  const title = (d: string) => (d === 'NS' ? 'North-South' : d === 'EW' ? 'East-West' : 'All pairs');
  const hasPercent = r.pairs.some((p) => p.percent !== undefined);
  return [...fields].map(([d, pairs]) => `<table class="rank"><caption>${title(d)}</caption><thead><tr><th>Place</th><th>Pair</th><th>Players</th><th>Score</th>${hasPercent ? '<th>%</th>' : ''}</tr></thead><tbody>`
    + pairs.map((p) => `<tr><td>${esc(p.rank)}</td><td>${esc(p.pair)}</td><td>${esc(p.names ?? '')}</td><td>${esc(p.total)}</td>${hasPercent ? `<td>${p.percent === undefined ? '' : esc(p.percent.toFixed(2))}</td>` : ''}</tr>`).join('')
    + '</tbody></table>').join('');
}

function progress(r: PublicResults, live: boolean): string {
  if (r.complete) return '';
  // The room's page links each table to its live view; the static folder has no live view to link to.
  const name = (t: string) => (live ? `<a href="table/${encodeURIComponent(t)}">Table ${esc(t)}</a>` : `Table ${esc(t)}`);
  return `<section><h2>The tables</h2><div class="tables">${r.tables.map((t) => `<div class="table"><b>${name(t.table)}</b> round ${t.round}: ${t.played} of ${t.of} played`
    + `${t.board !== undefined ? `<br>now board ${t.board}${t.trick !== undefined ? `, trick ${t.trick}` : ''}` : ''}</div>`).join('')}</div></section>`;
}

/** The whole page. `live`: the session's own page, refreshing itself every `refreshSeconds` while it runs. */
export function renderResultsHtml(r: PublicResults, opts: { live: boolean; refreshSeconds?: number }): string {
  const live = opts.live && !r.complete;
  const state = r.complete ? 'Final results' : `Round ${r.round} of ${r.rounds}: results so far`;
  const game = r.variant === 'bridge' ? 'Bridge' : r.variant.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const boards = r.boards.length === 0 ? '<p class="none">Each board appears here once every table has played it.</p>' : r.boards.map((b) => board(b, r.method)).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${live ? `<meta http-equiv="refresh" content="${opts.refreshSeconds ?? 15}">` : ''}<title>${esc(r.club)} · ${esc(r.session)}: results</title>
<link rel="stylesheet" href="style.css"></head><body>
<header><h1>${esc(r.club)} · ${esc(r.session)}</h1><p>${esc(game)} · ${esc(r.movement)} · ${esc(METHOD[r.method ?? ''] ?? '')}</p><p class="state">${state}</p></header>
<main>${progress(r, live)}<section><h2>Rankings</h2>${rankings(r)}</section><section><h2>Boards</h2>${boards}</section></main>
<footer>Scored by tenace · ${esc(r.at.slice(0, 16).replace('T', ' '))} UTC</footer>
</body></html>
`;
}

/** The page's stylesheet: large print for the room's screen, clean for paper. */
export const RESULTS_CSS = `body{margin:0;font:18px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff}
header{background:#052a1b;color:#fff;padding:.6rem 1rem}header h1{margin:0;font-size:1.4rem}header p{margin:.2rem 0}.state{font-weight:700;color:#ffd54a}
main{padding:.5rem 1rem;max-width:1100px}h2{font-size:1.25rem;border-bottom:2px solid #052a1b;margin:1rem 0 .5rem}h3{margin:.8rem 0 .3rem}
table{border-collapse:collapse;margin:.3rem 0 1rem;min-width:min(100%,520px)}caption{text-align:left;font-weight:700;padding:.2rem 0}
th,td{border-bottom:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#eef3ef}
.red{color:#c0001a}.black{color:#111}.none{color:#555;font-style:italic}small{color:#555}
.tables{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fill,minmax(180px,1fr))}.table{border:1px solid #bbb;border-radius:.4rem;padding:.4rem .6rem}
.deal{display:grid;grid-template-columns:repeat(3,minmax(0,11rem));grid-template-areas:". n ." "w c e" ". s .";gap:.3rem;margin:.3rem 0}
.hand.N{grid-area:n}.hand.W{grid-area:w}.hand.E{grid-area:e}.hand.S{grid-area:s}.centre{grid-area:c;align-self:center;font-size:.85rem;color:#333}
.findings li{margin:.2rem 0}.big{font-size:1.3rem;font-weight:700}.tricks td.won{font-weight:800;text-decoration:underline}.tricks tr.now{background:#fff6d6}
.dd{display:flex;flex-wrap:wrap;gap:0 1.5rem;align-items:flex-end}.dd-table{min-width:0}.dd-table td,.dd-table th{text-align:center}
.dd-table td:first-child{text-align:left}.par{margin:.3rem 0 1rem;font-weight:600}footer{padding:1rem;color:#555;font-size:.85rem}
@media (max-width:600px){body{font-size:16px}.deal{grid-template-columns:repeat(3,minmax(0,1fr))}table{font-size:.9rem}th,td{padding:.2rem .3rem}}
@media print{header{background:none;color:#000}.state{color:#000}.board{break-inside:avoid}}
`;
