// Structured logging: one JSON object a line on stdout, which journald captures under the unit's name. Our own, not
// pino: the daemon logs a few lines an hour, and pino with its stream and redaction modules held 0.9 MB of a table
// daemon's RSS, its toISOString time 0.8 MB more (issue 20: 50 MB on a Pi Zero 2 W; bench/README.md `daemon` (b)).
// The lines are the ones pino wrote: level as a word, an ISO time, pid, club and table, the fields, then msg.
import { writeSync } from 'node:fs';
import type { LogLevel } from './schema.js';
import type { Log } from './log.js';
import { isoNow } from '../formats/iso-time.js';

export { type Log, silentLog } from './log.js';

/** What the logger needs from the config; a whole TenaceConfig fits. */
export type LoggerSettings = { log?: { level?: LogLevel }; club?: { id: string }; table?: { id: string } };

/** Where a logger writes its lines: a stream, a file, a recorder in a test. */
export interface LogDestination {
  write(line: string): unknown;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
type Level = keyof typeof LEVELS;

/** An error made for the operator: its message names the setting and the fix, so its stack is noise. */
function isExpected(e: unknown): boolean {
  return e instanceof Error && (e as { expected?: unknown }).expected === true;
}

/** An Error as a log field: its type, message, stack and own fields (code, errno...), its cause the same way. */
function errorField(e: unknown, depth = 0): unknown {
  if (!(e instanceof Error)) return e;
  if (isExpected(e)) return e.message;
  const out: Record<string, unknown> = { type: e.constructor?.name ?? 'Error', message: e.message, stack: e.stack };
  for (const [k, v] of Object.entries(e)) if (!(k in out)) out[k] = v;
  if (e.cause !== undefined && depth < 3) out.cause = errorField(e.cause, depth + 1);
  return out;
}

const CENSOR = '[redacted]';

/**
 * A copy of a record without the broker password: `password` at the top or one or two levels down, in objects or
 * lists (a config or an MQTT options object logged whole). The record itself is not changed.
 */
function redacted(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || depth > 2) return v;
  let copy: Record<string, unknown> | null = null;
  for (const [k, x] of Object.entries(v)) {
    const y = k === 'password' ? CENSOR : redacted(x, depth + 1);
    // A list is copied as a list: its entries are keyed "0", "1"... here as in Object.entries.
    if (y !== x) (copy ??= (Array.isArray(v) ? [...v] : { ...v }) as Record<string, unknown>)[k] = y;
  }
  return copy ?? v;
}

/** JSON.stringify that survives a cycle or a BigInt in a field: a log line must never throw. */
function safeJson(rec: object): string {
  try {
    return JSON.stringify(rec);
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(rec, (_k, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    });
  }
}

/** The daemons' logger: JSON lines, synchronous, with a level and child loggers that add fields. */
export class Logger implements Log {
  private min: number;

  constructor(
    private readonly dest: LogDestination,
    level: string,
    /** The fields every line of this logger carries, as JSON without its braces ("" when none). */
    private readonly bound: string,
  ) {
    this.min = LEVELS[level as Level] ?? LEVELS.info;
  }

  /** The least level written: trace, debug, info, warn, error, fatal or silent. */
  get level(): string {
    return (Object.keys(LEVELS) as Level[]).find((k) => LEVELS[k] === this.min) ?? 'info';
  }

  set level(l: string) {
    this.min = LEVELS[l as Level] ?? this.min;
  }

  /** A logger whose lines carry `bindings` too; `options.level` sets its own level (the parent's by default). */
  child(bindings: object, options: { level?: string } = {}): Logger {
    const fields = safeJson(redacted(bindings, 0) as object).slice(1, -1);
    return new Logger(this.dest, options.level ?? this.level, this.bound && fields ? `${this.bound},${fields}` : this.bound || fields);
  }

  trace(obj: object | string, msg?: string): void { if (this.min <= 10) this.write('trace', obj, msg); }
  debug(obj: object | string, msg?: string): void { if (this.min <= 20) this.write('debug', obj, msg); }
  info(obj: object | string, msg?: string): void { if (this.min <= 30) this.write('info', obj, msg); }
  warn(obj: object | string, msg?: string): void { if (this.min <= 40) this.write('warn', obj, msg); }
  error(obj: object | string, msg?: string): void { if (this.min <= 50) this.write('error', obj, msg); }
  fatal(obj: object | string, msg?: string): void { if (this.min <= 60) this.write('fatal', obj, msg); }

  private write(level: Level, obj: object | string, msg?: string): void {
    let fields: Record<string, unknown>;
    if (typeof obj === 'string') {
      fields = {};
      msg ??= obj;
    } else if (obj instanceof Error) {
      fields = { err: errorField(obj) };
      msg ??= obj.message;
    } else {
      fields = redacted(obj, 0) as Record<string, unknown>;
      if ('err' in fields) fields = { ...fields, err: errorField(fields.err) };
    }
    const body = safeJson(msg === undefined ? fields : { ...fields, msg }).slice(1, -1);
    const head = `{"level":"${level}","time":"${isoNow()}"`;
    this.dest.write(`${head}${this.bound ? `,${this.bound}` : ''}${body ? `,${body}` : ''}}\n`);
  }
}

/**
 * A file descriptor written synchronously: the last lines before a crash (or a SIGKILL from the watchdog) reach
 * journald. A pipe that is full (EAGAIN) is tried again for up to a second, then the line is dropped: the daemon
 * must not stop for its log. A closed reader (EPIPE) drops the line.
 */
export function fdDestination(fd: number): LogDestination {
  let wait: Int32Array | undefined;
  return {
    write(line: string) {
      let buf = Buffer.from(line);
      for (let tries = 0; buf.length > 0 && tries < 1000;) {
        try {
          buf = buf.subarray(writeSync(fd, buf));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
          tries++;
          Atomics.wait(wait ??= new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
    },
  };
}

/** Create the daemon's logger: JSON lines on stdout (or `destination`), level from config.log.level. */
export function createLogger(settings: LoggerSettings = {}, destination: LogDestination = fdDestination(1)): Logger {
  // Club and table on every line let one journald (or a central collector) tell tables apart.
  const base = safeJson({ pid: process.pid, club: settings.club?.id, table: settings.table?.id }).slice(1, -1);
  return new Logger(destination, settings.log?.level ?? 'info', base);
}
