// The director's console on the director page: sign in, then take decisions (each on a screen of its own that names
// its law and asks for confirmation), give pairs their players from the club's list, and see every finding at every
// table, open or ruled. Reading needs no sign-in; every action is sent with the session's CSRF token, and each
// confirmed decision with a transaction id of its own, so a retry after a lost answer counts once.
import { $, cardEl, el } from './app.js';

export const me = { signedIn: false, passwordSet: true, canSetPassword: false, csrf: '', setup: false };
let snap = null;

const KIND = {
  'renounce-in-error': 'Renounce in error', revoke: 'Revoke', 'lead-out-of-turn': 'Lead out of turn', 'play-out-of-turn': 'Played out of turn',
  'card-not-in-hand': 'Card not in the hand', 'wrong-trump-card': 'Wrong trump card', 'card-liable-to-be-called': 'Card liable to be called',
};
const DONE = { 'adjust-score': 'adjusted score', 'fouled-board': 'fouled board', 'late-play': 'late play', 'result-stands': 'result stands' };

/** The laws each decision rests on: WBF Laws 2017 for bridge, Foster's Laws of Duplicate Whist (1914) for whist; "the result stands" names the finding's own law. */
function law(action) {
  const bridge = /bridge/.test(snap?.variant ?? '');
  return {
    'adjust-score': bridge ? 'Law 12C' : 'Dup. IV.9, V.1',
    'fouled-board': bridge ? 'Law 87B' : 'Dup. V.1',
    'late-play': bridge ? 'Law 8B' : 'the movement',
    'correct-tray': bridge ? 'Law 87A' : 'Dup. V.1',
    'advance-round': bridge ? 'Law 8A' : 'the movement',
    names: '',
    pins: '',
  }[action];
}

