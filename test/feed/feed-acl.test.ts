// (c) The shipped broker configuration, ACL and account script against a real mosquitto of our own: each table
// writes only its own topics, spectators read only the public topics, the director reads everything. The broker runs
// mosquitto/tenace.conf itself, with ports and paths moved into a temporary directory, and TLS certificates made here.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import type { FeedCommand } from '../../src/feed/commands.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { type Broker, client, freePort, mosquittoHasWebsockets, run, sleep, startBroker, uid, waitFor } from './broker.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'mosquitto', 'add-user.sh');
const PASSWORD = 'correct horse battery';

let broker: Broker;
let ports: { local: number; tls: number; ws: number | null; certs: number };
let ca: string;
const club = uid('c');
const users = { t1: `table-${club}-t1`, t2: `table-${club}-t2`, director: `dir-${club}`, spectator: `spec-${club}`, spectator2: `spec2-${club}`, vugraph: `vu-${club}` };

function makeCertificates(dir: string): void {
  const o = (args: string[]) => run('openssl', args);
  o(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.crt'), '-days', '2', '-subj', '/CN=tenace test CA']);
  o(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'server.key'), '-out', join(dir, 'server.csr'), '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  o(['x509', '-req', '-in', join(dir, 'server.csr'), '-CA', join(dir, 'ca.crt'), '-CAkey', join(dir, 'ca.key'), '-CAcreateserial', '-out', join(dir, 'server.crt'), '-days', '2', '-extfile', join(dir, 'san.ext')]);
  // A client certificate for table 2: its CN is the account name, which the ACL applies to.
  o(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 't2.key'), '-out', join(dir, 't2.csr'), '-subj', `/CN=${users.t2}`]);
  o(['x509', '-req', '-in', join(dir, 't2.csr'), '-CA', join(dir, 'ca.crt'), '-CAkey', join(dir, 'ca.key'), '-CAcreateserial', '-out', join(dir, 't2.crt'), '-days', '2']);
}

/** The client-certificate listener that tenace.conf describes in its comments. */
function certificateListener(dir: string, port: number): string {
  return `\nlistener ${port} 127.0.0.1\ncafile ${dir}/ca.crt\ncertfile ${dir}/server.crt\nkeyfile ${dir}/server.key\nrequire_certificate true\nuse_identity_as_username true\n`;
}

/**
 * mosquitto/tenace.conf and tenace-tls.conf with their ports and paths moved into `dir`, after the persistence lines
 * that Debian's packaged mosquitto.conf gives them; the websockets listener kept only if supported.
 */
function shippedConfig(dir: string, p: typeof ports): string {
  let conf = `persistence true\npersistence_location ${dir}/\n`
    + readFileSync(join(ROOT, 'mosquitto', 'tenace.conf'), 'utf8') + readFileSync(join(ROOT, 'mosquitto', 'tenace-tls.conf'), 'utf8');
  const replace = (from: RegExp, to: string) => {
    if (!from.test(conf)) throw new Error(`tenace.conf no longer matches ${from}: update this test`);
    conf = conf.replace(from, to);
  };
  replace(/^password_file .*$/m, `password_file ${dir}/passwd`);
  replace(/^acl_file .*$/m, `acl_file ${dir}/acl`);
  replace(/^listener 1883 127\.0\.0\.1$/m, `listener ${p.local} 127.0.0.1`);
  replace(/^listener 8883$/m, `listener ${p.tls} 127.0.0.1`);
  replace(/^cafile .*$/m, `cafile ${dir}/ca.crt`);
  replace(/^certfile .*$/m, `certfile ${dir}/server.crt`);
  replace(/^keyfile .*$/m, `keyfile ${dir}/server.key`);
  if (p.ws !== null) replace(/^listener 9001$/m, `listener ${p.ws} 127.0.0.1`);
  else replace(/^listener 9001\nprotocol websockets$/m, '# (websockets listener dropped: this mosquitto build has no websockets)');
  return conf;
}

