// The table terminal: the players enter what the readers cannot see (the contract, claims, the result's acceptance),
// call the director and undo a misread card. Every action is a command to the table daemon with a transaction id; a
// retry after a lost answer sends the same id, so the table applies it once. The screen follows GET state each second.
const SEAT = { N: 'North', E: 'East', S: 'South', W: 'West' };
const ORDER = ['N', 'E', 'S', 'W'];
const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const VULNERABLE = { None: 'Nobody vulnerable', Love: 'Nobody vulnerable', '-': 'Nobody vulnerable', NS: 'N-S vulnerable', EW: 'E-W vulnerable', All: 'All vulnerable', Both: 'All vulnerable' };
const REASONS = ['A revoke (a card not following suit)', 'A lead or play out of turn', 'A card shown by mistake', 'The cards or the tray are wrong', 'A question about a claim', 'Something else'];

const $ = (id) => document.getElementById(id);
let view = null;
let authorised = true;
// A flow the players started (contract, claim, director, undo, PIN); null: the screen follows the table.
let flow = null;
let busy = false;

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const card = (c) => `<span class="${c[0]}">${SUIT[c[0]]}${c.slice(1) === 'T' ? '10' : c.slice(1)}</span>`;
const side = (s) => (s === 'N' || s === 'S' ? 'North-South' : 'East-West');
const lho = (s) => ORDER[(ORDER.indexOf(s) + 1) % 4];
const contractText = (c) => {
  const m = /^([1-7])(NT|[SHDC])([NESW])(XX|X)?$/.exec(c);
  if (!m) return esc(c);
  const strain = m[2] === 'NT' ? 'NT' : `<span class="${m[2]}">${SUIT[m[2]]}</span>`;
  return `${m[1]}${strain}${m[4] === 'XX' ? ' redoubled' : m[4] === 'X' ? ' doubled' : ''} by ${SEAT[m[3]]}`;
};
const claimWords = (seat, n, left) => (n === 0 ? `${SEAT[seat]} concedes all ${left} tricks left`
  : n === left ? `${SEAT[seat]} claims all ${left} tricks left` : `${SEAT[seat]} claims ${n} of the ${left} tricks left`);
const button = (act, label, cls = '', extra = '') => `<button type="button" data-act="${act}" class="${cls}" ${extra}>${label}</button>`;

function newTransaction() {
  // crypto.randomUUID needs a secure context; a phone on the club's Wi-Fi talks plain HTTP.
  return `term-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function say(text) {
  const m = $('message');
  m.textContent = text || '';
  m.hidden = !text;
}

async function send(cmd, params) {
  const body = JSON.stringify({ transaction: newTransaction(), ...params });
  busy = true;
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const r = await fetch(`/terminal/api/command/${cmd}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const a = await r.json();
        if (r.status === 403 && !('transaction' in a)) { authorised = false; flow = { kind: 'pin', digits: '' }; }
        if (!a.ok) say(a.error);
        else say('');
        return a.ok;
      } catch {
        // The answer was lost: send the same transaction again; the table answers it without applying it twice.
        await new Promise((r) => setTimeout(r, 600));
      }
    }
    say('The table does not answer. Check the Wi-Fi, then try again.');
    return false;
  } finally {
    busy = false;
    await refresh();
  }
}

async function refresh() {
  try {
    const r = await fetch('/terminal/api/state', { cache: 'no-store' });
    if (r.status === 403) {
      authorised = false;
      if (flow?.kind !== 'pin') flow = { kind: 'pin', digits: '' };
    } else if (r.ok) {
      authorised = true;
      view = (await r.json()).view;
    }
  } catch {
    /* the next poll tries again */
  }
  render();
}

function roundKey() {
  return view?.round ? `tenace-terminal-round-${view.table}-${view.round.round}` : null;
}

function names(seats) {
  const n = view.round?.names ?? {};
  const given = seats.filter((s) => n[s]).map((s) => `${SEAT[s]}: ${esc(n[s])}`);
  return given.length ? given.join(', ') : '<span class="lead">names not entered (optional)</span>';
}

// ------------------------------------------------------------------ screens

function pinScreen() {
  const d = flow.digits;
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '⌫', '0', 'OK'];
  return `<h2>Enter this table's PIN</h2><p class="lead">The director has the PIN of each table.</p>
    <div class="pin" aria-label="PIN entered">${'●'.repeat(d.length) || '&nbsp;'}</div>
    <div class="keypad">${keys.map((k) => button(k === 'OK' ? 'pin-ok' : k === '⌫' ? 'pin-back' : 'pin-digit', k, k === '⌫' ? 'quiet' : '', `data-v="${k}"`)).join('')}</div>`;
}