/** GET (no body) or POST (a JSON body, with the session's CSRF token) an /api/ path; the answer, with its status. */
export async function api(path, body) {
  const r = await fetch(`api/${path}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-tenace-csrf': me.csrf }, body: JSON.stringify(body),
  });
  const out = await r.json().catch(() => ({ ok: false, error: `the director answered ${r.status}` }));
  return { status: r.status, ...out };
}

// ------------------------------------------------------------------------------------------------------------------
// The sheet: one screen at a time (a form, its confirmation, the answer)

export function field(label, input) {
  const l = el('label', 'field');
  l.append(el('span', 'label', label), input);
  return l;
}

export function select(name, options, value) {
  const s = el('select');
  s.name = name;
  for (const [v, text] of options) {
    const o = el('option', null, text);
    o.value = String(v);
    if (String(v) === String(value)) o.selected = true;
    s.append(o);
  }
  return s;
}

export function input(name, type = 'text', value = '') {
  const i = el('input');
  i.name = name;
  i.type = type;
  i.value = value;
  i.autocomplete = 'off';
  return i;
}

export function button(text, cls, onClick) {
  const b = el('button', cls, text);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function sheet(title, lawText, body, buttons, error) {
  $('sheet-title').textContent = title;
  $('sheet-law').textContent = lawText ?? '';
  $('sheet-law').hidden = !lawText;
  $('sheet-body').replaceChildren(...body);
  $('sheet-error').textContent = error ?? '';
  $('sheet-error').hidden = !error;
  $('sheet-buttons').replaceChildren(...buttons);
  const d = $('sheet');
  if (!d.open) d.showModal();
  d.querySelector('input, select, textarea')?.focus();
}

const closeSheet = () => $('sheet').close();

/**
 * A decision: the form, then a confirmation that says what will happen and under which law, then the answer. The
 * transaction id is made when the confirmation is shown: confirming again after a lost answer sends the same one.
 */
function decision(action, title, body, collect, lawText = law(action)) {
  const form = (error) => sheet(title, lawText, body, [button('Cancel', 'secondary', closeSheet), button('Next', 'primary', next)], error);
  function next() {
    const c = collect();
    if (c.error) return form(c.error);
    const transaction = `page-${crypto.randomUUID()}`;
    const confirm = (error) => sheet(`Confirm: ${title.toLowerCase()}`, lawText, [el('p', 'summary', c.summary)], [
      button('Back', 'secondary', () => form()),
      button('Confirm', 'primary confirm', async () => {
        const r = await api(`decisions/${c.cmd ?? action}`, { transaction, ...c.payload }).catch((e) => ({ ok: false, error: `${e.message}: press Confirm again` }));
        if (!r.ok) return r.status === 401 ? signIn() : confirm(r.error);
        sheet('Done', lawText, [el('p', 'summary done', `${c.summary} — recorded.`)], [button('Close', 'primary', closeSheet)]);
      }),
    ], error);
    confirm();
  }
  form();
}

// ------------------------------------------------------------------------------------------------------------------
// The session's facts: tables, trays, pairs

/** Table ids in schedule order (table id k is table number k+1 of the schedule). */
const tableIds = () => snap.tables.map((t) => t.table);
const tableNo = (id) => tableIds().indexOf(id) + 1;
/** The trays a table plays in the schedule, in order. */
function traysOf(id) {
  const no = tableNo(id);
  return [...new Set(snap.schedule.rounds.flatMap((r) => r.tables.filter((t) => t.table === no).flatMap((t) => t.trays.filter((b) => b !== null))))];
}
const allTrays = () => snap.trays.map((t) => t.board);
const pairLabel = (id) => {
  const names = snap.pairs?.[id]?.players?.map((p) => p.name).join(' & ');
  return names ? `${id} (${names})` : id;
};

/** A table and one of its trays, the tray list following the table chosen. */
function tableAndTray(pre = {}) {
  const table = select('table', tableIds().map((t) => [t, `Table ${t}`]), pre.table ?? tableIds()[0]);
  const board = select('board', [], '');
  const fill = () => board.replaceChildren(...select('b', traysOf(table.value).map((b) => [b, `Board ${b}`]), pre.board).children);
  table.addEventListener('change', fill);
  fill();
  return { table, board, nodes: [field('Table', table), field('Board', board)] };
}

function adjustScore(pre) {
  const bridge = /bridge/.test(snap.variant);
  const tt = tableAndTray(pre);
  const kinds = bridge
    ? [['average', 'Average (50%)'], ['average-plus', 'Average-plus (60%)'], ['average-minus', 'Average-minus (40%)'], ['assigned', 'An assigned score']]
    : [['average', 'The average score for the deal'], ['assigned', 'An assigned number of tricks']];
  const kind = select('kind', kinds, 'average');
  const ns = input('ns', 'number', bridge ? '50' : '7');
  const ew = input('ew', 'number', bridge ? '50' : '6');
  const assigned = el('div', 'pair-fields');
  assigned.append(field(bridge ? 'N-S percent' : 'N-S tricks', ns), field(bridge ? 'E-W percent' : 'E-W tricks', ew));
  const show = () => { assigned.hidden = kind.value !== 'assigned'; };
  kind.addEventListener('change', show);
  show();
  decision('adjust-score', 'Adjust a score', [...tt.nodes, field('Score', kind), assigned], () => {
    const where = `Table ${tt.table.value}, board ${tt.board.value}`;
    if (kind.value !== 'assigned') {
      return { payload: { table: tt.table.value, board: Number(tt.board.value), adjusted: kind.value }, summary: `${where}: ${kinds.find((k) => k[0] === kind.value)[1].toLowerCase()}.` };
    }
    const a = { NS: Number(ns.value), EW: Number(ew.value) };
    if (!bridge && (!Number.isInteger(a.NS) || !Number.isInteger(a.EW) || a.NS < 0 || a.EW < 0 || a.NS + a.EW !== 13)) return { error: 'Tricks: give whole numbers that make 13 in all, e.g. 7 and 6.' };
    if (bridge && (!(a.NS >= 0 && a.NS <= 100) || !(a.EW >= 0 && a.EW <= 100))) return { error: 'Percent: give each side a number from 0 to 100.' };
    return { payload: { table: tt.table.value, board: Number(tt.board.value), adjusted: a }, summary: `${where}: N-S ${a.NS}${bridge ? '%' : ' tricks'}, E-W ${a.EW}${bridge ? '%' : ' tricks'}.` };
  });
}

function fouledBoard() {
  const board = select('board', allTrays().map((b) => [b, `Board ${b}`]), allTrays()[0]);
  const groups = el('div', 'groups');
  const fill = () => {
    const tables = tableIds().filter((t) => traysOf(t).includes(Number(board.value)));
    groups.replaceChildren(...tables.map((t) => field(`Table ${t} played`, select(`v-${t}`, [['1', 'version A'], ['2', 'version B'], ['3', 'version C']], '1'))));
  };
  board.addEventListener('change', fill);
  fill();
  decision('fouled-board', 'Fouled board', [field('Board', board), el('p', 'hint', 'Which version of the board did each table play?'), groups], () => {
    const by = new Map();
    for (const s of groups.querySelectorAll('select')) by.set(s.value, [...(by.get(s.value) ?? []), s.name.slice(2)]);
    const list = [...by.entries()].sort().map(([, ts]) => ts);
    if (list.length < 2) return { error: 'Versions: a fouled board was played in two versions or more; give the tables that played the other version.' };
    return { payload: { board: Number(board.value), groups: list }, summary: `Board ${board.value} is scored in ${list.length} groups: ${list.map((g) => `tables ${g.join(', ')}`).join('; ')}.` };
  });
}

function latePlay() {
  const tt = tableAndTray();
  decision('late-play', 'Late play', tt.nodes, () => ({
    payload: { table: tt.table.value, board: Number(tt.board.value) }, summary: `Table ${tt.table.value} plays board ${tt.board.value} late; it is added to the table's trays.`,
  }));
}