function addUser(dir: string, args: string[], env: Record<string, string> = {}): void {
  run(SCRIPT, args, { TENACE_PASSWD_FILE: join(dir, 'passwd'), TENACE_ACL_FILE: join(dir, 'acl'), TENACE_MQTT_PASSWORD: PASSWORD, ...env });
}

const open: MqttClient[] = [];
async function login(user: string, url = `mqtt://127.0.0.1:${ports.local}`, extra = {}): Promise<MqttClient> {
  const c = await client(url, { username: user, password: PASSWORD, ...extra });
  open.push(c);
  return c;
}

/** Collect what a client receives. */
function inbox(c: MqttClient): { topic: string; payload: string; retained: boolean }[] {
  const got: { topic: string; payload: string; retained: boolean }[] = [];
  c.on('message', (topic, p, packet) => got.push({ topic, payload: p.toString(), retained: packet.retain }));
  return got;
}

let feed: Feed;
let source: MemoryEventSource;
const handled: FeedCommand[] = [];

beforeAll(async () => {
  const hasWs = await mosquittoHasWebsockets();
  ports = { local: await freePort(), tls: await freePort(), ws: hasWs ? await freePort() : null, certs: await freePort() };
  // startBroker makes the directory; write the files before the first start by starting from a stub and restarting.
  broker = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true', { port: ports.local });
  await broker.stop();
  const dir = broker.dir;
  makeCertificates(dir);
  ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
  copyFileSync(join(ROOT, 'mosquitto', 'acl'), join(dir, 'acl'));
  addUser(dir, ['table', club, 't1']);
  addUser(dir, ['table', club, 't2']);
  addUser(dir, ['director', users.director, club]);
  addUser(dir, ['spectator', users.spectator]);
  addUser(dir, ['vugraph', users.vugraph, club]);
  // The fallback hasher (no mosquitto_passwd, e.g. a broker in a container) must produce what mosquitto accepts.
  addUser(dir, ['spectator', users.spectator2], { TENACE_NO_MOSQUITTO_PASSWD: '1' });
  // Running the script again replaces the account's block instead of adding a second one.
  addUser(dir, ['table', club, 't1']);
  const acl = readFileSync(join(dir, 'acl'), 'utf8');
  expect(acl.split(`# >>> tenace account ${users.t1}`).length).toBe(2);
  const conf = shippedConfig(dir, ports) + certificateListener(dir, ports.certs);
  writeFileSync(join(dir, 'mosquitto.conf'), `user ${(await import('node:os')).userInfo().username}\nlog_dest stderr\n${conf}`);
  await broker.start();

  source = new MemoryEventSource();
  feed = new Feed({
    url: `mqtts://127.0.0.1:${ports.tls}`, tls: { ca }, username: users.t1, password: PASSWORD,
    club, table: 't1', source, mark: new MemoryDeliveryMark(), reconnectPeriod: 200,
    onCommand: async (c) => { handled.push(c); return { applied: true }; },
  });
  await feed.start();
  await waitFor(() => feed.connected, 5000, 'the table feed over TLS');
}, 30_000);

afterAll(async () => {
  await feed?.stop();
  for (const c of open) await c.endAsync(true).catch(() => {});
  await broker?.dispose();
});

/** Play part of a deal with a live renounce in error, so that the director topic has something to carry. */
async function playSome(n: number): Promise<void> {
  for (let seed = 1; seed < 100; seed++) {
    const sim = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board: 9, withHands: true, renounceAt: { trick: 2 } });
    if (!sim.injected) continue;
    const base = source.events.length;
    sim.events.slice(0, n).forEach((e, i) => source.append({ ...e, seq: base + i + 1 }));
    feed.notify();
    await feed.whenDelivered(base + Math.min(n, sim.events.length), 5000);
    return;
  }
  throw new Error('no seed injected a renounce');
}