function roundScreen() {
  const r = view.round;
  return `<h2>Round ${r.round} at table ${esc(view.table)}</h2>
    <div class="note"><b>N-S: pair ${esc(r.ns ?? '?')}</b><br>${names(['N', 'S'])}</div>
    <div class="note"><b>E-W: pair ${esc(r.ew ?? '?')}</b><br>${names(['E', 'W'])}</div>
    <p class="lead">Trays this round: ${r.trays.join(', ')}</p>
    <div class="row">${button('round-ok', 'Yes, we are these pairs')}${button('names', 'Add or change names (optional)', 'quiet')}</div>`;
}

function namesScreen() {
  const n = view.round?.names ?? {};
  const field = (s) => `<label class="name">${SEAT[s]}<input name="${s}" maxlength="60" autocomplete="off" value="${esc(n[s] ?? '')}"></label>`;
  return `<h2>Names for round ${view.round.round} (optional)</h2>
    <div class="names">${ORDER.map(field).join('')}</div>
    <div class="row">${button('names-save', 'Save the names')}${button('cancel', 'Back', 'quiet')}</div>`;
}

function waitingScreen() {
  return `<h2>Scan the tray to begin</h2><p class="lead">${view.round ? `Round ${view.round.round}: trays ${view.round.trays.join(', ')}.` : 'Waiting for the first tray.'}</p>`;
}

function choice(title, lead, acts, cls = '') {
  return `<h2>${title}</h2>${lead ? `<p class="lead">${lead}</p>` : ''}<div class="grid ${cls}">${acts.join('')}</div>
    <div class="row">${button('cancel', 'Back', 'quiet')}</div>`;
}

function contractScreens() {
  const f = flow;
  if (f.step === 'level') return choice('Contract: the level', 'How many tricks over six?', [1, 2, 3, 4, 5, 6, 7].map((l) => button('c-level', l, '', `data-v="${l}"`)));
  if (f.step === 'strain') {
    return choice(`Contract: ${f.level} of which suit?`, '', ['C', 'D', 'H', 'S', 'NT'].map((s) => button('c-strain', s === 'NT' ? 'NT' : `<span class="${s}">${SUIT[s]}</span>`, '', `data-v="${s}"`)));
  }
  if (f.step === 'double') return choice('Doubled?', '', [button('c-double', 'Not doubled', '', 'data-v=""'), button('c-double', 'Doubled', '', 'data-v="X"'), button('c-double', 'Redoubled', '', 'data-v="XX"')], 'wide');
  if (f.step === 'declarer') return choice('Who is declarer?', '', ORDER.map((s) => button('c-declarer', SEAT[s], '', `data-v="${s}"`)), 'seats');
  return `<h2>Is this the contract?</h2><p class="big">${contractText(`${f.level}${f.strain}${f.declarer}${f.double}`)}</p>
    <div class="row">${button('c-send', 'Yes, enter it')}${button('cancel', 'No, start again', 'quiet')}</div>`;
}

function scoreBox(t) {
  return `<div class="score"><div>North-South<b>${t.NS}</b></div><div>East-West<b>${t.EW}</b></div></div>`;
}

function findingsList(fs) {
  if (!fs.length) return '';
  return `<ul class="findings">${fs.map((f) => `<li>${esc(f.text)} <small>(${esc(f.law)})</small></li>`).join('')}</ul>`;
}

function playScreen(d) {
  const turn = d.whoseTurn ? `Trick ${d.trick}: ${SEAT[d.whoseTurn]} to play` : 'Play has stopped';
  const disputed = d.disputed ? `<p class="note">${SEAT[d.disputed.by]} disputed ${SEAT[d.disputed.seat]}'s claim: the director has been called. Play on only if the director says so.</p>` : '';
  return `<h2>${turn}</h2>${scoreBox(d.tricks)}
    ${d.current.length ? `<div class="trick">${d.current.map((c) => `<span>${c.seat} ${card(c.card)}</span>`).join('')}</div>` : ''}
    ${disputed}${findingsList(d.findings)}
    <div class="row">${button('claim', 'Claim or concede tricks')}</div>`;
}

function claimScreens(d) {
  const f = flow;
  if (f.step === 'seat') return choice('Who claims?', `${d.remaining} tricks are left to play.`, ORDER.map((s) => button('k-seat', SEAT[s], '', `data-v="${s}"`)), 'seats');
  if (f.step === 'tricks') {
    const n = [];
    for (let i = 0; i <= d.remaining; i++) n.push(button('k-tricks', i, '', `data-v="${i}"`));
    return choice(`${SEAT[f.seat]} claims how many of the ${d.remaining} tricks left?`, '0 concedes them all.', n);
  }
  return `<h2>${claimWords(f.seat, f.tricks, d.remaining)}</h2>
    <p class="lead">${side(lho(f.seat))} will be asked to accept.</p>
    <div class="row">${button('k-send', 'Yes, make the claim')}${button('cancel', 'No', 'quiet')}</div>`;
}

