// The tray barcode (hardware/tray-barcode.md): what a scan of a tray's label means.
//
//   scan     = [aim] code [check]
//   aim      = "]" LETTER DIGIT            AIM symbology identifier, if the scanner is set to send one
//   code     = board | session ":" board
//   board    = 1*6 DIGIT, value 1..9999    leading zeros allowed ("007" is board 7)
//   session  = ALNUM *31( ALNUM | "-" | "_" | "." )   case-insensitive; normalised to lower case
//   check    = "*" 2 HEXDIG                CRC-8/SMBUS of the canonical code (the bridge protocol's CRC)
//
// The canonical code is the session in lower case, a colon, and the board without leading zeros:
// "2026-12-02-eve:7", or "7" without a session. A good scan becomes `{type:'tray', code}` with the
// canonical code (the check, if any, has been verified and is dropped).
import type { TrayEvent } from '../formats/table-log.js';
import { crc8 } from './protocol.js';
import { isoTime } from '../formats/iso-time.js';

/** Why a scan was refused. `unreadable`: not text a scanner sends for a label (empty, control or
 * non-ASCII bytes, a "no read" message); `bad-code`: text, but not a tray code; `bad-board`: the
 * board number is out of range; `bad-check`: the check characters do not match; `too-long`. */
export type TrayCodeProblem = 'unreadable' | 'bad-code' | 'bad-board' | 'bad-check' | 'too-long';

export interface TrayCode {
  board: number;
  /** The session, in lower case; absent for a bare board number. */
  session?: string;
}

export type TrayCodeResult =
  | { ok: true; board: number; session?: string; code: string; checked: boolean }
  | { ok: false; error: string; problem: TrayCodeProblem };

export const MAX_BOARD = 9999;
export const MAX_SESSION_LENGTH = 32;
/** Longest scan accepted, in characters, before any parsing: an AIM prefix, a 32-character
 * session, a colon, six digits and a check fit in 45. */
export const MAX_SCAN_LENGTH = 64;

const SESSION_RE = /^[a-z0-9][a-z0-9._-]{0,31}$/;
const BOARD_RE = /^[0-9]{1,6}$/;
const NO_READ = /^(?:nr|noread|no[ _-]read|error|err)$/i;

function fail(problem: TrayCodeProblem, why: string): TrayCodeResult {
  return { ok: false, problem, error: `bad or unreadable scan: ${why}` };
}

/** True when `s` is an acceptable session name (after lower-casing). */
export function isSessionName(s: string): boolean {
  return SESSION_RE.test(s.toLowerCase());
}

/** The canonical text of a tray code: "session:board" or "board". */
export function canonicalTrayCode(t: TrayCode): string {
  return t.session === undefined ? String(t.board) : `${t.session.toLowerCase()}:${t.board}`;
}

/** The two check characters of a tray code: CRC-8/SMBUS of its canonical text, in upper-case hex. */
export function trayCheck(t: TrayCode): string {
  return crc8(canonicalTrayCode(t)).toString(16).toUpperCase().padStart(2, '0');
}

/**
 * The text to print on a tray label. Throws on a board or session the grammar refuses, so a label
 * that would not scan back is never printed. `check: true` appends "*HH".
 */
export function formatTrayCode(t: TrayCode, opts: { check?: boolean } = {}): string {
  if (!Number.isInteger(t.board) || t.board < 1 || t.board > MAX_BOARD) {
    throw new RangeError(`tray board must be an integer 1..${MAX_BOARD} (got ${t.board})`);
  }
  if (t.session !== undefined && !isSessionName(t.session)) {
    throw new RangeError(`tray session "${t.session}" must be 1-32 of a-z 0-9 . _ - and start with a letter or digit`);
  }
  const code = canonicalTrayCode(t);
  return opts.check ? `${code}*${trayCheck(t)}` : code;
}

/**
 * Parse the text of one scan. Surrounding whitespace and control characters (the scanner's
 * terminator) are ignored. Every refusal starts with "bad or unreadable scan:" and says why.
 */
