// The director's page: draws the director's session snapshot (tables × rounds, alerts with their laws, a tray's record
// with the tray doctor's moves, live standings). The first snapshot comes from /snapshot.json, every later one over
// Server-Sent Events from /events. All text goes in with textContent: names and messages come from the tables.
const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SEATS = ['N', 'E', 'S', 'W'];
const SEAT_NAME = { N: 'North', E: 'East', S: 'South', W: 'West' };
const KIND = { 'wrong-tray': 'Wrong tray', 'fouled-tray': 'Fouled tray', 'missing-result': 'Missing result', 'late-play': 'Late play' };
const REMEDY = { 'new-deal': 'New deal', rectify: 'Rectify the tray' };

/** The remedy's name, naming the table that takes the average where one does. */
function remedyText(outcome, table) {
  if (outcome.remedy === 'rectify-and-average') return `Rectify, and table ${table ?? '?'} takes the average`;
  return REMEDY[outcome.remedy] ?? outcome.remedy;
}
const STATUS = { online: 'online', offline: 'offline', unknown: 'not heard from' };

/** A table's latest claim: what was claimed of the tricks left, and what best play from the cards left gives. */
function claimLine(c) {
  const side = c.seat === 'N' || c.seat === 'S' ? 'N-S' : 'E-W';
  const best = c.canTake === undefined ? '' : ` · best play: ${c.canTake}`;
  const line = el('span', `claim${c.canTake !== undefined && c.canTake < c.claimed ? ' short' : ''}`,
    `board ${c.board}: ${SEAT_NAME[c.seat]} claims ${c.claimed} of ${c.left} for ${side}${best}`);
  line.dataset.claimed = String(c.claimed);
  if (c.canTake !== undefined) line.dataset.canTake = String(c.canTake);
  return line;
}
export const $ = (id) => document.getElementById(id);

const state = { snap: null, selected: null, rev: 0 };

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/** "H7" → "♥7" (T as 10), in a span coloured by suit. */
export function cardEl(card) {
  const c = String(card ?? '');
  const e = el('span', `card ${c[0] ?? ''}`, `${SUIT[c[0]] ?? c[0] ?? ''}${c[1] === 'T' ? '10' : c.slice(1)}`);
  e.dataset.card = c;
  return e;
}

function cardText(card) {
  const c = String(card ?? '');
  return `${SUIT[c[0]] ?? c[0] ?? ''}${c[1] === 'T' ? '10' : c.slice(1)}`;
}

/** A table's sentence with its card tokens ("DT", "C5") as the page writes cards everywhere else ("♦10", "♣5"). */
export function withCardSymbols(text) {
  return String(text ?? '').replace(/\b([SHDC])([2-9TJQKA])\b/g, (_, s, r) => cardText(s + r));
}

/** The four hands of a PBN deal ("N:AKQ.JT9.876.5432 ..."), by seat, each four suit strings (S H D C). */
function handsOf(deal) {
  const text = String(deal ?? '').trim();
  const first = SEATS.indexOf(text[0]);
  const out = {};
  if (first < 0 || text[1] !== ':') return out;
  text.slice(2).trim().split(/\s+/).forEach((hand, i) => {
    const seat = SEATS[(first + i) % 4];
    out[seat] = hand === '-' ? null : hand.split('.');
  });
  return out;
}