function answerScreen(d) {
  const c = d.claim;
  return `<h2>${claimWords(c.seat, c.tricks, d.remaining)}</h2>
    <p class="lead">${side(lho(c.seat))}: do you accept ${c.tricks === 0 ? 'the concession' : 'the claim'}?</p>
    <div class="row">${button('k-accept', 'Accept')}${button('k-dispute', 'Dispute: call the director', 'no')}</div>`;
}

function resultScreen(d) {
  const r = d.result;
  const head = d.board !== null ? `Board ${d.board}: result` : 'Result';
  const claim = d.claim?.accepted ? `<p class="lead">${SEAT[d.claim.seat]}'s claim of ${d.claim.tricks} was accepted.</p>` : '';
  const adj = r.adjustment ? `<p class="note">${esc(r.adjustment)}</p>` : '';
  // A claim at the tray's first play: the cards not played make the tray's record for the next tables.
  const left = (d.showCards ?? []).filter((x) => x.left > 0);
  const show = !d.showCards ? '' : left.length === 0
    ? '<p class="note show-cards-done" role="status">Every card has been passed over the readers: the tray\'s record is complete.</p>'
    : `<div class="show-cards" role="status"><p class="lead">For the next tables, each player passes the cards still in hand over the reader, face down. Cards left to pass:</p>
    <ul class="to-pass">${left.map((x) => `<li>${SEAT[x.seat]}: ${x.left}</li>`).join('')}</ul></div>`;
  let tail;
  if (!r.acceptedBy) {
    tail = `<p class="lead">${r.acceptBy.map((s) => SEAT[s]).join(' or ')}: is this result right?</p>
      <div class="row">${button('r-accept', 'Yes, accept the result')}${button('director', 'No: call the director', 'no')}</div>`;
  } else {
    tail = `<p class="note">Accepted by ${SEAT[r.acceptedBy]}. ${esc(d.traveller)}</p>
      ${view.nextRound ? `<p class="big">${esc(view.nextRound)}</p>` : '<p class="lead">Scan the next tray when you are ready.</p>'}`;
  }
  return `<h2>${head}</h2><p class="big">${esc(r.summary).replace(/[♠♥♦♣]/g, (s) => `<span class="${'SHDC'['♠♥♦♣'.indexOf(s)]}">${s}</span>`)}</p>
    ${scoreBox(r.scored)}${claim}${show}${adj}${findingsList(d.findings)}${tail}`;
}

function directorScreens() {
  if (flow.step === 'reason') return choice('Call the director: why?', 'Pick the nearest reason.', REASONS.map((r, i) => button('d-reason', esc(r), '', `data-v="${i}"`)), 'wide');
  if (flow.step === 'confirm') {
    return `<h2>Call the director?</h2><p class="big">${esc(REASONS[flow.reason])}</p>
      <div class="row">${button('d-send', 'Yes, call the director')}${button('cancel', 'No', 'quiet')}</div>`;
  }
  return `<h2>The director has been called</h2><p class="lead">Stay at the table; do not go on until the director has ruled.</p>
    <div class="row">${button('cancel', 'Back to the table')}</div>`;
}

function undoScreens(d) {
  if (flow.step === 'pick') {
    if (!d || !d.reads.length) return choice('Undo a misread card', 'No card of this deal can be undone.', []);
    return choice('Which card was read wrongly?', 'The latest first. Undo only a card the table read by mistake.',
      d.reads.map((r) => button('u-pick', `${SEAT[r.seat]}: ${card(r.card)} <small>(trick ${r.trick})</small>`, '', `data-v="${r.seq}"`)), 'wide');
  }
  const r = d?.reads.find((x) => x.seq === flow.seq);
  return `<h2>Undo this card?</h2><p class="big">${r ? `${SEAT[r.seat]}: ${card(r.card)}` : 'the card'}</p>
    <p class="lead">Take it back off the table if it is still there.</p>
    <div class="row">${button('u-send', 'Yes, undo it')}${button('cancel', 'No', 'quiet')}</div>`;
}

