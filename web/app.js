// The browser table view: subscribes to the table's topics over MQTT-over-WebSocket and draws the retained snapshot.
// The feed republishes the retained `state` after every event, so the snapshot alone keeps the view current.
// ?director=1 (with ?username=&password= for a broker with an ACL) follows the director's snapshot instead: the
// remaining hands and every finding, including live renounce alerts, which the public never sees.
const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SEATS = ['N', 'E', 'S', 'W'];
const SEAT_NAME = { N: 'North', E: 'East', S: 'South', W: 'West' };
const KIND_TEXT = {
  'renounce-in-error': 'Renounce in error',
  revoke: 'Revoke',
  'lead-out-of-turn': 'Lead out of turn',
  'play-out-of-turn': 'Play out of turn',
  'wrong-trump-card': 'Wrong trump card',
  'card-not-in-hand': 'Card not in the hand of the tray',
  'wrong-card-count': 'Wrong number of cards',
  'duplicate-card': 'Duplicate card',
  'unknown-card': 'Unknown card',
  'card-liable-to-be-called': 'Card liable to be called',
  'failure-to-comply': 'Failure to comply with a penalty',
  'play-order-lost': 'Play order lost (the director rules)',
};
const params = new URLSearchParams(location.search);
const director = params.get('director') === '1';
const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(card, extra = '') {
  const e = el('span', `card ${card[0]} ${extra}`.trim(), `${SUIT[card[0]] ?? card[0]}${card[1] === 'T' ? '10' : card.slice(1)}`);
  e.dataset.card = card;
  return e;
}

/** A contract as players write it: "4SS" → "4♠ by S", "3NTWX" → "3NTX by W"; anything else as it came. */
function contractEl(text) {
  const m = /^([1-7])(NT|N|[SHDC])([NESW])(XX|X)?$/i.exec(String(text).trim());
  if (!m) return [String(text)];
  const strain = m[2].toUpperCase();
  const suit = strain === 'NT' || strain === 'N' ? el('span', 'strain', 'NT') : el('span', `strain suit ${strain}`, SUIT[strain]);
  return [m[1], suit, `${m[4]?.toUpperCase() ?? ''} by ${m[3].toUpperCase()}`];
}

/** The seats a board's vulnerability (PBN: None, NS, EW, All; also Both, Love, -) puts at risk, and how to say it. */
function vulnerability(v) {
  const key = String(v ?? '').trim().toUpperCase();
  if (key === 'NS' || key === 'N-S') return { seats: ['N', 'S'], text: 'N-S' };
  if (key === 'EW' || key === 'E-W') return { seats: ['E', 'W'], text: 'E-W' };
  if (key === 'ALL' || key === 'BOTH') return { seats: SEATS, text: 'both' };
  if (key === 'NONE' || key === 'LOVE' || key === '-') return { seats: [], text: 'none' };
  return null;
}

/**
 * The trick the centre shows: the one in progress, or between tricks the one just won, whose cards still lie on the
 * table until the next lead. The header and the centre both name this one, so they never disagree.
 */
function shownTrick(d) {
  const last = d.tricks?.at(-1);
  const showLast = (d.current?.cards ?? []).length === 0 && !!last;
  return { showLast, last, number: showLast ? last.number : Math.min(d.trick, 13) };
}

/** A PBN hand ("AK2.QJ.T98.765") as cards. */
function handCards(pbnHand) {
  if (!pbnHand) return [];
  return pbnHand.split('.').flatMap((ranks, s) => [...ranks].map((r) => 'SHDC'[s] + r));
}

/** The seats of a trick in the order they played. */
function playOrder(trick, seats) {
  if (trick.order) return trick.order;
  const start = SEATS.indexOf(trick.leader);
  return [0, 1, 2, 3].map((i) => SEATS[(start + i) % 4]).filter((s) => seats.includes(s) && trick.cards[s]);
}

/** The card played last in a snapshot (the trick in progress, else the last trick's last card), or null. */
function lastPlayed(d) {
  const cur = d?.current?.cards ?? [];
  if (cur.length) return cur.at(-1);
  const t = d?.tricks?.at(-1);
  if (!t) return null;
  const seat = playOrder(t, d.seats ?? SEATS).at(-1);
  return seat ? { seat, card: t.cards[seat] } : null;
}

const TRICKS = (n) => `${n} trick${n === 1 ? '' : 's'}`;