function correctTray() {
  const board = select('board', allTrays().map((b) => [b, `Board ${b}`]), allTrays()[0]);
  const rec = () => snap.trays.find((t) => t.board === Number(board.value))?.record;
  const hands = el('textarea');
  hands.name = 'hands';
  hands.rows = 2;
  hands.value = rec()?.hands ?? '';
  board.addEventListener('change', () => { hands.value = rec()?.hands ?? ''; });
  const dealer = select('dealer', [['', 'as recorded'], ['N', 'North'], ['E', 'East'], ['S', 'South'], ['W', 'West']], '');
  const reason = input('reason');
  decision('correct-tray', 'Correct a tray', [field('Board', board), field('The four hands (N: spades.hearts.diamonds.clubs …)', hands), field('Dealer', dealer), field('Why', reason)], () => {
    if (!/^[NESW]:\S+( \S+){3}$/.test(hands.value.trim())) return { error: 'Hands: give the four hands from North, e.g. N:AKQ.JT9.876.5432 …' };
    if (!reason.value.trim()) return { error: 'Why: say in a few words why the tray is corrected.' };
    if (!rec() && !dealer.value) return { error: 'Dealer: this tray has no record yet, so give the dealer.' };
    return {
      payload: { board: Number(board.value), hands: hands.value.trim(), reason: reason.value.trim(), ...(dealer.value ? { dealer: dealer.value } : {}) },
      summary: `Board ${board.value}'s record becomes ${hands.value.trim()}.`,
    };
  });
}

function advanceRound() {
  const table = select('table', [['', 'Every table'], ...tableIds().map((t) => [t, `Table ${t}`])], '');
  decision('advance-round', 'Advance the round', [field('Which tables', table)], () => ({
    payload: table.value ? { table: table.value } : {},
    summary: table.value ? `Table ${table.value} moves on to its next round.` : 'Every table moves on to its next round.',
  }));
}

function resultStands(f) {
  decision('result-stands', 'The result stands', [el('p', 'summary', `Table ${f.table}, board ${f.board}: ${KIND[f.kind] ?? f.kind} by ${f.seat}.`)], () => ({
    payload: { table: f.table, board: f.board }, summary: `Table ${f.table}, board ${f.board}: the result stands as the table scored it.`,
  }), f.law);
}

// ------------------------------------------------------------------------------------------------------------------
// Names: a pair's players, picked from the club's list or entered new (which adds them to it)

