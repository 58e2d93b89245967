import { spawn as realSpawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWatchdog, watchdogInterval, type SpawnLike } from '../../src/daemon/watchdog.js';
import type { Log } from '../../src/config/logger.js';
import { configSchema } from '../../src/config/schema.js';
import { EX_CONFIG } from '../../src/cli/check-config.js';

type Outcome = 'ok' | 'fail' | 'enoent' | 'throw';

/** A spawn that records each call and answers like systemd-notify would, a microtask later. */
function fakeSpawn(outcome: () => Outcome = () => 'ok') {
  const calls: { command: string; args: string[]; env: Record<string, string | undefined> }[] = [];
  const spawn: SpawnLike = (command, args, options) => {
    calls.push({ command, args: [...args], env: options.env });
    const o = outcome();
    if (o === 'throw') throw Object.assign(new Error('spawn EAGAIN'), { code: 'EAGAIN' });
    const child = new EventEmitter();
    queueMicrotask(() => {
      if (o === 'enoent') child.emit('error', Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' }));
      else child.emit('exit', o === 'ok' ? 0 : 1, null);
    });
    return child as unknown as ReturnType<SpawnLike>;
  };
  return { spawn, calls, messages: () => calls.map((c) => c.args.join(' ')) };
}

function recordingLog() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, msg: msg ?? '', obj });
  const log: Log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines, count: (level: string) => lines.filter((l) => l.level === level).length };
}

const SOCKET = { NOTIFY_SOCKET: '/run/systemd/notify' };
const PID = 4242;

