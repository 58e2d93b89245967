// `tenace listen` on MockBinding: writes the TableEvents it sees as ndjson, stops on idle, and a
// restart on the same log continues it without inventing anything twice.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { listenCommand } from '../../src/cli/listen.js';
import { virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import { MockBinding, scriptedPort } from './mock-port.js';
import { ScriptedDevice } from './scripted-device.js';
import { parseTableLog } from '../../src/formats/table-log.js';

// Every scratch folder of this file is made in one folder, removed after its tests (nothing left in /tmp).
const scratch = mkdtempSync(join(tmpdir(), 'tenace-listen-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));


/** A scripted v2 device (scripted-device.ts) behind MockBinding: it answers each host line written to the port. */
function device(path: string) {
  const { binding, port } = scriptedPort(path, (buf) => {
    for (const line of buf.toString('latin1').split('\n')) setImmediate(() => dev.hostLine(line));
  });
  const dev = new ScriptedDevice(77, (line) => { const p = port(); if (p?.isOpen) p.emitData(line); }, 3);
  return Object.assign(dev, { binding });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tenace listen', () => {
  afterEach(() => MockBinding.reset());

  it('appends the TableEvents as ndjson, exits on --idle-exit, and a restart continues the log', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const red = virtualDeck('red');
    const blue = virtualDeck('blue');
    writeDeckFile(join(dir, 'red.json'), red);
    writeDeckFile(join(dir, 'blue.json'), blue);
    const uid = (d: typeof red, c: string) => Object.keys(d.cards).find((u) => d.cards[u] === c)!;
    const out = join(dir, 'out.ndjson');
    const path = '/dev/serial/by-id/usb-listen-1';
    const dev = device(path);
    let err = '';
    const argv = ['--port', path, '--deck', join(dir, 'red.json'), '--deck', join(dir, 'blue.json'), '--log', out, '--idle-exit', '400'];
    const run1 = listenCommand(argv, { binding: dev.binding, signals: false, io: { out: () => {}, err: (s) => (err += s) } });
    await sleep(100);
    dev.arrive(0, uid(red, 'CK'));
    dev.arrive(1, uid(blue, 'C5'));
    dev.arrive(2, uid(red, 'C7'));
    dev.arrive(3, 'CAFEBABE');
    await sleep(30);
    dev.leave(1, uid(blue, 'C5'));
    expect(await run1).toBe(0);
    const lines1 = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines1.map((l) => l.src)).toEqual(dev.log.map((e) => ({ bridge: 'usb-listen-1', boot: 77, seq: e.seq })));
    expect(lines1.map(({ src: _s, ...e }) => e)).toEqual([
      { type: 'place', seat: 'N', card: 'CK' },
      { type: 'place', seat: 'E', card: 'C5' },
      { type: 'place', seat: 'S', card: 'C7' },
      { type: 'place', seat: 'W', tag: 'CAFEBABE' },
      { type: 'lift', seat: 'E', card: 'C5' },
    ]);
    expect(err).toMatch(/bridge online/);
    expect(err).toMatch(/stopped \(no event for 400 ms\)/);
    // The lines are TableEvents the table log reader accepts.
    expect(parseTableLog(readFileSync(out, 'utf8')).events).toHaveLength(5);

    // While listen was down: N's CK lifted, E gets D2 (the bridge, still running, logs both). A
    // restart on the same log resumes after its last line's source: just that, in order.
    dev.leave(0, uid(red, 'CK'));
    dev.arrive(1, uid(blue, 'D2'));
    MockBinding.reset();
    const path2 = '/dev/serial/by-id/usb-listen-2';
    const dev2 = device(path2);
    Object.assign(dev2, { tags: dev.tags, log: dev.log, seq: dev.seq });
    const argv2 = argv.map((a) => (a === path ? path2 : a)).concat(['--bridge', 'usb-listen-1']);
    let err2 = '';
    expect(await listenCommand(argv2, { binding: dev2.binding, signals: false, io: { out: () => {}, err: (s) => (err2 += s) } })).toBe(0);
    const lines2 = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(err2).toContain(`resuming after boot 77 seq ${lines1[4].src.seq}`);
    expect(lines2.slice(5)).toEqual([
      { type: 'lift', seat: 'N', card: 'CK', src: { bridge: 'usb-listen-1', boot: 77, seq: dev.log[5].seq } },
      { type: 'place', seat: 'E', card: 'D2', src: { bridge: 'usb-listen-1', boot: 77, seq: dev.log[6].seq } },
    ]);
  });

  it('--map and --stamp; stops cleanly when asked', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    writeDeckFile(join(dir, 'd.json'), virtualDeck('d'));
    const d = virtualDeck('d');
    const out = join(dir, 'o.ndjson');
    const path = '/dev/serial/by-id/usb-listen-3';
    const dev = device(path);
    let stop!: () => void;
    const run = listenCommand(['--port', path, '--deck', join(dir, 'd.json'), '--log', out, '--map', 'r0=W,r1=N', '--stamp', '--quiet'], {
      binding: dev.binding,
      signals: false,
      io: { out: () => {}, err: () => {} },
      onDriver: (_d, s) => (stop = s),
    });
    await sleep(100);
    dev.arrive(0, Object.keys(d.cards)[0]);
    dev.arrive(2, Object.keys(d.cards)[1]); // unmapped reader: no seat, no event
    await sleep(40);
    stop();
    expect(await run).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'place', seat: 'W', card: 'SA' });
    expect(Date.parse(lines[0].at)).not.toBeNaN();
  });

  it('usage and input errors', async () => {
    const io = { out: () => {}, err: () => {} };
    expect(await listenCommand([], { io, signals: false })).toBe(64);
    expect(await listenCommand(['--port', '/dev/x', '--log', '/tmp/x', '--map', 'r9=Q'], { io, signals: false })).toBe(64);
    expect(await listenCommand(['--port', '/dev/x', '--log', '/tmp/x', '--idle-exit', 'soon'], { io, signals: false })).toBe(64);
    const dir = mkdtempSync(join(scratch, 'case-'));
    writeFileSync(join(dir, 'bad.json'), '{"deck":"x"}');
    expect(await listenCommand(['--port', '/dev/x', '--log', join(dir, 'o'), '--deck', join(dir, 'bad.json')], { io, signals: false })).toBe(65);
  });
});