async function names(error) {
  const r = await api('players');
  if (!r.ok) return r.status === 401 ? signIn() : sheet('Player names', '', [], [button('Close', 'primary', closeSheet)], r.error);
  const pair = select('pair', r.participants.map((p) => [p, pairLabel(p)]), r.participants[0]);
  const rows = el('div', 'players');
  const fill = () => {
    const now = r.pairs[pair.value]?.players ?? [];
    rows.replaceChildren(...[0, 1].map((i) => {
      const box = el('fieldset', 'player');
      box.append(el('legend', null, `Player ${i + 1}`));
      const pick = select(`pick-${i}`, [['', 'A new player (type below)'], ...r.players.map((p) => [p.id, p.member ? `${p.name} (${p.member})` : p.name])], '');
      const name = input(`name-${i}`, 'text', now[i]?.name ?? '');
      const member = input(`member-${i}`, 'text', now[i]?.member ?? '');
      pick.addEventListener('change', () => {
        const p = r.players.find((x) => x.id === pick.value);
        name.value = p?.name ?? '';
        member.value = p?.member ?? '';
      });
      box.append(field('From the players list', pick), field('Name', name), field('Member number (if any)', member));
      return box;
    }));
  };
  pair.addEventListener('change', fill);
  fill();
  const save = async () => {
    const players = [0, 1].map((i) => ({ name: rows.querySelector(`[name=name-${i}]`).value.trim(), member: rows.querySelector(`[name=member-${i}]`).value.trim() }))
      .filter((p) => p.name).map((p) => (p.member ? p : { name: p.name }));
    const out = await api(`pairs/${encodeURIComponent(pair.value)}`, { players });
    if (!out.ok) return sheet('Player names', '', [field('Pair', pair), rows], [button('Close', 'secondary', closeSheet), button('Save', 'primary', save)], out.error);
    sheet('Done', '', [el('p', 'summary done', `Pair ${pair.value}: ${players.map((p) => p.name).join(' & ')} — saved; the tables get the names.`)], [
      button('Another pair', 'secondary', () => names()), button('Close', 'primary', closeSheet)]);
  };
  sheet('Player names', '', [field('Pair', pair), rows], [button('Close', 'secondary', closeSheet), button('Save', 'primary', save)], error);
}

// ------------------------------------------------------------------------------------------------------------------
// PINs: what the players of each table type on their terminal before it lets them act

async function pins() {
  const r = await api('pins');
  if (!r.ok) return r.status === 401 ? signIn() : sheet('Table PINs', '', [], [button('Close', 'primary', closeSheet)], r.error);
  const list = el('table', 'pins');
  const head = el('tr');
  head.append(el('th', null, 'Table'), el('th', null, 'PIN'), el('th', null, 'Where the players enter it'));
  list.append(head);
  for (const t of r.tables) {
    const row = el('tr');
    row.dataset.table = t.table;
    const where = t.handScored ? `the hand-scoring page: ${new URL(`hand/?table=${encodeURIComponent(t.table)}`, location.href).href}` : 'the table\'s own screen';
    row.append(el('td', null, `Table ${tableNo(t.table) || t.table}`), el('td', 'pin', t.pin), el('td', null, where));
    list.append(row);
  }
  sheet('Table PINs', '', [el('p', 'summary', 'Give each table its PIN: only the players at that table can then enter a contract, a claim or a result.'), list],
    [button('Close', 'primary', closeSheet)]);
}

// ------------------------------------------------------------------------------------------------------------------
// Signing in

function signIn(error) {
  const first = !me.passwordSet;
  if (first && !me.canSetPassword) return sheet('Director sign in', '', [el('p', null, 'No password is set yet: set it on the director\'s own computer, or with tenace director --set-password.')], [button('Close', 'primary', closeSheet)]);
  const pw = input('password', 'password');
  pw.autocomplete = first ? 'new-password' : 'current-password';
  const again = input('again', 'password');
  const go = async () => {
    if (first && pw.value !== again.value) return signIn('The two passwords differ: type the same password twice.');
    const r = await api(first ? 'first-password' : 'login', { password: pw.value });
    if (!r.ok) return signIn(r.error);
    await refreshMe();
    closeSheet();
    document.dispatchEvent(new CustomEvent('tenace:signed-in'));
  };
  pw.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !first) { e.preventDefault(); void go(); } });
  sheet(first ? 'Choose the director\'s password' : 'Director sign in', '', first
    ? [el('p', 'hint', 'At least 10 characters. Only the director can then change scores.'), field('Password', pw), field('The same again', again)]
    : [field('Password', pw)], [button('Cancel', 'secondary', closeSheet), button(first ? 'Set the password' : 'Sign in', 'primary', go)], error);
}

