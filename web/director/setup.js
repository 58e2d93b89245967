// The set-up screens (`tenace director --setup`): one step a screen — the session and its game, the movement with a
// preview of its schedule, each table smart or hand-scored, the pairs' players from the club's list — then Start,
// which writes the session's config and starts the director; the page reloads on the running session.
import { $, el } from './app.js';
import { api, button, field, input, me, select } from './console.js';

const choice = { session: '', variant: 'duplicate-whist', movement: { name: 'mitchell', tables: 3, boardsPerRound: 2, options: {} }, manual: [], pairs: {} };
let info = null;
let schedule = null;
let players = [];

function screen(title, body, buttons, error) {
  $('setup-title').textContent = title;
  $('setup-body').replaceChildren(...body);
  $('setup-error').textContent = error ?? '';
  $('setup-error').hidden = !error;
  $('setup-buttons').replaceChildren(...buttons);
  document.body.dataset.setupStep = title;
}

function number(name, value, min, max) {
  const i = input(name, 'number', String(value));
  i.min = String(min);
  i.max = String(max);
  return i;
}

function stepSession() {
  const name = input('session', 'text', choice.session || `${new Date().toISOString().slice(0, 10)}-evening`);
  const game = select('variant', info.variants.map((v) => [v, v.replace(/-/g, ' ')]), choice.variant);
  screen('The session', [field('Name of the session', name), field('Game', game)], [button('Next', 'primary', () => {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name.value.trim())) return screen('The session', [field('Name of the session', name), field('Game', game)], [button('Next', 'primary', () => stepSession())], 'Name: use letters, digits, "-", "_" or "." (no spaces), e.g. 2026-12-04-evening.');
    choice.session = name.value.trim();
    choice.variant = game.value;
    void stepMovement();
  })]);
}

/** The schedule as rounds × tables: who sits N-S and E-W, and the boards. */
function previewTable(s) {
  const t = el('table', 'preview');
  const head = el('tr');
  head.append(el('th', null, 'Round'), ...Array.from({ length: s.tables }, (_, i) => el('th', null, `Table ${i + 1}`)));
  t.append(head);
  for (const r of s.rounds) {
    const tr = el('tr');
    tr.append(el('th', null, String(r.round)));
    for (let n = 1; n <= s.tables; n++) {
      const e = r.tables.find((x) => x.table === n);
      const td = el('td');
      if (e) td.append(el('b', null, `${e.ns ?? '?'} v ${e.ew ?? '?'}`), el('span', null, `boards ${e.trays.filter((b) => b !== null).join(', ') || '—'}`));
      else td.append(el('span', 'none', 'no play'));
      tr.append(td);
    }
    t.append(tr);
  }
  return t;
}

async function stepMovement(error) {
  const m = choice.movement;
  const name = select('movement', info.movements.map((x) => [x.name, x.name.replace(/-/g, ' ')]), m.name);
  const tables = number('tables', m.tables, 1, 200);
  const boards = number('boards', m.boardsPerRound ?? 2, 1, 36);
  const extra = select('extra', [['', 'no'], ['yes', 'yes']], m.options.pairs || m.options.even === 'relay' ? 'yes' : '');
  const extraField = field('', extra);
  const preview = el('div', 'preview-wrap');
  const read = () => {
    const t = Number(tables.value);
    const options = name.value === 'howell' && extra.value ? { pairs: 2 * t + 1 } : name.value === 'mitchell' && t % 2 === 0 ? { even: extra.value ? 'relay' : 'skip' } : {};
    return { name: name.value, tables: t, boardsPerRound: Number(boards.value), options };
  };
  const refresh = async () => {
    const want = read();
    extraField.hidden = !(want.name === 'howell' || (want.name === 'mitchell' && want.tables % 2 === 0));
    extraField.querySelector('.label').textContent = want.name === 'howell' ? 'An odd number of pairs (a phantom: one pair sits out each round)' : 'Relay and bye stand (an even number of tables)';
    const r = await api('setup/preview', want);
    schedule = r.ok ? r.schedule : null;
    $('setup-error').hidden = r.ok;
    $('setup-error').textContent = r.ok ? '' : r.error;
    preview.replaceChildren(...(r.ok ? [el('p', 'hint', `${r.schedule.rounds.length} rounds, ${r.schedule.trays} boards, ${r.schedule.participants.length} pairs`), previewTable(r.schedule)] : []));
  };
  for (const i of [name, tables, boards, extra]) i.addEventListener('change', () => void refresh());
  screen('The movement', [field('Movement', name), field('Tables', tables), field('Boards a round', boards), extraField, preview], [
    button('Back', 'secondary', stepSession),
    button('Next', 'primary', () => {
      if (!schedule) return;
      choice.movement = read();
      choice.manual = choice.manual.filter((t) => Number(t) <= schedule.tables);
      stepTables();
    }),
  ], error);
  await refresh();
}