describe('startWatchdog (fake spawn, fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a no-op without NOTIFY_SOCKET: no process, no timer', async () => {
    const f = fakeSpawn();
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { WATCHDOG_USEC: '30000000', WATCHDOG_PID: String(PID) }, spawn: f.spawn, pid: PID, log });
    expect(w.enabled).toBe(false);
    w.ready('up');
    w.status('dealing board 7');
    w.ping();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    await w.stop();
    expect(f.calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('an empty NOTIFY_SOCKET counts as unset', () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: { NOTIFY_SOCKET: '' }, spawn: f.spawn, pid: PID });
    w.ready();
    expect(w.enabled).toBe(false);
    expect(f.calls).toEqual([]);
  });

  it('ready() sends READY=1 once, through systemd-notify with our environment', async () => {
    const f = fakeSpawn();
    const env = { ...SOCKET, PATH: '/usr/bin:/bin' };
    const w = startWatchdog({ env, spawn: f.spawn, pid: PID });
    expect(w.enabled).toBe(true);
    expect(w.intervalMs).toBeUndefined();
    expect(f.calls).toEqual([]); // nothing before the daemon says it is ready
    w.ready();
    w.ready();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.calls).toEqual([{ command: 'systemd-notify', args: ['READY=1'], env }]);
  });

  it('without WATCHDOG_USEC there are no pings', async () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: SOCKET, spawn: f.spawn, pid: PID });
    w.ready();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(f.messages()).toEqual(['READY=1']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pings WATCHDOG=1 every WATCHDOG_USEC/2, from ready() on', async () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '30000000', WATCHDOG_PID: String(PID) }, spawn: f.spawn, pid: PID });
    expect(w.intervalMs).toBe(15_000);
    await vi.advanceTimersByTimeAsync(60_000); // start-up: TimeoutStartSec applies, not the watchdog
    expect(f.calls).toEqual([]);
    w.ready('journal replayed, board 7 trick 3');
    expect(f.messages()).toEqual(['READY=1 STATUS=journal replayed, board 7 trick 3 WATCHDOG=1']);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(f.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.messages()[1]).toBe('WATCHDOG=1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.messages().slice(1)).toEqual(Array(5).fill('WATCHDOG=1'));
  });

  it('derives the interval from other WATCHDOG_USEC values', () => {
    expect(watchdogInterval({ WATCHDOG_USEC: '10000000' }, PID)).toEqual({ intervalMs: 5000 });
    expect(watchdogInterval({ WATCHDOG_USEC: '3000' }, PID)).toEqual({ intervalMs: 1 });
    expect(watchdogInterval({ WATCHDOG_USEC: '1' }, PID)).toEqual({ intervalMs: 1 });
    expect(watchdogInterval({}, PID)).toEqual({});
    expect(watchdogInterval({ WATCHDOG_USEC: '0' }, PID).problem).toMatch(/WATCHDOG_USEC/);
    expect(watchdogInterval({ WATCHDOG_USEC: '30s' }, PID).problem).toMatch(/WATCHDOG_USEC/);
    expect(watchdogInterval({ WATCHDOG_USEC: '1000000', WATCHDOG_PID: 'me' }, PID).problem).toMatch(/WATCHDOG_PID/);
  });

  it('leaves the watchdog alone when WATCHDOG_PID names another process (inherited variables)', async () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '2000000', WATCHDOG_PID: '1' }, spawn: f.spawn, pid: PID });
    expect(w.intervalMs).toBeUndefined();
    w.ready();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.messages()).toEqual(['READY=1']);
  });

  it('an unusable WATCHDOG_USEC is logged, READY=1 still goes out, and nothing pings', async () => {
    const f = fakeSpawn();
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: 'soon' }, spawn: f.spawn, pid: PID, log });
    expect(lines.map((l) => l.level)).toEqual(['warn']);
    w.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.messages()).toEqual(['READY=1']);
  });

  it('warns when WatchdogSec is so short that a process would start more than once a second', () => {
    const { log, count } = recordingLog();
    startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '1000000' }, spawn: fakeSpawn().spawn, pid: PID, log });
    expect(count('warn')).toBe(1);
  });

  it('status() sends STATUS= on one line', async () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: SOCKET, spawn: f.spawn, pid: PID });
    w.status('broker down\nevents queued: 12\r\n');
    expect(f.messages()).toEqual(['STATUS=broker down events queued: 12']);
  });

  it('stop() sends STOPPING=1, ends the pings and resolves once the message is out', async () => {
    const f = fakeSpawn();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '4000000' }, spawn: f.spawn, pid: PID });
    w.ready();
    await vi.advanceTimersByTimeAsync(2000);
    let done = false;
    const p = w.stop('saving journal').then(() => (done = true));
    expect(done).toBe(false);
    await p;
    expect(done).toBe(true);
    await w.stop();
    w.status('late');
    w.ping();
    w.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.messages()).toEqual(['READY=1 WATCHDOG=1', 'WATCHDOG=1', 'STOPPING=1 STATUS=saving journal']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a missing systemd-notify is logged once and disables the watchdog, without throwing', async () => {
    const f = fakeSpawn(() => 'enoent');
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '2000000' }, spawn: f.spawn, pid: PID, log });
    expect(() => w.ready()).not.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.enabled).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    w.status('still here');
    w.ping();
    await w.stop();
    expect(f.calls).toHaveLength(1);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([['error', expect.stringMatching(/cannot run systemd-notify/)]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a spawn that throws is handled the same way', async () => {
    const f = fakeSpawn(() => 'throw');
    const { log, count } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '2000000' }, spawn: f.spawn, pid: PID, log });
    w.ready();
    w.status('x');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.enabled).toBe(false);
    expect(f.calls).toHaveLength(1);
    expect(count('error')).toBe(1);
  });

  it('a refused notification (non-zero exit) is logged once, pinging goes on, and recovery is logged', async () => {
    let outcome: Outcome = 'fail';
    const f = fakeSpawn(() => outcome);
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '2000000' }, spawn: f.spawn, pid: PID, log });
    w.ready();
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.calls).toHaveLength(6);
    expect(w.enabled).toBe(true);
    outcome = 'ok';
    await vi.advanceTimersByTimeAsync(1000);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  it('holds pings back while healthy() says no', async () => {
    let ok = true;
    const f = fakeSpawn();
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '2000000' }, spawn: f.spawn, pid: PID, log, healthy: () => ok });
    w.ready();
    await vi.advanceTimersByTimeAsync(1000);
    ok = false;
    await vi.advanceTimersByTimeAsync(5000);
    ok = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.messages()).toEqual(['READY=1 WATCHDOG=1', 'WATCHDOG=1', 'WATCHDOG=1']);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  // This is the point of the watchdog. The ping is a timer on the daemon's own event loop, so while the loop is
  // blocked nothing is sent; once WatchdogSec passes without a ping, systemd kills the daemon and restarts it.
  it('a blocked event loop sends no pings (that is the point); the late tick afterwards is logged', async () => {
    const f = fakeSpawn();
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '30000000' }, spawn: f.spawn, pid: PID, log });
    w.ready();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(f.calls).toHaveLength(2);
    // The loop is stuck in synchronous code for 45 s: the wall clock moves, no timer callback can run.
    vi.setSystemTime(Date.now() + 45_000);
    expect(f.calls).toHaveLength(2); // systemd saw no ping for longer than WatchdogSec=30s: SIGABRT, restart
    // Had the loop come back by itself, the overdue tick fires and says how late it was.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(f.calls).toHaveLength(3);
    const warn = lines.find((l) => l.level === 'warn');
    expect(warn?.msg).toMatch(/event loop was blocked/);
    expect((warn?.obj as { lateMs: number }).lateMs).toBe(45_000);
  });
});

