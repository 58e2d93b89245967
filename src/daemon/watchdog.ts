// The systemd notify protocol (sd_notify(3)) for `tenace run` under systemd/tenace.service (Type=notify,
// WatchdogSec=), without a native dependency.
//
// systemd listens on the unix *datagram* socket named by $NOTIFY_SOCKET. Node's dgram module speaks only UDP, and
// net speaks only stream sockets, so Node cannot send there by itself. We run the `systemd-notify` binary instead,
// one short-lived child per message; the unit says NotifyAccess=all so that systemd accepts messages from a process
// other than the main PID. Since systemd 246, systemd-notify waits (BARRIER=1) until the manager has read the
// message, so the child exiting early cannot make the message unattributable (the old race of systemd-notify in
// shell scripts).
//
// The watchdog ping is a plain timer on the event loop, on purpose. If the loop is blocked (a runaway loop, a
// synchronous call that never returns, a deadlock in the journal's fsync path) the timer does not fire, no ping goes
// out, and after WatchdogSec systemd kills and restarts the daemon, which then recovers the deal from its journal.
// A timer in a worker thread or a child process would keep pinging for a daemon that no longer does anything.
// `healthy` lets the daemon hold back pings for a condition it can detect itself.
//
// With no NOTIFY_SOCKET (started by hand, by tests, by `tenace simulate`) everything here is a no-op.
import { spawn as nodeSpawn } from 'node:child_process';
import type { Log } from '../config/logger.js';