function stepTables() {
  const rows = Array.from({ length: schedule.tables }, (_, i) => {
    const id = String(i + 1);
    return field(`Table ${id}`, select(`kind-${id}`, [['smart', 'Smart table (card readers)'], ['manual', 'Hand-scored (no readers)']], choice.manual.includes(id) ? 'manual' : 'smart'));
  });
  screen('The tables', rows, [button('Back', 'secondary', () => void stepMovement()), button('Next', 'primary', () => {
    choice.manual = rows.map((r) => r.querySelector('select')).filter((s) => s.value === 'manual').map((s) => s.name.slice(5));
    void stepPlayers();
  })]);
}

/** "Ann Lee (EBU-1234)" → { name, member }. */
function parsePlayer(text) {
  const m = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(text.trim());
  return m ? { name: m[1], member: m[2] } : { name: text.trim() };
}

async function stepPlayers() {
  const r = await api('players');
  players = r.ok ? r.players : [];
  const list = el('datalist');
  list.id = 'club-players';
  for (const p of players) {
    const o = el('option');
    o.value = p.member ? `${p.name} (${p.member})` : p.name;
    list.append(o);
  }
  const rows = schedule.participants.map((pair) => {
    const box = el('fieldset', 'player');
    box.append(el('legend', null, `Pair ${pair}`));
    for (const i of [0, 1]) {
      const now = choice.pairs[pair]?.players?.[i];
      const x = input(`${pair}-${i}`, 'text', now ? (now.member ? `${now.name} (${now.member})` : now.name) : '');
      x.setAttribute('list', 'club-players');
      x.placeholder = 'Name (member number)';
      box.append(field(`Player ${i + 1}`, x));
    }
    return box;
  });
  screen('The players', [el('p', 'hint', 'Pick from the club\'s players list, or type a new name (and member number in brackets).'), list, ...rows], [
    button('Back', 'secondary', stepTables),
    button('Next', 'primary', () => {
      choice.pairs = {};
      for (const pair of schedule.participants) {
        const ps = [0, 1].map((i) => $('setup-body').querySelector(`[name="${pair}-${i}"]`).value).filter((v) => v.trim()).map(parsePlayer);
        if (ps.length) choice.pairs[pair] = { players: ps };
      }
      stepStart();
    }),
  ]);
}

function stepStart(error) {
  const named = Object.keys(choice.pairs).length;
  const m = choice.movement;
  const lines = [
    `Session ${choice.session}, ${choice.variant.replace(/-/g, ' ')}.`,
    `${m.name.replace(/-/g, ' ')} on ${m.tables} tables, ${m.boardsPerRound} boards a round: ${schedule.rounds.length} rounds.`,
    choice.manual.length ? `Hand-scored: table ${choice.manual.join(', ')}; the others are smart tables.` : 'Every table is a smart table.',
    `Players named for ${named} of ${schedule.participants.length} pairs.`,
  ];
  screen('Start the session', lines.map((l) => el('p', 'summary', l)), [
    button('Back', 'secondary', () => void stepPlayers()),
    button('Start', 'primary', async () => {
      const r = await api('setup/start', choice);
      if (!r.ok) return stepStart(r.error);
      screen('Starting…', [el('p', 'summary', `The session's config is ${r.file}. The director is starting; this page opens it.`)], []);
      const wait = async () => {
        const i = await fetch('info.json').then((x) => x.json()).catch(() => null);
        if (i && !i.setup) location.reload();
        else setTimeout(wait, 500);
      };
      setTimeout(wait, 500);
    }),
  ], error);
}

document.addEventListener('tenace:me', (e) => {
  if (!info) return;
  $('setup').hidden = false;
  if (!e.detail.signedIn) screen('Set up a session', [el('p', 'summary', 'Sign in as the director to set up the session.')], []);
  else if (!choice.session) stepSession();
});

fetch('info.json').then((r) => r.json()).then(async (i) => {
  if (!i.setup) return;
  document.body.classList.add('setup-mode');
  $('session').textContent = 'setting up a session';
  info = await (await fetch('api/setup')).json();
  $('setup').hidden = false;
  if (me.signedIn) stepSession();
  else screen('Set up a session', [el('p', 'summary', 'Sign in as the director to set up the session.')], []);
}).catch(() => undefined);
