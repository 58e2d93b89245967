// The browser table view: subscribes to the table's topics over MQTT-over-WebSocket and draws the state.
// ?director=1 (with ?username=&password= for a broker with an ACL) shows the director's snapshot and findings.
const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SEATS = ['N', 'E', 'S', 'W'];
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

function cardEl(card, extra = '') {
  const el = document.createElement('span');
  el.className = `card ${card[0]} ${extra}`.trim();
  el.textContent = `${SUIT[card[0]] ?? card[0]}${card[1] === 'T' ? '10' : card[1]}`;
  el.dataset.card = card;
  return el;
}

function handCards(pbnHand) {
  if (!pbnHand) return [];
  return pbnHand.split('.').flatMap((ranks, s) => [...ranks].map((r) => 'SHDC'[s] + r));
}

/** Draw a state snapshot (public `state` or the director's `director/state`). */
function render(state) {
  const d = state.deal;
  $('board').textContent = d?.board ?? '–';
  $('variant').textContent = d?.variant ?? '–';
  $('dealer').textContent = d?.dealer ?? '–';
  $('trump').textContent = d?.trump ? SUIT[d.trump] + (d.trumpCard ? ` (${d.trumpCard})` : '') : d?.trump === null && d?.contract ? 'NT' : '–';
  $('contract-wrap').hidden = !d?.contract;
  $('contract').textContent = d?.contract ?? '';
  $('trick-no').textContent = d ? Math.min(d.trick, 13) : '–';
  $('embargo').hidden = !d || d.released !== false;
  for (const s of SEATS) {
    const box = $(`seat-${s}`);
    const inPlay = !d || (d.seats ?? SEATS).includes(s);
    box.classList.toggle('idle', !inPlay);
    box.classList.toggle('turn', !!d && d.whoseTurn === s);
    box.querySelector('.count').textContent = d ? `${d.playedCount?.[s] ?? d.played?.[s]?.length ?? 0} played` : '';
    const hand = box.querySelector('.hand');
    hand.replaceChildren(...handCards(d?.remaining?.[s]).map((c) => cardEl(c)));
    const played = box.querySelector('.played');
    played.replaceChildren(...(d?.played?.[s] ?? []).map((c) => cardEl(c)));
    const spot = $(`spot-${s}`);
    const cur = d?.current?.cards?.find((x) => x.seat === s);
    spot.replaceChildren(...(cur ? [cardEl(cur.card)] : []));
  }
  $('won-NS').textContent = d?.tricksWon?.NS ?? 0;
  $('won-EW').textContent = d?.tricksWon?.EW ?? 0;
  const scored = d?.scored && d.status === 'ended' && (d.scored.NS !== d.tricksWon?.NS || d.scored.EW !== d.tricksWon?.EW);
  $('scored-wrap').hidden = !scored;
  if (scored) { $('scored-NS').textContent = d.scored.NS; $('scored-EW').textContent = d.scored.EW; }
  $('tricks').replaceChildren(...(d?.tricks ?? []).map((t) => {
    const li = document.createElement('li');
    li.textContent = `${t.leader}→${t.winner}: ${Object.values(t.cards).join(' ')}`;
    return li;
  }));
  const findings = d?.findings ?? [];
  $('findings').replaceChildren(...(findings.length ? findings.map((f) => {
    const li = document.createElement('li');
    li.className = `finding ${f.kind}`;
    li.innerHTML = `<b></b> <span class="law"></span> <span class="msg"></span>`;
    li.querySelector('b').textContent = `${f.title ?? f.kind} · ${f.seat} · trick ${f.trick}`;
    li.querySelector('.law').textContent = f.law;
    li.querySelector('.msg').textContent = f.message ?? '';
    return li;
  }) : [Object.assign(document.createElement('li'), { className: 'none', textContent: 'none' })]));
  document.body.dataset.rev = String(state.rev);
  document.body.dataset.seq = String(state.seq ?? '');
}

async function main() {
  const cfg = await (await fetch('config.json')).json();
  $('club').textContent = cfg.club;
  $('table').textContent = cfg.table;
  const director = params.get('director') === '1';
  $('mode').textContent = director ? 'director' : 'public';
  const base = `${cfg.base}/${cfg.club}/${cfg.table}`;
  // A path means the broker is reached through this server (the embedded broker's WebSocket).
  const wsUrl = cfg.wsUrl.startsWith('/') ? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${cfg.wsUrl}` : cfg.wsUrl;
  const client = window.mqtt.connect(wsUrl, {
    username: params.get('username') ?? undefined, password: params.get('password') ?? undefined, reconnectPeriod: 1000,
  });
  const stateTopic = director ? `${base}/director/state` : `${base}/state`;
  client.on('connect', () => client.subscribe([`${base}/status`, stateTopic], { qos: 1 }));
  client.on('close', () => setStatus('offline'));
  client.on('message', (topic, payload) => {
    const text = new TextDecoder().decode(payload);
    if (topic === `${base}/status`) return setStatus(text);
    if (topic === stateTopic && text) render(JSON.parse(text));
  });
}

function setStatus(s) {
  const el = $('status');
  el.textContent = s;
  el.dataset.status = s;
  el.className = `status ${s === 'online' ? 'online' : 'offline'}`;
}

main().catch((e) => { $('status').textContent = `error: ${e.message}`; });
