// `tenace listen` as a real process on a real pseudo-terminal (socat), with the platform serialport
// binding: a scripted v2 device on the other end, an unplug (socat stopped, links gone) and replug
// mid-deal, then SIGTERM. Checks that nothing is lost, invented or reordered, and that the process
// exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SerialPort } from 'serialport';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import { LineSplitter } from '../../src/hardware/line-splitter.js';
import { ScriptedDevice } from './scripted-device.js';

const root = resolve(import.meta.dirname, '../..');
// Every scratch folder of this file is made in one folder, removed after its tests (nothing left in /tmp).
const scratch = mkdtempSync(join(tmpdir(), 'tenace-pty-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function socat(dir: string): ChildProcess {
  const p = spawn('socat', ['pty,raw,echo=0,link=' + join(dir, 'host'), 'pty,raw,echo=0,link=' + join(dir, 'bridge')], { stdio: 'ignore' });
  children.push(p);
  return p;
}

/** A v2 device on the host end of the pty pair (scripted-device.ts); it keeps its event log while unplugged,
 * since it runs on its own power. */
class PtyDevice extends ScriptedDevice {
  port?: SerialPort;

  constructor() {
    super(321, (line) => this.port?.write(line));
  }

  async open(path: string): Promise<void> {
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
    port.on('error', () => {});
    const split = new LineSplitter((item) => {
      if (typeof item === 'string') this.hostLine(item);
    });
    port.on('data', (b: Buffer) => split.push(b));
    this.port = port;
  }

  async close(): Promise<void> {
    const p = this.port;
    this.port = undefined;
    if (p?.isOpen) await new Promise<void>((res) => p.close(() => res()));
  }
}

describe('tenace listen over a socat pty pair', () => {
  it('survives an unplug mid-deal, loses and invents nothing, exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const deck = virtualDeck('pty');
    writeDeckFile(join(dir, 'deck.json'), deck);
    const uid = (c: string) => Object.keys(deck.cards).find((u) => deck.cards[u] === c)!;
    let sc = socat(dir);
    await waitFor(() => existsSync(join(dir, 'host')) && existsSync(join(dir, 'bridge')), 5000, 'socat links');
    const dev = new PtyDevice();
    await dev.open(join(dir, 'host'));

    const runner = join(dir, 'run.mts');
    writeFileSync(
      runner,
      `import { listenCommand } from ${JSON.stringify(join(root, 'src/cli/listen.ts'))};\nprocess.exitCode = await listenCommand(process.argv.slice(2));\n`,
    );
    const out = join(dir, 'out.ndjson');
    let stderr = '';
    const listen = spawn(process.execPath, ['--import', 'tsx', runner, '--port', join(dir, 'bridge'), '--deck', join(dir, 'deck.json'), '--log', out], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(listen);
    listen.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const lines = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) : []);

    await waitFor(() => /bridge online/.test(stderr), 15_000, 'listen to connect');
    // Until its first snapshot is reconciled the driver cannot put cards in order (it marks them so).
    await sleep(300);
    dev.arrive(0, uid('CK'));
    dev.arrive(1, uid('C5'));
    await waitFor(() => lines().length === 2, 5000, 'two places');

    // Unplug: socat goes away with both links; the device keeps its state.
    await dev.close();
    sc.kill('SIGTERM');
    await waitFor(() => /bridge disconnected/.test(stderr), 5000, 'disconnect noticed');
    dev.leave(1, uid('C5')); // C5 taken back while unplugged (the bridge logs it; nobody hears it)
    dev.arrive(2, uid('C7')); // C7 played while unplugged
    await sleep(300);
    expect(listen.exitCode).toBeNull(); // never exits over a lost port
    sc = socat(dir);
    await waitFor(() => existsSync(join(dir, 'host')) && existsSync(join(dir, 'bridge')), 5000, 'socat links again');
    await dev.open(join(dir, 'host'));
    await waitFor(() => lines().length === 4, 10_000, 'reconciled events');
    dev.arrive(3, uid('C3'));
    await waitFor(() => lines().length === 5, 5000, 'a live place after the replug');

    listen.kill('SIGTERM');
    const code = await new Promise<number | null>((res) => listen.on('exit', (c) => res(c)));
    await dev.close();
    sc.kill('SIGTERM');
    expect(code).toBe(0);
    expect(stderr).toMatch(/stopped \(SIGTERM\)/);
    // What happened while unplugged comes back from the bridge's log: in order, with its own seq.
    expect(lines()).toEqual([
      { type: 'place', seat: 'N', card: 'CK' },
      { type: 'place', seat: 'E', card: 'C5' },
      { type: 'lift', seat: 'E', card: 'C5' },
      { type: 'place', seat: 'S', card: 'C7' },
      { type: 'place', seat: 'W', card: 'C3' },
    ].map((e, i) => ({ ...e, src: { bridge: 'bridge', boot: 321, seq: dev.log[i].seq } })));
  }, 40_000);
});
