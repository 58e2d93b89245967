// Hand-record formats: PBN 2.1 and BBO LIN import, PBN export, and the neutral DealRecord between them.
import { parsePbn } from './pbn.js';
import { parseLin } from './lin.js';
import type { ParseResult } from './record.js';

export * from './record.js';
export { parsePbn, streamPbn, type StreamedGame } from './pbn.js';
export { formatPbn, formatPbnFromResult, formatPbnFromResults, formatPbnGame, PBN_EXPORT_HEAD } from './pbn-export.js';
export { parseLin } from './lin.js';
export { printable, quote } from './quote.js';

/** The files `replay` reads: a table log (DESIGN §4), PBN or LIN. */
export type InputFormat = 'table-log' | 'pbn' | 'lin';

const BY_EXTENSION: Record<string, InputFormat> = { pbn: 'pbn', lin: 'lin', ndjson: 'table-log', jsonl: 'table-log', json: 'table-log' };

/** The format a file's first visible text shows, or undefined when it shows none. */
function formatByContent(text: string): InputFormat | undefined {
  // A table log may open with comment lines ("//", "#"), which no PBN or LIN file does.
  const start = text.replace(/^\uFEFF/, '').replace(/^(?:[ \t]*(?:(?:\/\/|#)[^\n]*)?\r?\n)*/, '').trimStart();
  if (/^[A-Za-z]{2}\|/.test(start)) return 'lin';
  if (/^[%[;]/.test(start)) return 'pbn';
  if (!start.startsWith('{')) return undefined;
  // "{" opens a table log's JSON line or a PBN brace comment; a line that is not JSON is left to the extension.
  const eol = start.indexOf('\n');
  const first = eol < 0 ? start : start.slice(0, eol);
  try {
    const o: unknown = JSON.parse(first);
    return typeof o === 'object' && o !== null ? 'table-log' : undefined;
  } catch {
    return /^\{\s*"/.test(start) ? undefined : 'pbn';
  }
}

/**
 * Which reader a file needs: its content decides when it is clear (a LIN file named .pbn is still LIN), else the
 * extension. Binary input is refused rather than read as text.
 */
export function detectFormat(text: string, fileName: string): { format: InputFormat } | { error: string } {
  if (text.slice(0, 65536).includes('\0')) {
    return { error: 'not a text file (it holds NUL bytes): give a table log (.ndjson), a PBN or a LIN file' };
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const format = formatByContent(text) ?? BY_EXTENSION[ext];
  return format ? { format } : { error: 'neither a table log (.ndjson), PBN (.pbn) nor LIN (.lin) by its content or its name' };
}

/** Read a hand-record file, PBN or LIN by its content (or, when that says nothing, by its extension). */
export function loadRecords(text: string, fileName: string): ParseResult {
  const d = detectFormat(String(text), fileName);
  if ('format' in d && d.format === 'pbn') return parsePbn(text);
  if ('format' in d && d.format === 'lin') return parseLin(text);
  return { records: [], errors: [{ line: 1, message: 'error' in d ? d.error : 'a table log, neither PBN (.pbn) nor LIN (.lin)' }] };
}