/** A time from an ISO string as HH:MM:SS (the page shows the director's clock as the snapshot gives it). */
export function clock(at) {
  const m = /T(\d\d:\d\d:\d\d)/.exec(String(at ?? ''));
  return m ? m[1] : String(at ?? '');
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function selectBoard(board) {
  state.selected = board;
  drawTray();
  const panel = $('tray');
  if (!panel.hidden) panel.scrollIntoView({ block: 'nearest', behavior: 'instant' });
}

// ------------------------------------------------------------------------------------------------------------------
// The tables × rounds grid

/** True when the tray was found fouled at this table in this round (not wherever else it is played). */
function fouledHere(tray, board, tableName, round) {
  const alerts = [...state.snap.alerts.filter((a) => a.kind === 'fouled-tray' && a.board === board), ...(tray?.fouled ? [tray.fouled] : [])];
  return alerts.some((a) => String(a.table) === tableName && (a.round === undefined || a.round === round));
}

function trayButton(board, tableName, round) {
  const snap = state.snap;
  const tray = snap.trays.find((t) => t.board === board);
  const b = el('button', 'tray-btn', String(board));
  b.type = 'button';
  b.dataset.board = String(board);
  const states = [];
  if (fouledHere(tray, board, tableName, round)) { b.classList.add('fouled'); states.push('found fouled here'); }
  if (tray?.playedAt?.includes(tableName)) { b.classList.add('played'); states.push('played here'); }
  if (tray?.record) b.classList.add('recorded');
  if (snap.findings?.some((f) => f.board === board && f.table === tableName && f.state === 'open')) { b.classList.add('finding'); states.push('a finding to rule'); }
  if (state.selected === board) b.setAttribute('aria-pressed', 'true');
  b.title = `board ${board}${states.length ? ` (${states.join(', ')})` : ''}`;
  b.addEventListener('click', () => selectBoard(board));
  return b;
}

function drawGrid() {
  const snap = state.snap;
  const rounds = snap.schedule.rounds.map((r) => r.round);
  const tableNames = [...new Set([
    ...snap.schedule.rounds.flatMap((r) => r.tables.map((t) => String(t.table))),
    ...snap.tables.map((t) => t.table),
  ])].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  const head = el('tr');
  head.append(el('th', 'corner', 'Table'));
  for (const r of rounds) {
    const th = el('th', r === snap.round ? 'current' : '', `Round ${r}`);
    th.scope = 'col';
    if (r === snap.round) th.setAttribute('aria-current', 'step');
    head.append(th);
  }
  $('grid').tHead.replaceChildren(head);
  const rows = tableNames.map((name) => {
    const view = snap.tables.find((t) => t.table === name);
    const tr = el('tr');
    tr.dataset.table = name;
    const th = el('th', 'table-head');
    th.scope = 'row';
    const status = view?.status ?? 'unknown';
    th.append(el('span', 'table-name', `Table ${name}`), el('span', `dot ${status}`, STATUS[status] ?? status));
    if (view?.manual) th.append(el('span', 'dot manual', 'hand-scored'));
    th.dataset.status = status;
    if (view?.board !== undefined) th.append(el('span', 'now', `board ${view.board}${view.trick ? `, trick ${view.trick}` : ''}`));
    if (view?.claim) th.append(claimLine(view.claim));
    tr.append(th);
    for (const r of rounds) {
      const td = el('td', r === snap.round ? 'current' : '');
      td.dataset.round = String(r);
      const p = snap.progress.find((x) => String(x.table) === name && x.round === r);
      const seat = snap.schedule.rounds.find((x) => x.round === r)?.tables.find((t) => String(t.table) === name);
      if (p) {
        td.dataset.played = String(p.played);
        td.dataset.of = String(p.of);
        td.classList.add(p.of > 0 && p.played >= p.of ? 'done' : p.played > 0 ? 'partial' : 'todo');
        td.append(el('span', 'count', `${p.played}/${p.of}`));
      } else if (!seat) {
        td.classList.add('idle');
        td.append(el('span', 'count', '–'));
      }
      if (seat) {
        const who = seat.ns || seat.ew ? `${seat.ns ?? '?'} v ${seat.ew ?? '?'}` : Object.entries(seat.players ?? {}).map(([s, id]) => `${s} ${id}`).join(' ');
        if (who) td.append(el('span', 'pairs', who));
        const trays = (seat.trays ?? []).filter((b) => b !== null);
        if (trays.length) {
          const box = el('span', 'trays');
          for (const b of trays) box.append(trayButton(b, name, r));
          td.append(box);
        }
      }
      tr.append(td);
    }
    return tr;
  });
  $('grid').tBodies[0].replaceChildren(...rows);
}

// ------------------------------------------------------------------------------------------------------------------
// Alerts, newest first

function alertItem(a) {
  const li = el('li', `alert ${a.kind}`);
  li.dataset.kind = a.kind;
  if (a.board !== undefined) li.dataset.board = String(a.board);
  const head = el('div', 'alert-head');
  head.append(el('b', 'kind', KIND[a.kind] ?? a.kind));
  if (a.law) head.append(el('span', 'law', a.law));
  const where = [`table ${a.table}`];
  if (a.board !== undefined) where.push(`board ${a.board}`);
  if (a.round !== undefined) where.push(`round ${a.round}`);
  head.append(el('span', 'where', where.join(' · ')), el('time', 'at', clock(a.at)));
  li.append(head, el('p', 'message', a.kind === 'fouled-tray' || a.differences?.length ? withCardSymbols(a.message) : a.message));
  if (a.kind === 'wrong-tray' && a.expected?.length) {
    li.append(el('p', 'expected', `This round table ${a.table} plays ${a.expected.length === 1 ? 'board' : 'boards'} ${a.expected.join(', ')}.`));
  }
  if (a.differences?.length) {
    const ul = el('ul', 'differences');
    for (const d of a.differences) {
      const item = el('li');
      item.append(cardEl(d.card), ` is ${SEAT_NAME[d.record] ?? d.record}'s in the record, ${SEAT_NAME[d.table] ?? d.table}'s at this table`);
      ul.append(item);
    }
    li.append(ul);
  }
  if (a.board !== undefined && (a.kind === 'fouled-tray' || a.moves?.length)) {
    const b = el('button', 'open-doctor', 'Open the tray doctor');
    b.type = 'button';
    b.addEventListener('click', () => selectBoard(a.board));
    li.append(b);
  }
  return li;
}

function drawAlerts() {
  const alerts = [...state.snap.alerts].sort((x, y) => String(y.at).localeCompare(String(x.at)) || (y.seq ?? 0) - (x.seq ?? 0));
  $('alert-count').textContent = alerts.length ? String(alerts.length) : '';
  $('alerts').replaceChildren(...(alerts.length ? alerts.map(alertItem) : [el('li', 'none', 'none')]));
}

// ------------------------------------------------------------------------------------------------------------------
// A tray's record and the tray doctor

function sourceText(src) {
  if (!src) return 'unknown';
  if (src.kind === 'original-play') return `original play at table ${src.table} (events ${src.fromSeq}–${src.toSeq}, ${clock(src.at)})`;
  if (src.kind === 'hand-record') return `hand record ${src.file} (${clock(src.at)})`;
  if (src.kind === 'correction') return `correction by ${src.by}: ${src.reason} (${clock(src.at)})`;
  return src.kind;
}

function fact(label, value, id) {
  const span = el('span', 'fact');
  const b = value instanceof Node ? value : el('b', null, value);
  if (id) b.id = id;
  span.append(`${label} `, b);
  return span;
}

function drawTray() {
  const panel = $('tray');
  const snap = state.snap;
  if (!snap || state.selected === null) { panel.hidden = true; return; }
  const board = state.selected;
  const tray = snap.trays.find((t) => t.board === board);
  const rec = tray?.record;
  panel.hidden = false;
  panel.dataset.board = String(board);
  $('tray-board').textContent = String(board);
  const facts = [];
  if (rec) {
    facts.push(fact('Dealer', SEAT_NAME[rec.dealer] ?? rec.dealer, 'tray-dealer'));
    if (rec.vulnerable) facts.push(fact('Vulnerable', rec.vulnerable, 'tray-vul'));
    if (rec.trumpCard) {
      const b = el('b');
      b.id = 'tray-trump';
      b.append(cardEl(rec.trumpCard));
      facts.push(fact('Trump card', b));
    } else if (rec.trump) {
      facts.push(fact('Trump', SUIT[rec.trump] ?? rec.trump, 'tray-trump'));
    }
    facts.push(fact('Source', sourceText(rec.source), 'tray-source'));
    if (rec.rev > 1) facts.push(fact('Revision', String(rec.rev)));
  }
  facts.push(fact('Played at', tray?.playedAt?.length ? tray.playedAt.map((t) => `table ${t}`).join(', ') : 'no table yet', 'tray-played'));
  facts.push(fact('Cards released', tray?.released ? 'yes' : 'not yet', 'tray-released'));
  $('tray-facts').replaceChildren(...facts);

  const hands = rec ? handsOf(rec.hands) : {};
  $('compass').hidden = !rec;
  $('tray-none').hidden = !!rec;
  for (const seat of SEATS) {
    const box = $(`hand-${seat}`);
    const title = el('h3', null, SEAT_NAME[seat]);
    if (rec?.dealer === seat) title.append(el('span', 'dealer-badge', 'dealer'));
    const lines = (hands[seat] ?? ['', '', '', '']).map((ranks, i) => {
      const suit = 'SHDC'[i];
      const line = el('div', `suit-line ${suit}`);
      line.dataset.suit = suit;
      line.append(el('span', `suit ${suit}`, SUIT[suit]), el('span', 'ranks', ranks ? [...ranks].map((r) => (r === 'T' ? '10' : r)).join(' ') : '—'));
      return line;
    });
    box.replaceChildren(title, ...lines);
  }

  // The doctor's moves: the tray's own fouled alert, or the newest fouled-tray alert for this board.
  const fouled = tray?.fouled ?? [...snap.alerts].filter((a) => a.kind === 'fouled-tray' && a.board === board)
    .sort((x, y) => String(y.at).localeCompare(String(x.at)))[0];
  const doctor = $('doctor');
  doctor.hidden = !fouled;
  if (fouled) {
    const moves = (fouled.moves ?? []).map((m) => {
      const li = el('li', 'move');
      li.dataset.card = m.card;
      li.append('Move ', cardEl(m.card), ` from ${SEAT_NAME[m.from] ?? m.from}'s pocket to ${SEAT_NAME[m.to] ?? m.to}'s`);
      return li;
    });
    $('moves').replaceChildren(...(moves.length ? moves : [el('li', 'none', 'no move needed')]));
    const out = $('outcome');
    out.replaceChildren();
    if (fouled.outcome) {
      out.dataset.remedy = fouled.outcome.remedy;
      out.append(el('b', 'remedy', remedyText(fouled.outcome, fouled.table)), ' ', el('span', 'law', fouled.outcome.law), ' ',
        el('span', 'outcome-message', fouled.outcome.message));
    }
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Standings

function drawStandings() {
  const report = state.snap.standings;
  const body = $('standings').tBodies[0];
  $('no-standings').hidden = !!report?.pairs?.length;
  $('standings').hidden = !report?.pairs?.length;
  if (!report) { body.replaceChildren(); $('method').textContent = ''; return; }
  $('method').textContent = report.method;
  // Matchpoints are read as a percentage; plus and minus against the averages is the whist Compass's (and its
  // matches' and individuals') column. IMPs have neither.
  const hasPct = report.pairs.some((p) => p.percent !== undefined);
  const hasVs = !hasPct && report.pairs.some((p) => p.vsAverage !== undefined);
  $('extra-head').textContent = hasPct ? '%' : hasVs ? 'vs average' : '';
  const rows = [...report.pairs].sort((a, b) => a.rank - b.rank).map((p) => {
    const tr = el('tr');
    tr.dataset.pair = p.pair;
    const pair = el('td', 'pair', p.pair);
    if (p.direction) pair.append(el('small', 'dir', ` ${p.direction}`));
    const names = state.snap.pairs?.[p.pair]?.players?.map((x) => x.name).join(' & ');
    if (names) pair.append(el('span', 'names', names));
    const extra = hasVs ? (p.vsAverage !== undefined ? signed(p.vsAverage) : '') : hasPct && p.percent !== undefined ? `${p.percent.toFixed(2)}%` : '';
    tr.append(el('td', 'rank', p.rankLabel ?? String(p.rank)), pair, el('td', 'num total', String(p.total)), el('td', 'num extra', extra));
    return tr;
  });
  body.replaceChildren(...rows);
}

// ------------------------------------------------------------------------------------------------------------------

function render(snap) {
  if (!snap || snap.type !== 'tenace.director') return;
  // A snapshot older than the one shown (the first fetch racing the event stream) is dropped.
  if (state.snap && String(snap.at) < String(state.snap.at)) return;
  state.snap = snap;
  $('no-snapshot').hidden = true;
  $('club').textContent = snap.club;
  $('session').textContent = snap.session;
  $('variant').textContent = snap.variant;
  $('movement').textContent = `${snap.schedule.movement}, ${snap.schedule.tables} tables`;
  $('round').textContent = String(snap.round);
  $('rounds').textContent = String(snap.schedule.rounds.length);
  $('updated').textContent = clock(snap.at);
  document.title = `tenace — director — ${snap.session}`;
  drawGrid();
  drawAlerts();
  drawTray();
  drawStandings();
  document.dispatchEvent(new CustomEvent('tenace:snapshot', { detail: snap }));
  // Set last: tests and the recorder wait for it.
  document.body.dataset.at = snap.at;
  document.body.dataset.rev = String(++state.rev);
}

function setLive(status, text) {
  const s = $('live');
  s.dataset.status = status;
  s.className = `status ${status}`;
  s.textContent = text;
}

$('tray-close').addEventListener('click', () => { state.selected = null; drawTray(); });

fetch('info.json').then((r) => r.json()).then((info) => { $('downloads').hidden = !info.exports; }).catch(() => undefined);
let events = null;
/** The first snapshot, then the stream; again after signing in, when the director may see more than a spectator. */
function follow() {
  events?.close();
  fetch('snapshot.json').then((r) => r.json()).then(render).catch(() => undefined);
  events = new EventSource('events');
  events.addEventListener('snapshot', (e) => render(JSON.parse(e.data)));
  events.addEventListener('open', () => setLive('online', 'live'));
  events.addEventListener('error', () => setLive('offline', 'reconnecting…'));
}
document.addEventListener('tenace:signed-in', () => { state.snap = null; follow(); });
follow();