describe('startWatchdog (real timers)', () => {
  it('a synchronous busy loop really stops the pings', async () => {
    const f = fakeSpawn();
    const { log, lines } = recordingLog();
    const w = startWatchdog({ env: { ...SOCKET, WATCHDOG_USEC: '40000' }, spawn: f.spawn, pid: PID, log }); // ping every 20 ms
    w.ready();
    await new Promise((r) => setTimeout(r, 100));
    const before = f.calls.length;
    expect(before).toBeGreaterThanOrEqual(3);
    const end = Date.now() + 300;
    while (Date.now() < end) { /* a stuck daemon */ }
    expect(f.calls.length).toBe(before);
    await new Promise((r) => setTimeout(r, 50));
    await w.stop();
    expect(lines.some((l) => l.level === 'warn' && /event loop was blocked/.test(l.msg))).toBe(true);
  });
});

// The real systemd-notify against a stand-in for systemd's notify socket: proves the argument format and that the
// barrier (systemd >= 246 waits until the manager has read the message) completes. Needs python3 for the unix
// datagram socket that Node cannot open.
const havePython = spawnSync('python3', ['-c', 'import socket'], { stdio: 'ignore' }).status === 0;
const haveNotify = spawnSync('systemd-notify', ['--version'], { stdio: 'ignore' }).status === 0;

const RECEIVER = String.raw`
import array, json, os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
print(json.dumps({"listening": path}), flush=True)
while True:
    data, anc, flags, addr = s.recvmsg(4096, socket.CMSG_SPACE(16 * 4) + socket.CMSG_SPACE(12))
    fds = []
    for level, kind, payload in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            a = array.array("i"); a.frombytes(payload[: len(payload) - len(payload) % a.itemsize]); fds.extend(a)
    for fd in fds:
        os.close(fd)   # what systemd does with a BARRIER=1 fd: closing it releases the waiting sender
    print(json.dumps({"message": data.decode(), "fds": len(fds)}), flush=True)
`;