export function parseTrayCode(text: string): TrayCodeResult {
  if (text.length > MAX_SCAN_LENGTH * 4) return fail('too-long', `${text.length} characters (at most ${MAX_SCAN_LENGTH})`);
  // eslint-disable-next-line no-control-regex
  let s = text.replace(/^[\s\x00-\x1f\x7f]+|[\s\x00-\x1f\x7f]+$/g, '');
  if (s.length === 0) return fail('unreadable', 'nothing was read');
  if (s.length > MAX_SCAN_LENGTH) return fail('too-long', `${s.length} characters (at most ${MAX_SCAN_LENGTH})`);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) {
      return fail('unreadable', `character ${i + 1} is ${c < 0x20 || c === 0x7f ? 'a control code' : 'not ASCII'} (0x${c.toString(16).toUpperCase().padStart(2, '0')}); the label is damaged or the scanner misread it`);
    }
  }
  if (NO_READ.test(s)) return fail('unreadable', `the scanner reported "${s}" (no read)`);
  // An AIM symbology identifier such as "]C0" (Code 128) or "]Q1" (QR) is dropped.
  if (/^\][A-Za-z][0-9A-Za-z]/.test(s)) s = s.slice(3);

  let checkText: string | undefined;
  const star = s.indexOf('*');
  if (star >= 0) {
    checkText = s.slice(star + 1);
    s = s.slice(0, star);
    if (!/^[0-9A-Fa-f]{2}$/.test(checkText)) {
      return fail('bad-code', `"*" must be followed by two hex check characters (got "${checkText}")`);
    }
  }

  const colon = s.lastIndexOf(':');
  const boardText = colon >= 0 ? s.slice(colon + 1) : s;
  const sessionText = colon >= 0 ? s.slice(0, colon) : undefined;
  if (sessionText !== undefined) {
    if (sessionText.length === 0) return fail('bad-code', `"${s}" has no session before ":"`);
    if (sessionText.length > MAX_SESSION_LENGTH) return fail('bad-code', `session "${sessionText}" is longer than ${MAX_SESSION_LENGTH} characters`);
    if (!isSessionName(sessionText)) {
      return fail('bad-code', `session "${sessionText}" may only hold letters, digits, ".", "_" and "-", and must start with a letter or digit`);
    }
  }
  if (!BOARD_RE.test(boardText)) {
    return fail('bad-code', boardText === ''
      ? `"${s}" has no board number${colon >= 0 ? ' after ":"' : ''}`
      : `"${s}" is not a board number or session:board (board "${boardText}" is not 1-6 digits)`);
  }
  const board = Number(boardText);
  if (board < 1 || board > MAX_BOARD) return fail('bad-board', `board ${board} is out of range (1..${MAX_BOARD})`);

  const t: TrayCode = sessionText === undefined ? { board } : { board, session: sessionText.toLowerCase() };
  if (checkText !== undefined && checkText.toUpperCase() !== trayCheck(t)) {
    return fail('bad-check', `check "${checkText.toUpperCase()}" does not match "${canonicalTrayCode(t)}" (expected ${trayCheck(t)}): a misread`);
  }
  return { ok: true, ...t, code: canonicalTrayCode(t), checked: checkText !== undefined };
}

// ---- what a scanner driver emits ----

/** A scan that is not a tray code (the clear event for a bad or unreadable scan). Not a TableEvent:
 * it is not journalled; the daemon shows it to the players so that they scan again. */
export interface ScanErrorEvent {
  type: 'scan-error';
  problem: TrayCodeProblem;
  /** A sentence starting "bad or unreadable scan:". */
  error: string;
  /** What was read, with control characters escaped, for the log (at most 80 characters). */
  text: string;
  /** Which scanner: its path or HID id. */
  source: string;
  at: string;
}

/** Show a raw scan in a log line: control and non-ASCII characters as \xNN, cut to 80 characters. */
export function printableScan(text: string): string {
  // eslint-disable-next-line no-control-regex
  const s = text.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Turn the text of one scan into the tray TableEvent, or the scan-error event. */
export function scanToEvent(text: string, source: string, now: Date = new Date()): TrayEvent | ScanErrorEvent {
  const r = parseTrayCode(text);
  if (r.ok) return { type: 'tray', code: r.code, at: isoTime(now.getTime()) };
  return { type: 'scan-error', problem: r.problem, error: r.error, text: printableScan(text), source, at: isoTime(now.getTime()) };
}
