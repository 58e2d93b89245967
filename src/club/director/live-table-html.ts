// One table's live view as HTML, for a phone in the room (the public results link each table to it). It refreshes
// itself, needs no script, and shows the cards only when the view says they may be shown.
import type { LiveTable } from './live-table.js';
import { contract, esc, suit } from './results-html.js';

const SEAT_NAMES: Record<string, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };
const ORDER = ['N', 'E', 'S', 'W'] as const;

const card = (c: string | undefined) => (c ? `${suit(c[0])}${esc(c.slice(1).replace('T', '10'))}` : '');

/** The page of one table, refreshing every `refreshSeconds`. */
export function renderLiveTableHtml(v: LiveTable, refreshSeconds = 5): string {
  const pair = (id: string | undefined) => (id ? `${esc(id)}${v.names[id] ? ` (${esc(v.names[id])})` : ''}` : '–');
  const d = v.deal;
  let body: string;
  if (!d) body = '<p class="none">No board has been started at this table yet.</p>';
  else if (!d.shown) {
    body = `<p class="big">Board ${d.board}: ${d.over ? 'played' : `trick ${d.trick}`}</p>
<p class="none">The cards of board ${d.board} are shown here once every other table has played it.</p>`;
  } else {
    const rows = (d.tricks ?? []).map((t, i) => `<tr><td>${i + 1}</td>${ORDER.map((s) => `<td${t.winner === s ? ' class="won"' : ''}>${card(t.cards[s])}</td>`).join('')}</tr>`).join('');
    const current = d.current?.length ? `<tr class="now"><td>${d.trick}</td>${ORDER.map((s) => `<td>${card(d.current!.find((c) => c.seat === s)?.card)}</td>`).join('')}</tr>` : '';
    body = `<p class="big">Board ${d.board}${d.contract ? ` · ${contract(d.contract)}` : ''}: ${d.over ? 'played' : `trick ${d.trick}`} · N-S ${d.won!.NS}, E-W ${d.won!.EW} tricks</p>
<table class="tricks"><thead><tr><th>Trick</th>${ORDER.map((s) => `<th>${SEAT_NAMES[s]}</th>`).join('')}</tr></thead><tbody>${rows}${current}</tbody></table>
<p class="none">The winner of each trick is in bold.</p>`;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${refreshSeconds}"><title>Table ${esc(v.table)} · ${esc(v.session)}</title>
<link rel="stylesheet" href="../style.css"></head><body>
<header><h1>Table ${esc(v.table)}${v.round !== null ? ` · round ${v.round}` : ''}</h1><p>N-S ${pair(v.ns)} · E-W ${pair(v.ew)}</p></header>
<main>${body}<p><a href="../">Back to the results</a></p></main>
</body></html>
`;
}