describe('startWatchdog with the real systemd-notify', () => {
  it('has python3 (the stand-in for systemd\'s socket) and systemd-notify to run with', () => {
    expect(havePython, 'python3 is missing').toBe(true);
    expect(haveNotify, 'systemd-notify is missing: apt-get install systemd').toBe(true);
  });

  it('delivers READY=1, WATCHDOG=1, STATUS= and STOPPING=1 to $NOTIFY_SOCKET', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-notify-'));
    const socketPath = join(dir, 'notify');
    const receiver = realSpawn('python3', ['-c', RECEIVER, socketPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const messages: string[] = [];
    let buffered = '';
    const listening = new Promise<void>((resolve) => {
      receiver.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let nl;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const m = JSON.parse(buffered.slice(0, nl)) as { listening?: string; message?: string };
          buffered = buffered.slice(nl + 1);
          if (m.listening) resolve();
          if (m.message !== undefined) messages.push(m.message);
        }
      });
    });
    try {
      await listening;
      const { log, lines } = recordingLog();
      const w = startWatchdog({ env: { PATH: process.env.PATH, NOTIFY_SOCKET: socketPath, WATCHDOG_USEC: '400000' }, log });
      expect(w.intervalMs).toBe(200);
      w.ready('replayed');
      await new Promise((r) => setTimeout(r, 700));
      w.status('board 7');
      await w.stop();
      await new Promise((r) => setTimeout(r, 200));
      const real = messages.filter((m) => m !== 'BARRIER=1');
      expect(real[0]).toBe('READY=1\nSTATUS=replayed\nWATCHDOG=1');
      expect(real.filter((m) => m === 'WATCHDOG=1').length).toBeGreaterThanOrEqual(2);
      expect(real).toContain('STATUS=board 7');
      expect(real[real.length - 1]).toBe('STOPPING=1');
      // Only the expected note that 400 ms is a silly WatchdogSec; no refused message, no failure to spawn.
      expect(lines.filter((l) => l.level === 'error' || /failed/.test(l.msg))).toEqual([]);
      expect(w.enabled).toBe(true);
    } finally {
      receiver.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The unit file and the code around it must agree; these checks catch one being changed without the other.
describe('systemd/ files', () => {
  const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url));
  const unit = read('systemd/tenace.service').toString();
  const values = (key: string) =>
    [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1].trim());

  it('systemd/99-tenace.rules is a byte-identical copy of hardware/99-tenace.rules', () => {
    const copy = read('systemd/99-tenace.rules');
    const original = read('hardware/99-tenace.rules');
    expect(copy.equals(original), 'run: cp hardware/99-tenace.rules systemd/99-tenace.rules').toBe(true);
  });

  it('is a notify service with a watchdog that src/daemon/watchdog.ts can feed', () => {
    expect(values('Type')).toEqual(['notify']);
    // Messages come from systemd-notify children, not from the main PID.
    expect(values('NotifyAccess')).toEqual(['all']);
    const [sec] = values('WatchdogSec');
    expect(sec).toMatch(/^\d+s$/);
    expect(Number.parseInt(sec, 10)).toBeGreaterThanOrEqual(10); // each ping starts a process
    expect(values('MemoryDenyWriteExecute')).toEqual([]); // V8's JIT needs it off
  });

  it('runs `tenace run` as the sysusers user, with every group the udev rules hand devices to', () => {
    expect(values('ExecStart')[0]).toMatch(/tenace\.mjs run --config \/etc\/tenace\/tenace\.yaml$/);
    const sysusers = read('systemd/tenace.sysusers.conf').toString();
    const [user] = values('User');
    expect(sysusers).toMatch(new RegExp(`^u\\s+${user}\\s`, 'm'));
    const groups = values('SupplementaryGroups').join(' ').split(/\s+/);
    const udevGroups = new Set([...read('hardware/99-tenace.rules').toString().matchAll(/^[^#].*GROUP="([^"]+)"/gm)].map((m) => m[1]));
    expect(udevGroups.size).toBeGreaterThan(0);
    for (const g of udevGroups) {
      expect(groups).toContain(g);
      expect(sysusers).toMatch(new RegExp(`^m\\s+${user}\\s+${g}\\s*$`, 'm'));
    }
  });

  it('lets the daemon write the default journal folder, and nothing else', () => {
    const dir = configSchema.properties.journal.properties.dir.default;
    const writable = values('ReadWritePaths');
    expect(writable).toEqual(['/var/lib/tenace']);
    expect(dir.startsWith(`${writable[0]}/`)).toBe(true);
    expect(values('StateDirectory')).toEqual(['tenace']);
    expect(values('ProtectSystem')).toEqual(['strict']);
  });

  it('does not restart on a bad config (exit code of tenace check-config and tenace run)', () => {
    expect(values('Restart')).toEqual(['always']);
    expect(values('RestartPreventExitStatus')).toEqual([String(EX_CONFIG)]);
  });

  it('allows exactly the device groups the udev rules create, and loads their drivers at boot', () => {
    const allowed = values('DeviceAllow').map((v) => v.split(/\s+/)[0]);
    expect(values('DevicePolicy')).toEqual(['closed']);
    expect(allowed.sort()).toEqual(['char-hidraw', 'char-ttyACM', 'char-ttyUSB']);
    const modules = read('systemd/tenace-modules.conf').toString().split('\n').filter((l) => l && !l.startsWith('#'));
    expect(modules).toEqual(['cdc_acm', 'usbserial', 'hid']);
  });
});
