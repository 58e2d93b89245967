// The hand-scoring terminal: a table without readers enters each tray's result, one question a screen, and the
// opponents accept it before it is sent (as on a Bridgemate). Plain browser JS: it talks only to /api/hand/.
'use strict';
(function () {
  const screen = document.getElementById('screen');
  const errorBox = document.getElementById('error');
  const title = document.getElementById('title');
  const refreshBtn = document.getElementById('refresh');
  const SUITS = [['C', '♣', 'Clubs'], ['D', '♦', 'Diamonds'], ['H', '♥', 'Hearts'], ['S', '♠', 'Spades']];
  const STRAINS = [...SUITS, ['NT', 'NT', 'No trumps']];
  const SEATS = [['N', 'North'], ['E', 'East'], ['S', 'South'], ['W', 'West']];
  const RANKS = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
  const params = new URLSearchParams(location.search);
  let token = sessionStorage.getItem('tenace-hand-token');
  let view = null;
  let entry = null;

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'onclick') e.addEventListener('click', v);
      else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  function button(label, onclick, cls, extra) { return el('button', { type: 'button', class: cls, onclick, ...extra }, label); }
  function show(...nodes) { screen.replaceChildren(...nodes); errorBox.hidden = true; window.scrollTo(0, 0); }
  function fail(msg) { errorBox.textContent = msg; errorBox.hidden = false; }
  function suitSpan(s) { const x = SUITS.find((q) => q[0] === s); return x ? el('span', { class: `suit-${s}` }, x[1]) : s; }
  function seatName(s) { return (SEATS.find((q) => q[0] === s) || [s, s])[1]; }
  function bridge() { return view && view.variant === 'bridge'; }

  async function call(path, body) {
    const res = await fetch(`/api/hand/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const j = await res.json().catch(() => ({ error: `The director answered ${res.status}.` }));
    if (res.status === 401) { token = null; sessionStorage.removeItem('tenace-hand-token'); signIn(); }
    return { status: res.status, body: j };
  }

  // ---- sign in: the table's number and its PIN, as taps
  function signIn() {
    refreshBtn.hidden = true;
    title.textContent = 'Enter the results';
    let table = params.get('table') || '';
    let pin = '';
    const pinBox = el('div', { class: 'pin', 'aria-label': 'PIN typed' }, '');
    const tableBox = el('div', { class: 'pin', 'aria-label': 'table number' }, table || '–');
    let editing = table ? 'pin' : 'table';
    const prompt = el('h2', {}, '');
    const redraw = () => {
      prompt.textContent = editing === 'table' ? 'Which table is this?' : `Table ${table}: type the table's PIN`;
      tableBox.textContent = table || '–';
      pinBox.textContent = pin.replace(/./g, '●') || ' ';
      tableBox.hidden = editing !== 'table';
      pinBox.hidden = editing !== 'pin';
    };
    const digit = (d) => { if (editing === 'table') table = (table + d).slice(0, 3); else pin = (pin + d).slice(0, 8); redraw(); };
    const keys = el('div', { class: 'grid' }, ...'123456789'.split('').map((d) => button(d, () => digit(d))),
      button('⌫', () => { if (editing === 'table') table = table.slice(0, -1); else pin = pin.slice(0, -1); redraw(); }, 'quiet', { 'aria-label': 'rub out' }),
      button('0', () => digit('0')));
    const go = button('OK', async () => {
      if (editing === 'table') { if (table) { editing = 'pin'; redraw(); } return; }
      const r = await call('login', { table, pin });
      pin = '';
      redraw();
      if (r.status !== 200) return fail(r.body.error || 'The PIN was not accepted.');
      token = r.body.token;
      sessionStorage.setItem('tenace-hand-token', token);
      view = r.body.view;
      round();
    }, 'primary');
    redraw();
    show(prompt, tableBox, pinBox, keys, el('div', { class: 'row' }, go));
  }

  // ---- the round: the pairs, the trays and their results, and where to go next
  function round() {
    refreshBtn.hidden = false;
    title.textContent = `Table ${view.table} · Round ${view.round}`;
    const pairs = el('p', {}, `North-South: pair ${view.ns || '–'} · East-West: pair ${view.ew || '–'}`);
    const trays = el('div', { class: 'list' }, ...view.trays.map((t) => button(
      t.result ? [el('span', {}, `Tray ${t.board}`), el('span', {}, describe(t.result), ' ✓')] : [el('span', {}, `Tray ${t.board}`), el('span', {}, 'Enter the result ›')],
      () => start(t.board), t.result ? 'done' : '')));
    const all = view.trays.every((t) => t.result);
    const nodes = [el('h2', {}, all ? 'Every tray of this round is entered' : 'Tap a tray to enter its result'), pairs, trays];
    if (all && view.next) nodes.push(el('div', { class: 'summary', role: 'status' }, ...moves(view.next)));
    if (view.done) nodes.push(el('div', { class: 'summary' }, 'The session is over at this table. Thank you!'));
    show(...nodes);
  }
  function moves(n) {
    const here = Number(view.no);
    const where = (what, t) => (t === null ? `${what}: sit out next round` : t === here ? `${what} stay at this table` : `${what} go to table ${t}`);
    return [el('h2', {}, `Next round (${n.round})`), el('p', {}, where('North-South', n.ns)), el('p', {}, where('East-West', n.ew)),
      el('p', {}, n.trays === null ? 'Trays: wait for the director' : n.trays === here ? 'Trays stay at this table' : `Trays go to table ${n.trays}`)];
  }
  function describe(r) {
    if (r.contract === undefined) return `N-S ${r.tricks.NS} · E-W ${r.tricks.EW} tricks`;
    if (r.contract === 'PASS') return 'Passed out';
    return `${r.contract} · ${r.tricks} tricks`;
  }

  // ---- the result, one question a screen
  function start(board) {
    entry = { board, step: bridge() ? 'level' : 'tricks-ns' };
    ask();
  }
  function back(to) { return button('‹ Back', () => { entry.step = to; ask(); }, 'quiet small'); }
  function choose(question, options, pick, previous) {
    show(el('h2', {}, `Tray ${entry.board}: ${question}`),
      el('div', { class: options.length > 6 ? 'grid' : 'grid wide' }, ...options.map(([value, label, aria]) => button(label, () => pick(value), '', aria ? { 'aria-label': aria } : {}))),
      el('div', { class: 'row' }, previous ? back(previous) : button('‹ Trays', round, 'quiet small')));
  }
  function ask() {
    const e = entry;
    switch (e.step) {
      case 'level':
        return choose('the contract level', [...[1, 2, 3, 4, 5, 6, 7].map((n) => [n, String(n)]), ['pass', 'Passed out']],
          (v) => { if (v === 'pass') { e.contract = 'PASS'; e.step = 'review'; } else { e.level = v; e.step = 'strain'; } ask(); });
      case 'strain':
        return choose('the trump suit', STRAINS.map(([s, sym, name]) => [s, sym === 'NT' ? 'NT' : el('span', { class: `suit-${s}` }, sym), name]),
          (v) => { e.strain = v; e.step = 'double'; ask(); }, 'level');
      case 'double':
        return choose('doubled?', [['', 'No'], ['X', 'Doubled'], ['XX', 'Redoubled']], (v) => { e.dbl = v; e.step = 'declarer'; ask(); }, 'strain');
      case 'declarer':
        return choose('who was declarer?', SEATS, (v) => { e.declarer = v; e.step = 'lead-suit'; ask(); }, 'double');
      case 'lead-suit':
        return choose('the opening lead: its suit', [...SUITS.map(([s, sym, name]) => [s, el('span', { class: `suit-${s}` }, sym), name]), ['none', 'Skip']],
          (v) => { e.leadSuit = v === 'none' ? undefined : v; e.step = v === 'none' ? (bridge() ? 'tricks' : 'review') : 'lead-rank'; ask(); }, bridge() ? 'declarer' : 'tricks-ns');
      case 'lead-rank':
        return choose('the opening lead: its card', RANKS.map((r) => [r, r]), (v) => { e.lead = e.leadSuit + (v === '10' ? 'T' : v); e.step = bridge() ? 'tricks' : 'review'; ask(); }, 'lead-suit');
      case 'tricks':
        return choose(`tricks taken by declarer (${seatName(e.declarer)})`, Array.from({ length: 14 }, (_, n) => [n, String(n)]), (v) => { e.tricks = v; e.step = 'review'; ask(); }, 'lead-suit');
      case 'tricks-ns':
        return choose('tricks won by North-South', Array.from({ length: 14 }, (_, n) => [n, String(n)]), (v) => { e.tricks = { NS: v, EW: 13 - v }; e.step = 'lead-suit'; ask(); });
      case 'review':
        return review();
    }
  }
  function result() {
    const e = entry;
    if (!bridge()) return { board: e.board, tricks: e.tricks, ...(e.lead ? { lead: e.lead } : {}) };
    if (e.contract === 'PASS') return { board: e.board, contract: 'PASS' };
    return { board: e.board, contract: `${e.level}${e.strain}${e.declarer}${e.dbl}`, tricks: e.tricks, ...(e.lead ? { lead: e.lead } : {}) };
  }
  async function review() {
    const r = result();
    const lines = [];
    let opponents = 'East-West';
    if (!bridge()) lines.push(el('p', {}, `North-South ${r.tricks.NS} tricks, East-West ${r.tricks.EW} tricks`));
    else if (r.contract === 'PASS') lines.push(el('p', {}, 'Passed out: no score'));
    else {
      const e = entry;
      opponents = e.declarer === 'N' || e.declarer === 'S' ? 'East-West' : 'North-South';
      const made = e.tricks - 6 - e.level;
      lines.push(el('p', {}, `${e.level}`, e.strain === 'NT' ? 'NT' : suitSpan(e.strain), `${e.dbl === 'X' ? ' doubled' : e.dbl === 'XX' ? ' redoubled' : ''} by ${seatName(e.declarer)}`),
        el('p', {}, `${e.tricks} tricks: ${made === 0 ? 'made exactly' : made > 0 ? `made with ${made} over` : `down ${-made}`}`));
      const p = await call('preview', r);
      if (p.status === 200 && typeof p.body.nsScore === 'number') {
        const ns = p.body.nsScore;
        lines.push(el('p', {}, ns >= 0 ? `Score: North-South +${ns}` : `Score: East-West +${-ns}`));
      }
    }
    if (r.lead) lines.push(el('p', { class: 'muted' }, 'Opening lead ', suitSpan(r.lead[0]), r.lead.slice(1).replace('T', '10')));
    show(el('h2', {}, `Tray ${entry.board}: ${opponents}, do you accept this result?`), el('div', { class: 'summary' }, ...lines),
      el('div', { class: 'row' }, button('Change', () => start(entry.board), 'quiet'), button('Accept', () => send(r), 'primary')));
  }
  async function send(r) {
    // One transaction id per entry: a retry after a lost answer is taken once.
    entry.transaction = entry.transaction || `hand-${view.table}-${r.board}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const res = await call('result', { transaction: entry.transaction, ...r, ...(view.round ? { round: view.round } : {}) });
    if (res.status === 401) return;
    if (!res.body.ok) return fail(res.body.error || 'The result was not taken.');
    const before = view.round;
    view = res.body.view;
    // The round's last result moved the table on: first tell the players where to go, then the new round.
    if (view.round > before && view.previous) {
      return show(el('div', { class: 'summary', role: 'status' }, ...moves(view.previous)),
        el('div', { class: 'row' }, button(`Everyone is in place: start round ${view.round}`, round, 'primary')));
    }
    round();
  }

  refreshBtn.addEventListener('click', async () => {
    const r = await call('state');
    if (r.status === 200) { view = r.body; round(); }
  });
  (async () => {
    if (token) {
      const r = await call('state');
      if (r.status === 200 && r.body) { view = r.body; return round(); }
    }
    signIn();
  })();
})();