/**
 * The live double-dummy analysis (issue 21, the table's `analysis` topic, vugraph accounts only): after each card,
 * what each side can still take with best play, and what each legal card of the player to play would give. The table
 * publishes it only once the embargo lets the deal out, so until then the panel says it is held back.
 */
function renderAnalysis(a, state) {
  const box = $('analysis');
  const d = state?.deal ?? null;
  const msg = (text, kind) => {
    box.dataset.dd = kind;
    $('dd-msg').textContent = text;
    $('dd-left').hidden = true;
    $('dd-last').hidden = true;
    $('dd-to-play').hidden = true;
    $('dd-cards').replaceChildren();
  };
  if (a?.status === 'off') return msg(`${a.message ?? 'double-dummy analysis is off: install libdds0 (apt install libdds0)'}. The table plays on without it.`, 'off');
  const sameDeal = !!a && !!d && a.board === d.board;
  if (!a || !sameDeal) {
    // A board released after this table moved on (tray-complete): its summary, from the opening lead to the end.
    const first = a?.status === 'on' ? a.positions[0] : undefined;
    const end = a?.status === 'on' ? a.positions.at(-1) : undefined;
    const earlier = first && end && !end.toPlay
      ? `Board ${a.board}, released: from the opening lead N-S could take ${first.left.NS} and E-W ${first.left.EW}; the table took ${end.won.NS}–${end.won.EW}. `
      : '';
    if (d && d.released === false) return msg(`${earlier}The analysis of this deal is held back until the embargo lets its cards out.`, 'embargo');
    return msg(d ? 'waiting for the analysis of this deal… (it is sent to vugraph accounts only)' : 'waiting for a deal…', 'waiting');
  }
  if (a.status === 'unknown-hands') return msg(a.message ?? 'the hands are not known at this table: no analysis', 'unknown-hands');
  const p = a.positions.at(-1);
  if (!p) return msg('waiting for the analysis of this deal…', 'waiting');
  box.dataset.dd = 'on';
  box.dataset.played = String(p.played);
  $('dd-msg').textContent = '';
  $('dd-left').hidden = false;
  $('dd-NS').textContent = String(p.left.NS);
  $('dd-EW').textContent = String(p.left.EW);
  // The card just played and what it cost, when the snapshot shows the same card count as the analysis.
  const shown = d ? SEATS.reduce((n, s) => n + (d.playedCount?.[s] ?? 0), 0) : -1;
  const before = a.positions.find((x) => x.played === p.played - 1);
  const last = shown === p.played ? lastPlayed(d) : null;
  const cost = last && before ? before.cards.find((c) => c.card === last.card)?.cost : undefined;
  $('dd-last').hidden = cost === undefined;
  if (cost !== undefined) {
    $('dd-last').dataset.cost = String(cost);
    $('dd-last').replaceChildren(`${SEAT_NAME[last.seat]}'s `, cardEl(last.card), cost ? ` cost ${SIDE_TEXT[last.seat === 'N' || last.seat === 'S' ? 'NS' : 'EW']} ${TRICKS(cost)}` : ' was as good as any');
  }
  $('dd-to-play').hidden = !p.toPlay;
  $('dd-to-play').textContent = p.toPlay ? `${SEAT_NAME[p.toPlay]} to play: what each card gives ${SIDE_TEXT[p.toPlay === 'N' || p.toPlay === 'S' ? 'NS' : 'EW']}` : '';
  if (!p.toPlay) $('dd-msg').textContent = `Deal over: N-S ${p.won.NS}, E-W ${p.won.EW}.`;
  $('dd-cards').replaceChildren(...p.cards.map((c) => {
    const li = el('li', c.cost ? 'costs' : 'best');
    li.dataset.card = c.card;
    li.dataset.cost = String(c.cost);
    li.append(cardEl(c.card), el('span', 'dd-tricks', c.cost ? `${c.tricks} (−${c.cost})` : String(c.tricks)));
    li.title = c.cost ? `${c.card}: ${TRICKS(c.tricks)}, costs ${TRICKS(c.cost)}` : `${c.card}: ${TRICKS(c.tricks)}, the best`;
    return li;
  }));
}