function screen() {
  if (!authorised || flow?.kind === 'pin') return pinScreen();
  if (!view) return '<h2>Connecting to the table…</h2>';
  const d = view.deal;
  if (flow?.kind === 'director') return directorScreens();
  if (flow?.kind === 'undo') return undoScreens(d);
  if (flow?.kind === 'names' && view.round) return namesScreen();
  const key = roundKey();
  if (key && !localStorage.getItem(key) && (!d || !d.over)) return roundScreen();
  if (!d) return waitingScreen();
  if (d.needsContract && !d.over) {
    if (flow?.kind !== 'contract') flow = { kind: 'contract', step: 'level' };
    return contractScreens();
  }
  if (d.claim && !d.claim.accepted) return answerScreen(d);
  if (d.over && d.result) return resultScreen(d);
  if (flow?.kind === 'claim') return claimScreens(d);
  return playScreen(d);
}

function render() {
  const d = view?.deal;
  $('facts').innerHTML = !authorised || !view ? '' : [
    d?.board != null ? `Board ${d.board}` : '',
    d?.contract ? contractText(d.contract) : '',
    d?.vulnerable && view.bridge ? VULNERABLE[d.vulnerable] ?? '' : '',
  ].filter(Boolean).join(' · ');
  $('title').textContent = view ? `Table ${view.table}` : 'Table terminal';
  $('always').hidden = !authorised || flow?.kind === 'pin';
  const html = screen();
  if ($('screen').dataset.html !== html) {
    $('screen').innerHTML = html;
    $('screen').dataset.html = html;
    document.body.dataset.screen = flow?.kind ?? (view?.deal ? (view.deal.over ? 'result' : 'play') : 'waiting');
  }
}

// ------------------------------------------------------------------ actions

async function pinOk() {
  const r = await fetch('/terminal/api/pin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: flow.digits }) });
  const a = await r.json();
  if (a.ok) {
    flow = null;
    say('');
  } else {
    flow.digits = '';
    say(a.error);
  }
  await refresh();
}

const ACTIONS = {
  'pin-digit': (v) => { if (flow.digits.length < 8) flow.digits += v; },
  'pin-back': () => { flow.digits = flow.digits.slice(0, -1); },
  'pin-ok': pinOk,
  'round-ok': () => { localStorage.setItem(roundKey(), 'confirmed'); },
  cancel: () => { flow = null; say(''); },
  names: () => { flow = { kind: 'names' }; },
  'names-save': async () => {
    const names = Object.fromEntries([...document.querySelectorAll('.names input')].map((i) => [i.name, i.value.trim()]));
    if (await send('set-players', { round: view.round.round, names })) flow = null;
  },
  'c-level': (v) => { flow = { kind: 'contract', step: 'strain', level: v }; },
  'c-strain': (v) => { Object.assign(flow, { step: 'double', strain: v }); },
  'c-double': (v) => { Object.assign(flow, { step: 'declarer', double: v }); },
  'c-declarer': (v) => { Object.assign(flow, { step: 'confirm', declarer: v }); },
  'c-send': async () => {
    const f = flow;
    if (await send('set-contract', { contract: `${f.level}${f.strain}${f.declarer}${f.double}` })) flow = null;
  },
  claim: () => { flow = { kind: 'claim', step: 'seat' }; },
  'k-seat': (v) => { Object.assign(flow, { step: 'tricks', seat: v }); },
  'k-tricks': (v) => { Object.assign(flow, { step: 'confirm', tricks: Number(v) }); },
  'k-send': async () => { if (await send('claim', { seat: flow.seat, tricks: flow.tricks })) flow = null; },
  'k-accept': () => send('answer-claim', { seat: lho(view.deal.claim.seat), accept: true }),
  'k-dispute': async () => {
    if (await send('answer-claim', { seat: lho(view.deal.claim.seat), accept: false, reason: 'the claim is disputed at the table' })) flow = { kind: 'director', step: 'called' };
  },
  'r-accept': () => send('accept-result', { seat: view.deal.result.acceptBy[0], ...(view.deal.board != null ? { board: view.deal.board } : {}) }),
  director: () => { flow = { kind: 'director', step: 'reason' }; },
  'd-reason': (v) => { flow = { kind: 'director', step: 'confirm', reason: Number(v) }; },
  'd-send': async () => { if (await send('call-director', { reason: REASONS[flow.reason] })) flow = { kind: 'director', step: 'called' }; },
  undo: () => { flow = { kind: 'undo', step: 'pick' }; },
  'u-pick': (v) => { flow = { kind: 'undo', step: 'confirm', seq: Number(v) }; },
  'u-send': async () => { if (await send('undo-misread', { seq: flow.seq, reason: 'misread, undone at the terminal' })) flow = null; },
};

document.addEventListener('click', async (e) => {
  const b = e.target.closest('button[data-act]');
  if (!b || busy) return;
  const act = ACTIONS[b.dataset.act];
  if (!act) return;
  await act(b.dataset.v);
  render();
});

await refresh();
setInterval(() => { if (!busy) void refresh(); }, 1000);
