// Hand-record formats: PBN 2.1 and BBO LIN import, PBN export, and the neutral DealRecord between them.
import { parsePbn } from './pbn.js';
import { parseLin } from './lin.js';
import type { ParseResult } from './record.js';

export * from './record.js';
export { parsePbn, formatPbn, formatPbnFromResult } from './pbn.js';
export { parseLin } from './lin.js';

/** Read a hand-record file, PBN or LIN by its extension (or, without one, by its first visible text). */
export function loadRecords(text: string, fileName: string): ParseResult {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'pbn') return parsePbn(text);
  if (ext === 'lin') return parseLin(text);
  // Unknown extension: a LIN file opens with a two-letter tag and "|", a PBN file with "%", "[" or ";"
  // (not "{": a PBN may open with a brace comment, but a JSON table log always does).
  const start = String(text).trimStart();
  if (/^[A-Za-z]{2}\|/.test(start)) return parseLin(text);
  if (/^[%[;]/.test(start)) return parsePbn(text);
  return { records: [], errors: [{ line: 1, message: `${fileName} is neither PBN (.pbn) nor LIN (.lin)` }] };
}