/** Draw a snapshot: the public `state`, or the director's `director/state`. */
function render(state) {
  const d = state.deal;
  const seats = d?.seats ?? SEATS;
  const released = !!d && d.released !== false;
  $('board').textContent = d?.board ?? '–';
  $('variant').textContent = d?.variant ?? '–';
  $('dealer').textContent = d?.dealer ?? '–';
  $('trump').textContent = d?.trump ? SUIT[d.trump] + (d.trumpCard ? ` (${d.trumpCard.replace('T', '10')})` : '') : d?.trump === null && d?.contract ? 'NT' : '–';
  $('contract-wrap').hidden = !d?.contract;
  $('contract').replaceChildren(...(d?.contract ? contractEl(d.contract) : []));
  const vul = vulnerability(d?.vulnerable);
  $('vul-wrap').hidden = !vul;
  $('vul').textContent = vul?.text ?? '';
  const shown = d ? shownTrick(d) : null;
  $('trick-no').textContent = shown ? String(shown.number) : '–';
  $('turn').textContent = d?.whoseTurn ? SEAT_NAME[d.whoseTurn] : d?.status === 'ended' ? 'deal over' : '–';
  $('embargo').hidden = !d || released;
  // Club session: what the last tray scan did. A wrong tray is shown before any card is played (docs/club.md).
  const club = state.club;
  $('club-line').hidden = !club;
  $('club-line').textContent = club?.message ?? '';
  $('club-line').dataset.clubStatus = club?.status ?? 'none';
  document.body.dataset.clubStatus = club?.status ?? 'none';
  document.body.dataset.dealStatus = d?.status ?? 'none';

  const current = d?.current?.cards ?? [];
  // Between tricks the four cards still lie on the table: show the trick just won until the next card is played.
  const showLast = !!shown?.showLast;
  const last = shown?.last;
  for (const s of SEATS) {
    const box = $(`seat-${s}`);
    box.classList.toggle('idle', !!d && !seats.includes(s));
    box.classList.toggle('turn', !!d && d.whoseTurn === s);
    box.classList.toggle('vul', !!vul?.seats.includes(s));
    const played = d?.played?.[s] ?? [];
    const count = d?.playedCount?.[s] ?? played.length;
    const held = handCards(d?.remaining?.[s]);
    box.querySelector('.count').textContent = !d ? '' : held.length ? `${count} played · ${held.length} held` : `${count} played`;
    box.querySelector('.hand').replaceChildren(...held.map((c) => cardEl(c)));
    box.querySelector('.exposed').replaceChildren(...(d?.exposed ?? []).filter((x) => x.seat === s).map((x) => cardEl(x.card, 'liable')));
    box.querySelector('.played').replaceChildren(...played.map((c) => cardEl(c)));
    const spot = $(`spot-${s}`);
    const cur = current.find((x) => x.seat === s);
    if (cur) spot.replaceChildren(cardEl(cur.card));
    else if (showLast && last.cards[s]) spot.replaceChildren(cardEl(last.cards[s], `last${last.winner === s ? ' win' : ''}`));
    else spot.replaceChildren();
  }
  $('centre').classList.toggle('showing-last', showLast);
  $('trick-label').textContent = !d ? 'waiting for a deal' : showLast ? `trick ${last.number} won by ${SEAT_NAME[last.winner]}` : `trick ${shown.number}`;

  $('won-NS').textContent = String(d?.tricksWon?.NS ?? 0);
  $('won-EW').textContent = String(d?.tricksWon?.EW ?? 0);
  if (d?.sides) {
    $('score-NS').querySelector('.label').textContent = SEAT_NAME[d.sides.NS];
    $('score-EW').querySelector('.label').textContent = SEAT_NAME[d.sides.EW];
  }
  const scored = d?.scored && d.status === 'ended' && (d.scored.NS !== d.tricksWon?.NS || d.scored.EW !== d.tricksWon?.EW);
  $('scored-wrap').hidden = !scored;
  if (scored) { $('scored-NS').textContent = String(d.scored.NS); $('scored-EW').textContent = String(d.scored.EW); }

  $('tricks').replaceChildren(...(d?.tricks ?? []).map((t) => {
    const li = el('li', 'trick');
    li.dataset.winner = t.winner;
    li.append(el('span', 'no', String(t.number)));
    for (const s of playOrder(t, seats)) {
      const p = el('span', `play${s === t.winner ? ' won' : ''}`);
      p.append(el('span', 'who', s), cardEl(t.cards[s]));
      li.append(p);
    }
    return li;
  }));
  $('tricks').scrollTop = $('tricks').scrollHeight;

  const findings = d?.findings ?? [];
  $('findings').replaceChildren(...(findings.length ? findings.map((f) => {
    const li = el('li', `finding ${f.kind}`);
    li.dataset.kind = f.kind;
    const head = el('div', 'head');
    head.append(el('b', 'title', KIND_TEXT[f.kind] ?? f.kind), el('span', 'where', ` · ${SEAT_NAME[f.seat] ?? f.seat} · trick ${f.trick} `), el('span', 'law', f.law));
    li.append(head, el('div', 'msg', f.message ?? ''));
    const remedies = (f.remedies ?? []).filter((r) => r.text);
    if (remedies.length) {
      const ul = el('ul', 'remedies');
      for (const r of remedies) ul.append(el('li', '', `${r.option ? `${r.option}'s option: ` : ''}${r.text}`));
      li.append(ul);
    }
    return li;
  }) : [el('li', 'none', d ? 'none' : '–')]));
  $('penalties').replaceChildren(...(d?.penalties ?? []).filter((p) => p && p.kind && p.kind !== 'liable-card').map((p) => {
    const who = (xs) => (Array.isArray(xs) ? xs.join('/') : '');
    return el('li', 'penalty', `pending: ${p.kind.replace(/-/g, ' ')} against ${who(p.from)}, at the option of ${who(p.by)} (${p.law})`);
  }));
  renderScore(state.score, state.honours, d?.sides);
  document.body.dataset.rev = String(state.rev);
  document.body.dataset.seq = String(state.seq ?? '');
}

const SIDE_TEXT = { NS: 'N-S', EW: 'E-W' };
const GAME_TEXT = {
  'english-whist': 'English whist', whist: 'American whist', 'prussian-whist': 'Prussian whist', 'favourite-whist': 'Favourite whist',
  'english-dummy': 'English Dummy', 'double-dummy': 'Double Dummy', mort: 'Mort', humbug: 'Humbug', 'thirteen-and-the-odd': 'Thirteen and the Odd',
};

/**
 * The score of a social game (issue 9): points in the game, games in the rubber, rubbers won, and the honours called
 * and counted, as a player keeping markers sees them. Nothing for duplicate whist and bridge (no `score`). The public
 * score counts honours and never lists them; the director's also has every call with the engine's verdict.
 */
function renderScore(score, calls, sides) {
  const box = $('game-score');
  box.hidden = !score;
  box.dataset.game = score?.game ?? 'none';
  if (!score) return;
  const side = (s) => (sides ? SEAT_NAME[sides[s]] : SIDE_TEXT[s]);
  $('game-name').textContent = `${GAME_TEXT[score.game] ?? score.game}, game of ${score.gamePoints}`;
  for (const s of ['NS', 'EW']) {
    $(`gs-label-${s}`).textContent = side(s);
    $(`gs-points-${s}`).textContent = String(score.points[s]);
    $(`gs-games-${s}`).textContent = String(score.gamesWon[s]);
    $(`gs-totals-${s}`).textContent = String(score.totals[s]);
  }
  const mort = score.game === 'mort' || score.game === 'whist';
  $('gs-totals-label').textContent = mort ? 'Games won' : 'Rubbers';
  const last = score.rubbers.at(-1);
  const tournee = score.tournee ? ` · tournée ${score.tournee.played} of ${score.tournee.of}${score.tournee.complete ? ' (complete)' : ''}` : '';
  $('gs-rubber').textContent = last
    ? `Rubber ${score.rubbers.length} to ${side(last.winner)}, worth ${last.value}${last.deducted ? ` (less ${last.deducted} for the losers' game)` : ''}${tournee}`
    : `Rubber 1 in play${score.favourite ? ` · favourite ${SUIT[score.favourite]}` : ''}${tournee}`;
  // Honours of the last deal scored: who called (English Law 7: they must be called), who counted, how many held.
  const line = score.deals.at(-1);
  const h = line?.honours;
  const honourPts = (line?.items ?? []).filter((i) => i.what === 'honours');
  $('gs-honours').textContent = !line ? 'Honours: no deal scored yet'
    : `Honours, board ${line.board ?? '?'}: called by ${h.called.length ? h.called.map(side).join(', ') : 'nobody'}` +
      (honourPts.length ? `; counted ${honourPts.map((i) => `${side(i.side)} ${i.points}`).join(', ')}` : '; none counted') +
      (h.held ? ` (held ${h.held.NS}–${h.held.EW})` : '');
  const pending = score.calls ?? [];
  $('gs-calls').hidden = pending.length === 0;
  $('gs-calls').textContent = pending.length ? `Called this deal: ${pending.map((c) => `${SEAT_NAME[c.seat]} ${c.count ?? '?'}`).join(', ')}` : '';
  // Director: every call with its verdict; public: the false calls, without the cards.
  const items = Array.isArray(calls) ? calls.filter((c) => c.verdict !== 'true').map((c) => ({ cls: `call ${c.verdict}`, text: `Board ${c.board ?? '?'}: ${SEAT_NAME[c.seat]} called ${c.count ?? c.cards?.length ?? '?'} — ${c.verdict}: ${c.message}` }))
    : score.findings.map((f) => ({ cls: 'call false', text: `Board ${f.board ?? '?'}: ${f.message}` }));
  $('gs-findings').replaceChildren(...items.map((x) => el('li', x.cls, x.text)));
  box.dataset.points = `${score.points.NS}-${score.points.EW}`;
  box.dataset.totals = `${score.totals.NS}-${score.totals.EW}`;
}

function setStatus(s, text = s) {
  const e = $('status');
  e.textContent = text;
  e.dataset.status = s;
  e.className = `status ${s}`;
}

async function main() {
  const cfg = await (await fetch('config.json')).json();
  $('club').textContent = cfg.club;
  $('table').textContent = cfg.table;
  document.title = `tenace — ${cfg.club} table ${cfg.table}${director ? ' (director)' : ''}`;
  document.body.dataset.mode = director ? 'director' : 'public';
  $('mode').textContent = director ? 'director: every finding' : 'public';
  $('mode-badge').hidden = !director;
  const base = `${cfg.base}/${cfg.club}/${cfg.table}`;
  // A path means the broker is reached through this server (the embedded broker's WebSocket).
  const wsUrl = cfg.wsUrl.startsWith('/') ? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${cfg.wsUrl}` : cfg.wsUrl;
  const client = window.mqtt.connect(wsUrl, {
    username: params.get('username') ?? undefined, password: params.get('password') ?? undefined, reconnectPeriod: 1000,
  });
  const statusTopic = `${base}/status`;
  const stateTopic = director ? `${base}/director/state` : `${base}/state`;
  // Config feed.analysis: the live double-dummy analysis, on a topic only vugraph accounts (and the director) may read.
  const analysisTopic = cfg.analysis ? `${base}/analysis` : null;
  $('analysis').hidden = !analysisTopic;
  let tableStatus = null;
  let lastState = null;
  let lastAnalysis = null;
  client.on('connect', () => {
    // Apart: an account that may not read the analysis must not stop the table view.
    if (analysisTopic) {
      client.subscribe(analysisTopic, { qos: 1 }, (err) => {
        if (err) $('dd-msg').textContent = 'This account may not read the analysis: it is for vugraph accounts.';
      });
    }
    client.subscribe([statusTopic, stateTopic], { qos: 1 }, (err) => {
      if (err) setStatus('error', `cannot subscribe: ${err.message}`);
    });
  });
  // The status topic says whether the table is online; without a broker connection we know nothing.
  client.on('close', () => setStatus('disconnected', 'no connection'));
  client.on('connect', () => setStatus(tableStatus ?? 'connecting', tableStatus ?? 'waiting for the table…'));
  client.on('error', (err) => setStatus('error', err.message));
  client.on('message', (topic, payload) => {
    const text = new TextDecoder().decode(payload);
    if (topic === statusTopic) {
      tableStatus = text === 'online' ? 'online' : 'offline';
      return setStatus(tableStatus, text);
    }
    if (topic === stateTopic && text) {
      try {
        lastState = JSON.parse(text);
        render(lastState);
        if (analysisTopic) renderAnalysis(lastAnalysis, lastState);
      } catch (e) {
        console.error('bad snapshot', e);
      }
    }
    if (topic === analysisTopic && text) {
      try {
        lastAnalysis = JSON.parse(text);
        renderAnalysis(lastAnalysis, lastState);
      } catch (e) {
        console.error('bad analysis', e);
      }
    }
  });
}

main().catch((e) => setStatus('error', `error: ${e.message}`));