async function refreshMe() {
  Object.assign(me, { signedIn: false, csrf: '' }, await api('me').catch(() => ({})));
  $('signin').hidden = me.signedIn;
  $('signed-in').hidden = !me.signedIn;
  $('console').hidden = !me.signedIn || me.setup;
  document.dispatchEvent(new CustomEvent('tenace:me', { detail: me }));
  document.body.dataset.director = me.signedIn ? 'signed-in' : 'signed-out';
  if (snap) { drawFindings(); drawTrayFindings(); }
}

// ------------------------------------------------------------------------------------------------------------------
// Findings, open ones first

function findingItem(f) {
  const li = el('li', `finding ${f.state}`);
  li.dataset.kind = f.kind;
  li.dataset.state = f.state;
  li.dataset.table = f.table;
  const head = el('div', 'alert-head');
  head.append(el('b', 'kind', KIND[f.kind] ?? f.kind.replace(/-/g, ' ')), el('span', 'law', f.law),
    el('span', 'where', `table ${f.table} · board ${f.board}${f.round ? ` · round ${f.round}` : ''} · trick ${f.trick}`),
    el('span', `state ${f.state}`, f.state === 'open' ? (f.inPlay ? 'open, in play' : 'open') : `ruled: ${DONE[f.ruling] ?? f.ruling}`));
  li.append(head);
  const p = el('p', 'message');
  if (f.card) p.append(cardEl(f.card), ' ');
  p.append(f.message);
  li.append(p);
  if (me.signedIn && f.state === 'open' && !f.inPlay) {
    const row = el('div', 'rule');
    row.append(button('Adjust the score', 'small', () => adjustScore({ table: f.table, board: f.board })), button('The result stands', 'small', () => resultStands(f)));
    li.append(row);
  }
  return li;
}

function drawFindings() {
  const list = [...(snap.findings ?? [])].sort((a, b) => (a.state === 'open' ? 0 : 1) - (b.state === 'open' ? 0 : 1));
  const open = list.filter((f) => f.state === 'open').length;
  $('finding-count').textContent = list.length ? `${open} open of ${list.length}` : '';
  $('findings').replaceChildren(...(list.length ? list.map(findingItem) : [el('li', 'none', 'none')]));
}

/** The findings of the board open in the tray panel, at every table that played it. */
function drawTrayFindings() {
  const panel = $('tray');
  const list = (snap?.findings ?? []).filter((f) => String(f.board) === panel.dataset.board);
  $('tray-findings').hidden = panel.hidden || list.length === 0;
  $('tray-findings-list').replaceChildren(...list.map(findingItem));
}

// ------------------------------------------------------------------------------------------------------------------

const ACTIONS = { 'adjust-score': () => adjustScore(), 'fouled-board': fouledBoard, 'late-play': latePlay, 'correct-tray': correctTray, 'advance-round': advanceRound, names: () => names(), pins };
for (const b of document.querySelectorAll('#actions .action')) b.addEventListener('click', () => { if (snap) ACTIONS[b.dataset.action](); });
$('signin').addEventListener('click', () => signIn());
$('signout').addEventListener('click', async () => { await api('logout', {}); await refreshMe(); });
$('sheet-form').addEventListener('submit', (e) => e.preventDefault());
document.addEventListener('tenace:snapshot', (e) => {
  snap = e.detail;
  drawFindings();
  drawTrayFindings();
});
new MutationObserver(drawTrayFindings).observe($('tray'), { attributes: true, attributeFilter: ['data-board', 'hidden'] });

fetch('info.json').then((r) => r.json()).then((info) => {
  me.setup = info.setup === true;
  if (info.console) void refreshMe();
}).catch(() => undefined);