/** The part of a ChildProcess the watchdog uses. */
export interface NotifyChild {
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

/** The part of child_process.spawn the watchdog uses (a fake in tests). */
export type SpawnLike = (
  command: string,
  args: readonly string[],
  options: { stdio: 'ignore'; env: Record<string, string | undefined>; timeout: number },
) => NotifyChild;

export interface WatchdogOptions {
  /** Where NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID come from. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Default child_process.spawn. */
  spawn?: SpawnLike;
  /** Milliseconds clock, used to notice ticks that came late because the event loop was blocked. Default Date.now. */
  now?: () => number;
  /** Our pid, compared with WATCHDOG_PID. Default process.pid. */
  pid?: number;
  /** The notify binary, looked up on PATH. Default "systemd-notify". */
  binary?: string;
  /** Default: warnings and errors as JSON lines on stderr (journald keeps them). */
  log?: Log;
  /** Asked before each watchdog ping; false holds the ping back (and, for long enough, gets us restarted). */
  healthy?: () => boolean;
}

export interface Watchdog {
  /** True while notifications are being sent: NOTIFY_SOCKET is set and the binary has not failed to start. */
  readonly enabled: boolean;
  /** The ping period in ms (WATCHDOG_USEC / 2), or undefined when systemd asked for no watchdog. */
  readonly intervalMs: number | undefined;
  /** Start-up is complete: send READY=1 (with an optional STATUS=) and start the watchdog pings. Idempotent. */
  ready(status?: string): void;
  /** Send STATUS=text, shown by `systemctl status tenace`. */
  status(text: string): void;
  /** Send WATCHDOG=1 now (the timer does this by itself after ready()). */
  ping(): void;
  /** Stop pinging and send STOPPING=1; resolves when that message has been handed over (or failed). */
  stop(status?: string): Promise<void>;
}

const STDERR_LOG: Log = {
  debug() {},
  info() {},
  warn: (obj, msg) => process.stderr.write(JSON.stringify({ level: 'warn', ...obj, msg }) + '\n'),
  error: (obj, msg) => process.stderr.write(JSON.stringify({ level: 'error', ...obj, msg }) + '\n'),
};

/** The longest a systemd-notify child may live; its barrier wait is 5 s by default. */
const CHILD_TIMEOUT_MS = 10_000;

/**
 * Parse WATCHDOG_USEC/WATCHDOG_PID as sd_watchdog_enabled(3) does: the ping period is half the timeout, in ms.
 * Returns undefined when there is no watchdog for this process, or a reason when the variables are unusable.
 */
export function watchdogInterval(env: Record<string, string | undefined>, pid: number): { intervalMs?: number; problem?: string } {
  const usec = env.WATCHDOG_USEC;
  if (usec === undefined || usec === '') return {};
  const owner = env.WATCHDOG_PID;
  if (owner !== undefined && owner !== '') {
    // The variables were inherited from a parent that is the service's main process: the watchdog is not ours.
    if (!/^\d+$/.test(owner)) return { problem: `WATCHDOG_PID="${owner}" is not a pid` };
    if (Number(owner) !== pid) return {};
  }
  if (!/^\d+$/.test(usec) || Number(usec) === 0) return { problem: `WATCHDOG_USEC="${usec}" is not a positive number of microseconds` };
  return { intervalMs: Math.max(1, Math.floor(Number(usec) / 2000)) };
}

/** One line of the notify message: systemd splits the datagram at newlines, so a status must not contain one. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

/**
 * Talk to systemd about this daemon's life: READY=1, WATCHDOG=1 every WATCHDOG_USEC/2, STATUS=, STOPPING=1.
 * Never throws: without NOTIFY_SOCKET it does nothing, and a missing `systemd-notify` is logged once and disables it.
 */
export function startWatchdog(options: WatchdogOptions = {}): Watchdog {
  const env = options.env ?? process.env;
  const spawn: SpawnLike = options.spawn ?? (nodeSpawn as unknown as SpawnLike);
  const now = options.now ?? Date.now;
  const pid = options.pid ?? process.pid;
  const binary = options.binary ?? 'systemd-notify';
  const log = options.log ?? STDERR_LOG;
  const healthy = options.healthy;

  const socket = env.NOTIFY_SOCKET;
  let enabled = socket !== undefined && socket !== '';
  const parsed = enabled ? watchdogInterval(env, pid) : {};
  if (parsed.problem) log.warn({ watchdog: 'systemd' }, `systemd watchdog disabled: ${parsed.problem}`);
  const intervalMs = parsed.intervalMs;
  if (intervalMs !== undefined && intervalMs < 1000) {
    log.warn({ watchdog: 'systemd', intervalMs }, 'WatchdogSec= is very short: each ping starts a process; use 10 s or more');
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  let isReady = false;
  let stopped = false;
  let lastTick = 0;
  let failing = false; // the last message was refused (non-zero exit); logged once until one succeeds
  let heldBack = false;

  function disable(err: Error): void {
    if (!enabled) return;
    enabled = false;
    if (timer) clearInterval(timer);
    timer = undefined;
    log.error(
      { watchdog: 'systemd', binary, err: err.message },
      `cannot run ${binary}, so systemd gets no READY/WATCHDOG notifications (the unit will time out); install systemd or run without NOTIFY_SOCKET`,
    );
  }

  /** Send one message; resolves when the child has exited (or could not start). */
  // Each notification is its own child process, so two can reach systemd in either order; stop() waits for these.
  const inflight = new Set<Promise<void>>();

  function send(lines: string[]): Promise<void> {
    if (!enabled) return Promise.resolve();
    const p = sendNow(lines);
    inflight.add(p);
    void p.then(() => inflight.delete(p));
    return p;
  }

  function sendNow(lines: string[]): Promise<void> {
    return new Promise((resolve) => {
      let child: NotifyChild;
      try {
        child = spawn(binary, lines, { stdio: 'ignore', env, timeout: CHILD_TIMEOUT_MS });
      } catch (e) {
        disable(e as Error);
        resolve();
        return;
      }
      // Node reports a missing binary (ENOENT) or a non-executable one (EACCES) as 'error', without 'exit'.
      child.on('error', (err) => {
        disable(err);
        resolve();
      });
      child.on('exit', (code, signal) => {
        if (code === 0) {
          if (failing) log.info({ watchdog: 'systemd' }, `${binary} works again`);
          failing = false;
        } else if (!failing) {
          failing = true;
          log.warn(
            { watchdog: 'systemd', message: lines.join(' '), code, signal },
            `${binary} failed: systemd did not take the notification (NOTIFY_SOCKET unreachable? NotifyAccess=all missing?)`,
          );
        }
        resolve();
      });
    });
  }

  function tick(): void {
    const t = now();
    // A timer that fires much later than its period means the loop was blocked for that long: say so, because if it
    // ever reaches WatchdogSec the next line in the log is systemd's SIGABRT.
    const late = t - lastTick - (intervalMs ?? 0);
    if (intervalMs !== undefined && late > intervalMs / 2) {
      log.warn({ watchdog: 'systemd', lateMs: late, watchdogMs: intervalMs * 2 }, 'event loop was blocked; watchdog ping came late');
    }
    lastTick = t;
    if (healthy && !healthy()) {
      if (!heldBack) log.warn({ watchdog: 'systemd' }, 'daemon unhealthy: holding back watchdog pings (systemd restarts it if this lasts)');
      heldBack = true;
      return;
    }
    if (heldBack) log.info({ watchdog: 'systemd' }, 'daemon healthy again: watchdog pings resume');
    heldBack = false;
    void send(['WATCHDOG=1']);
  }

  return {
    get enabled() {
      return enabled;
    },
    intervalMs,
    ready(status?: string) {
      if (isReady || stopped || !enabled) return;
      isReady = true;
      const lines = ['READY=1'];
      if (status !== undefined) lines.push(`STATUS=${oneLine(status)}`);
      if (intervalMs !== undefined) {
        lines.push('WATCHDOG=1');
        lastTick = now();
        timer = setInterval(tick, intervalMs);
        // The ping must never be what keeps a finished daemon alive.
        timer.unref?.();
      }
      void send(lines);
    },
    status(text: string) {
      if (stopped) return;
      void send([`STATUS=${oneLine(text)}`]);
    },
    ping() {
      if (stopped || intervalMs === undefined) return;
      void send(['WATCHDOG=1']);
    },
    stop(status?: string) {
      if (stopped) return Promise.resolve();
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      const lines = ['STOPPING=1'];
      if (status !== undefined) lines.push(`STATUS=${oneLine(status)}`);
      // STOPPING=1 must be the last word systemd hears: let earlier STATUS/WATCHDOG messages land first.
      return Promise.all([...inflight]).then(() => send(lines));
    },
  };
}
