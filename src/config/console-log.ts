// The log of a command run at a terminal (`tenace simulate`, `tenace session simulate`, `npm start`): short readable
// lines ("tenace: warn: table 2: bridge port closed; reopening (err=bad file descriptor)") for the person watching;
// JSON lines, as the daemons write them for journald, when the stream is not a terminal or `--log-json` asks.
import { printable } from '../formats/quote.js';
import { type LogDestination, type Logger, createLogger, fdDestination } from './logger.js';

/** Fields every record carries that a person at the terminal does not need. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'club', 'table', 'err', 'v']);

/** One field's value as text: strings as they are, the rest as JSON, all of it printable and bounded. */
function fieldText(v: unknown): string {
  return printable(typeof v === 'string' ? v : JSON.stringify(v) ?? String(v), 200);
}

/** An err field as its sentence: the logger writes an Error as { type, message, stack }; an expected one as its text. */
function errText(err: unknown): string | undefined {
  if (err === undefined || err === null) return undefined;
  if (typeof err === 'string') return err;
  const m = (err as { message?: unknown }).message;
  return typeof m === 'string' ? m : JSON.stringify(err);
}

/**
 * One JSON log line as a readable line, or lines when it carries another process's log (the director's, relayed
 * in its `director` field): each of those is made readable too. Text that is not JSON passes through as it is.
 */
export function readableLines(line: string, prefix = 'tenace'): string[] {
  const text = line.trim();
  if (text === '') return [];
  let rec: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [`${prefix}: ${printable(text)}`];
    rec = parsed as Record<string, unknown>;
  } catch {
    return [`${prefix}: ${printable(text)}`];
  }
  // A relayed log: the other process's own lines, each under its name.
  if (typeof rec.director === 'string') return rec.director.split('\n').flatMap((l) => readableLines(l, `${prefix}: director`));
  const level = typeof rec.level === 'string' ? rec.level : typeof rec.level === 'number' ? ({ 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' } as Record<number, string>)[rec.level] ?? 'info' : 'info';
  const who = rec.table !== undefined ? `table ${fieldText(rec.table)}: ` : '';
  const err = errText(rec.err);
  const fields = Object.entries(rec).filter(([k]) => !HIDDEN.has(k)).map(([k, v]) => `${k}=${fieldText(v)}`);
  const msg = printable(typeof rec.msg === 'string' ? rec.msg : '');
  const tail = [err ? `err=${printable(err, 300)}` : '', ...fields].filter((x) => x !== '').join(', ');
  return [`${prefix}: ${level === 'info' ? '' : `${level}: `}${who}${msg}${tail ? ` (${tail})` : ''}`];
}

/** A log destination that writes each record through `write` as readable lines. */
export function readableDestination(write: (s: string) => unknown, prefix = 'tenace'): LogDestination {
  return { write: (s: string) => { for (const l of readableLines(s, prefix)) write(`${l}\n`); } };
}

/** How a command's log is written: readable on a terminal unless JSON is asked for, JSON otherwise. */
export function wantsJsonLog(opts: { logJson?: boolean; isTTY?: boolean }): boolean {
  return opts.logJson === true || opts.isTTY !== true;
}

/**
 * The logger of a command run by a person: to stdout (fd 1) or stderr (fd 2), readable lines when that stream is a
 * terminal, JSON lines when it is not (a pipe, a file, journald) or when `logJson` is set (`--log-json`).
 */
export function consoleLogger(opts: { level: string; fd: 1 | 2; logJson?: boolean }): Logger {
  const stream = opts.fd === 1 ? process.stdout : process.stderr;
  const settings = { log: { level: opts.level as 'warn' } };
  // JSON as the daemons write it: synchronous, so the last lines before a crash are not lost.
  if (wantsJsonLog({ logJson: opts.logJson, isTTY: stream.isTTY })) return createLogger(settings, fdDestination(opts.fd));
  return createLogger(settings, readableDestination((s) => stream.write(s)));
}
