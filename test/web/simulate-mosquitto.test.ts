// `tenace simulate --broker mqtt://127.0.0.1:1883 --club C --table T --play hand1.ndjson --speed max --journal DIR
// --http-port 0 --exit` against the real Mosquitto running here: the retained `state` it leaves ends with the tricks
// Hoyle gives (N-S 11, E-W 2), and the retained `status` says online while it runs and offline once it has exited.
// Once as a child process (the form relied on elsewhere), once in-process over the loopback serial lines.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { simulateCommand } from '../../src/cli/simulate.js';
import type { PublicState } from '../../src/feed/projection.js';
import { uid, waitFor } from '../feed/broker.js';
import { ROOT, SEED_HANDS } from './helpers.js';

const BROKER = 'mqtt://127.0.0.1:1883';
const HAND1 = join(SEED_HANDS, 'hand1.ndjson');
const EXPECTED = JSON.parse(readFileSync(join(SEED_HANDS, 'expected.json'), 'utf8')).hands[0] as { tricksWon: { NS: number; EW: number }; winners: string[] };

/** Everything seen on a table's status and state topics, retained or live. */
interface Watch {
  client: MqttClient;
  statuses: string[];
  states: PublicState[];
  last(): PublicState | undefined;
}

async function watch(club: string, table: string): Promise<Watch> {
  const client = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: uid('watch'), reconnectPeriod: 0 });
  const w: Watch = { client, statuses: [], states: [], last: () => w.states.at(-1) };
  client.on('message', (topic, payload) => {
    const text = payload.toString();
    if (topic.endsWith('/status')) w.statuses.push(text);
    else if (text) w.states.push(JSON.parse(text) as PublicState);
  });
  await client.subscribeAsync([`tenace/${club}/${table}/status`, `tenace/${club}/${table}/state`], { qos: 1 });
  return w;
}

/** The retained status and state, as a subscriber arriving now gets them. */
async function retained(club: string, table: string): Promise<{ status: string | undefined; state: PublicState | undefined }> {
  const w = await watch(club, table);
  try {
    await waitFor(() => w.statuses.length > 0 && w.states.length > 0, 5000, 'the retained status and state');
    return { status: w.statuses.at(-1), state: w.last() };
  } finally {
    await w.client.endAsync();
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Remove the retained messages the run left on the shared broker, and the journal. */
function cleanUp(club: string, table: string, journal: string): void {
  cleanups.push(async () => {
    const c = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: uid('clean'), reconnectPeriod: 0 });
    for (const t of ['status', 'state', 'director/state']) await c.publishAsync(`tenace/${club}/${table}/${t}`, '', { qos: 1, retain: true });
    await c.endAsync();
    rmSync(journal, { recursive: true, force: true });
  });
}

function checkFinal(state: PublicState | undefined): void {
  expect(state?.type).toBe('tenace.state');
  expect(state?.deal).toMatchObject({ board: 1, variant: 'duplicate-whist', status: 'ended', released: true, tricksWon: EXPECTED.tricksWon });
  expect(state?.deal?.tricks?.map((t) => t.winner)).toEqual(EXPECTED.winners);
  expect(state?.seq).toBe(107);
  // The public snapshot names no hand.
  expect(JSON.stringify(state)).not.toMatch(/hands|remaining/);
}

describe('tenace simulate against the real Mosquitto', () => {
  it('as a child process: the retained state ends with N-S 11, E-W 2, and the status goes offline on exit', async () => {
    const club = uid('sim');
    const journal = mkdtempSync(join(tmpdir(), 'tenace-simj-'));
    cleanUp(club, 'T', journal);
    const w = await watch(club, 'T');
    cleanups.push(() => w.client.endAsync());

    const child = spawn(process.execPath, [join(ROOT, 'bin', 'tenace.mjs'), 'simulate', '--broker', BROKER, '--club', club, '--table', 'T',
      '--play', HAND1, '--speed', 'max', '--journal', journal, '--http-port', '0', '--exit'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { err += s; });
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => { child.kill('SIGKILL'); resolve(null); }, 40_000);
      child.once('exit', (c) => { clearTimeout(t); resolve(c); });
    });
    expect(code, `stdout:\n${out}\nstderr:\n${err}`).toBe(0);
    expect(out).toContain(`all played; last deal: board 1, N-S ${EXPECTED.tricksWon.NS}, E-W ${EXPECTED.tricksWon.EW}`);

    // Live: online while playing, offline at the end; the snapshots advanced to the end of the deal.
    await waitFor(() => w.statuses.at(-1) === 'offline', 5000, 'the offline status');
    expect(w.statuses).toContain('online');
    expect(w.statuses.indexOf('online')).toBeLessThan(w.statuses.lastIndexOf('offline'));
    const revs = w.states.map((s) => s.rev);
    expect(revs.length).toBeGreaterThan(1);
    expect(revs).toEqual([...revs].sort((a, b) => a - b));

    // A subscriber arriving afterwards gets the final state and the offline status.
    const r = await retained(club, 'T');
    expect(r.status).toBe('offline');
    checkFinal(r.state);
    // The journal holds the session, replayable.
    expect(readdirSync(journal).some((f) => f.endsWith('.ndjson'))).toBe(true);
  }, 50_000);

  it('in-process over the loopback serial lines (no socat): the same final state', async () => {
    const club = uid('sim');
    const journal = mkdtempSync(join(tmpdir(), 'tenace-simj-'));
    cleanUp(club, 'T', journal);
    const w = await watch(club, 'T');
    cleanups.push(() => w.client.endAsync());
    const write = process.stdout.write.bind(process.stdout);
    let out = '';
    process.stdout.write = ((s: string | Uint8Array) => { out += String(s); return true; }) as typeof process.stdout.write;
    let code: number;
    try {
      code = await simulateCommand(['--broker', BROKER, '--club', club, '--table', 'T', '--play', HAND1, '--speed', 'max', '--journal', journal,
        '--http-port', '0', '--exit', '--serial', 'loopback']);
    } finally {
      process.stdout.write = write;
    }
    expect(code, out).toBe(0);
    expect(out).toContain('emulated devices on in-process serial lines');
    expect(out).toContain(`N-S ${EXPECTED.tricksWon.NS}, E-W ${EXPECTED.tricksWon.EW}`);
    await waitFor(() => w.statuses.at(-1) === 'offline', 5000, 'the offline status');
    expect(w.statuses).toContain('online');
    const r = await retained(club, 'T');
    expect(r.status).toBe('offline');
    checkFinal(r.state);
  }, 50_000);
});