describe('shipped ACL and accounts on mosquitto', () => {
  it('refuses anonymous clients and wrong passwords', async () => {
    await expect(client(`mqtt://127.0.0.1:${ports.local}`)).rejects.toThrow();
    await expect(client(`mqtt://127.0.0.1:${ports.local}`, { username: users.spectator, password: 'wrong password' })).rejects.toThrow();
    // The positive control: the right password gets in.
    expect((await login(users.spectator2)).connected).toBe(true);
  });

  it('refuses TLS without the club CA, and the table feed works over TLS with it', async () => {
    await expect(client(`mqtts://127.0.0.1:${ports.tls}`, { username: users.spectator, password: PASSWORD, rejectUnauthorized: true })).rejects.toThrow();
    const tls = await login(users.spectator, `mqtts://127.0.0.1:${ports.tls}`, { ca });
    expect(tls.connected).toBe(true);
  });

  it('lets a table log in with its client certificate, the certificate CN being its account', async () => {
    const dir = broker.dir;
    const url = `mqtts://127.0.0.1:${ports.certs}`;
    await expect(client(url, { ca, username: users.t2, password: PASSWORD })).rejects.toThrow();
    const spectator = await login(users.spectator);
    const got = inbox(spectator);
    await spectator.subscribeAsync(`tenace/${club}/t2/status`, { qos: 1 });
    const src = new MemoryEventSource();
    const t2 = new Feed({
      url, club, table: 't2', source: src, mark: new MemoryDeliveryMark(), reconnectPeriod: 200,
      tls: { ca, cert: readFileSync(join(dir, 't2.crt')), key: readFileSync(join(dir, 't2.key')) },
    });
    await t2.start();
    try {
      await waitFor(() => got.some((m) => m.payload === 'online'), 5000, "table 2's status through its certificate");
    } finally {
      await t2.stop();
    }
  });

  it('lets spectators read the public topics, and only the director read director alerts and tray records', async () => {
    const spectator = await login(users.spectator);
    const director = await login(users.director);
    const spec = inbox(spectator);
    const dir = inbox(director);
    // The spectator tries everything; the ACL filters what it gets.
    await spectator.subscribeAsync([`tenace/${club}/#`], { qos: 1 }).catch(() => {});
    let refused: number | null = null;
    try {
      await spectator.subscribeAsync(`tenace/${club}/t1/director`, { qos: 1 });
    } catch (err) {
      refused = (err as { code?: number }).code ?? -1;
    }
    await director.subscribeAsync([`tenace/${club}/#`], { qos: 1 });
    await playSome(30);
    // A tray record from the director (allowed), which the table may read and the spectator may not.
    await director.publishAsync(`tenace/${club}/trays/s1/9`, '{"board":9,"hands":"N:..."}', { qos: 1 });
    await waitFor(() => dir.some((m) => m.topic.endsWith('/director')) && dir.some((m) => m.topic.includes('/trays/')), 5000, 'director alerts and the tray record');
    await sleep(300);
    const specTopics = new Set(spec.map((m) => m.topic.split('/').slice(3).join('/')));
    expect(specTopics.has('state')).toBe(true);
    expect(specTopics.has('event')).toBe(true);
    expect(specTopics.has('status')).toBe(true);
    expect([...specTopics].filter((t) => !['state', 'event', 'status'].includes(t))).toEqual([]);
    expect(spec.some((m) => m.topic.includes('/trays/'))).toBe(false);
    // The live renounce alert reached the director and nobody else.
    expect(dir.some((m) => m.topic.endsWith('/director') && m.payload.includes('renounce-in-error'))).toBe(true);
    expect(spec.some((m) => m.payload.includes('renounce-in-error'))).toBe(false);
    expect(dir.some((m) => m.topic.endsWith('/director/state'))).toBe(true);
    // A SUBACK failure (0x80 unspecified, 0x87 not authorized) or, if the broker grants it, nothing arrived.
    if (refused !== null) expect([0x80, 0x87]).toContain(refused);
  });

  it('the live double-dummy analysis: the table writes it, vugraph accounts read it, spectators and other tables do not', async () => {
    const vugraph = await login(users.vugraph);
    const spectator = await login(users.spectator);
    const t2 = await login(users.t2);
    const vu = inbox(vugraph);
    const spec = inbox(spectator);
    const other = inbox(t2);
    for (const c of [vugraph, spectator, t2]) await c.subscribeAsync(`tenace/${club}/+/analysis`, { qos: 1 }).catch(() => {});
    await vugraph.subscribeAsync(`tenace/${club}/t1/state`, { qos: 1 });
    // A vugraph account may not write it: a forged analysis never reaches anyone.
    await vugraph.publishAsync(`tenace/${club}/t1/analysis`, '{"forged":true}', { qos: 1 }).catch(() => {});
    feed.setAnalysis({ schema: 1, type: 'tenace.analysis', status: 'on', board: 9, strain: 'S', seq: null, positions: [{ played: 0, cards: [{ card: 'SA', tricks: 9, cost: 0 }] }] });
    await waitFor(() => vu.some((m) => m.topic.endsWith('/analysis')), 5000, 'the analysis at the vugraph account');
    await sleep(300);
    const analysis = vu.filter((m) => m.topic.endsWith('/analysis'));
    expect(analysis.map((m) => JSON.parse(m.payload).type)).toEqual(['tenace.analysis']);
    expect(analysis[0].retained).toBe(false);
    // The public topics too, as any spectator.
    expect(vu.some((m) => m.topic.endsWith('/t1/state'))).toBe(true);
    expect(spec).toEqual([]);
    expect(other).toEqual([]);
    // Retained: a vugraph screen that opens later gets it at once.
    const late = await login(users.vugraph);
    const got = inbox(late);
    await late.subscribeAsync(`tenace/${club}/t1/analysis`, { qos: 1 });
    await waitFor(() => got.length > 0, 5000, 'the retained analysis');
    expect(got[0]).toMatchObject({ retained: true });
    expect(JSON.parse(got[0].payload).positions[0].cards[0].card).toBe('SA');
  });

  it("does not let table 1's credentials publish to table 2's topics", async () => {
    const director = await login(users.director);
    const dir = inbox(director);
    await director.subscribeAsync(`tenace/${club}/t2/#`, { qos: 1 });
    const t1 = await login(users.t1);
    for (const topic of ['state', 'event', 'status', 'director', 'response/claim']) {
      // mosquitto answers a refused QoS 1 publish with PUBACK 0x87 (MQTT 5) or silently drops it.
      await t1.publishAsync(`tenace/${club}/t2/${topic}`, `{"forged":"${topic}"}`, { qos: 1 }).catch(() => {});
    }
    await t1.publishAsync(`tenace/${club}/trays/s1/9`, '{"forged":"tray"}', { qos: 1 }).catch(() => {});
    // Positive control: table 2's own account can publish there, so the director's subscription works.
    const t2 = await login(users.t2);
    await t2.publishAsync(`tenace/${club}/t2/state`, '{"genuine":true}', { qos: 1 });
    // (Retained messages from the certificate test above are old news: count only what is published now.)
    const live = () => dir.filter((m) => !m.retained);
    await waitFor(() => live().length > 0, 3000, "table 2's own message");
    await sleep(300);
    expect(live().map((m) => m.payload)).toEqual(['{"genuine":true}']);
  });

  it('takes commands from the director only', async () => {
    const spectator = await login(users.spectator);
    const director = await login(users.director);
    const responses = inbox(director);
    await director.subscribeAsync(`tenace/${club}/t1/response/+`, { qos: 1 });
    const before = handled.length;
    await spectator.publishAsync(`tenace/${club}/t1/request/claim`, '{"transaction":"spoof","seat":"N","tricks":13}', { qos: 1 }).catch(() => {});
    await director.publishAsync(`tenace/${club}/t1/request/claim`, '{"transaction":"real","seat":"S","tricks":2}', { qos: 1 });
    await waitFor(() => responses.length > 0, 3000, 'the response to the director');
    await sleep(200);
    expect(handled.slice(before).map((c) => c.transaction)).toEqual(['real']);
    expect(JSON.parse(responses[0].payload)).toEqual({ transaction: 'real', ok: true, applied: true });
  });

  it('club sessions: spectators read schedule, standings and released only; a table reads trays and released but cannot write trays; the director writes them', async () => {
    const director = await login(users.director);
    const t1 = await login(users.t1);
    const c = `tenace/${club}`;
    // What the director publishes in a session (retained here, so that the subscribers below get them on subscribing).
    const fromDirector: [string, string][] = [
      [`${c}/club/s1/standings`, '{"standings":1}'], [`${c}/club/s1/released`, '{"released":1}'], [`${c}/club/s1/schedule`, '{"schedule":1}'],
      [`${c}/club/s1/alerts`, '{"alert":1}'], [`${c}/club/s1/director`, '{"snapshot":1}'], [`${c}/t1/assignment`, '{"assignment":1}'],
      [`${c}/trays/s1/4`, '{"tray":4}'],
    ];
    for (const [topic, payload] of fromDirector) await director.publishAsync(topic, payload, { qos: 1, retain: true });
    // What a table publishes: every event in full for the director; and forgeries it must not be able to make.
    await t1.publishAsync(`${c}/t1/director/event`, '{"journal-event":1}', { qos: 1, retain: true });
    for (const topic of [`${c}/trays/s1/5`, `${c}/club/s1/standings`, `${c}/t2/assignment`]) {
      await t1.publishAsync(topic, '{"forged":true}', { qos: 1, retain: true }).catch(() => {});
    }
    const spectator = await login(users.spectator);
    const spec = inbox(spectator);
    await spectator.subscribeAsync(`${c}/#`, { qos: 1 }).catch(() => {});
    const table = await login(users.t2);
    const tab = inbox(table);
    await table.subscribeAsync([`${c}/trays/#`, `${c}/club/+/released`, `${c}/club/+/alerts`, `${c}/t1/#`], { qos: 1 }).catch(() => {});
    const dir = inbox(director);
    await director.subscribeAsync(`${c}/#`, { qos: 1 });
    await waitFor(() => spec.some((m) => m.topic.endsWith('/released')) && tab.some((m) => m.topic.endsWith('/released')) && dir.some((m) => m.topic.endsWith('/director/event')), 5000, 'the retained club topics');
    await sleep(300);
    const specClub = spec.filter((m) => !/^tenace\/[^/]+\/[^/]+\/(state|event|status)$/.test(m.topic));
    expect(specClub.map((m) => m.topic.slice(c.length + 1)).sort()).toEqual(['club/s1/released', 'club/s1/schedule', 'club/s1/standings']);
    expect(spec.find((m) => m.topic.endsWith('/standings'))?.payload).toBe('{"standings":1}');
    // A table reads its club's tray records and the released list, nothing of another table, no session alerts.
    const isPublic = (topic: string) => /^tenace\/[^/]+\/[^/]+\/(state|event|status)$/.test(topic);
    expect(tab.filter((m) => !isPublic(m.topic)).map((m) => m.topic.slice(c.length + 1)).sort()).toEqual(['club/s1/released', 'trays/s1/4']);
    // The director sees the table's director/event, and none of the table's forgeries.
    expect(dir.some((m) => m.topic === `${c}/t1/director/event`)).toBe(true);
    expect(dir.some((m) => m.topic === `${c}/trays/s1/5`)).toBe(false);
    expect(dir.filter((m) => m.payload.includes('forged'))).toEqual([]);
  });

  it('serves the browser view over websockets (Debian\'s mosquitto is built with them)', async () => {
    expect(ports.ws, 'this mosquitto was built without websockets: the browser view needs them').not.toBeNull();
    const ws = await login(users.spectator, `ws://127.0.0.1:${ports.ws}`);
    const got = inbox(ws);
    await ws.subscribeAsync(`tenace/${club}/t1/state`, { qos: 1 });
    await waitFor(() => got.length > 0, 3000, 'the retained state over websockets');
  });
});
