// The line decoder as it was before the fast path (commit 6697e3c): every line cut into token
// strings, every field parsed by the generic parseFields. Kept as the oracle of
// decode-equivalence.test.ts, which checks that the fast decodeLine returns the same result (same
// error code, same frame with the same keys in the same order) for valid and damaged lines alike.
// The parts the fast path left as they were (CRC table, field parsers, error objects) come from
// the codec itself; only the decoding the fast path replaced is written here.
import { type DecodeResult, type Frame, MAX_LINE, SEQ_MAX, codecParts } from '../../src/hardware/protocol.js';

const { CRC_TABLE, upperHex, decimal, FIELD_COUNT, parseFields, ERRORS, DEVICE_SET, HOST_SET } = codecParts;

/**
 * Decodes one received line (the bytes before the `\n`, one char per byte; a trailing `\r` is
 * allowed). Applies the checks of PROTOCOL.md §8 in order. `empty` is reported but callers should
 * ignore it rather than count it. Error results are shared frozen objects.
 */
export function referenceDecodeLine(line: string): DecodeResult {
  let len = line.length;
  // 1. one trailing CR
  if (len > 0 && line.charCodeAt(len - 1) === 0x0d) len--;
  // 2. empty
  if (len === 0) return ERRORS.empty;
  // 3. length
  if (len > MAX_LINE) return ERRORS['too-long'];
  // One pass over the bytes computes what checks 4, 6 and 7 need; the verdicts are still given in
  // the order of §8 (a line with a bad byte is bad-char even if its trailer is missing).
  const bodyLen = len - 3;
  let crc = 0;
  let framing = true;
  const tok: string[] = [];
  let start = 0;
  for (let i = 0; i < len; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return ERRORS['bad-char']; // 4.
    if (i < bodyLen) {
      crc = CRC_TABLE[crc ^ c];
      if (c === 0x20) {
        if (i === start) framing = false;
        else tok.push(line.slice(start, i));
        start = i + 1;
      } else if (c === 0x2a) framing = false;
    }
  }
  // 5. "*HH" trailer
  if (len < 4 || line.charCodeAt(len - 3) !== 0x2a) return ERRORS['no-checksum'];
  const hi = upperHex(line.charCodeAt(len - 2));
  const lo = upperHex(line.charCodeAt(len - 1));
  if (hi < 0 || lo < 0) return ERRORS['no-checksum'];
  // 6. CRC
  if (crc !== ((hi << 4) | lo)) return ERRORS['bad-crc'];
  // 7. framing: single spaces between non-empty tokens, no '*'
  if (!framing || start === bodyLen) return ERRORS['bad-frame'];
  tok.push(line.slice(start, bodyLen));
  // 8. seq
  const seq = decimal(tok[0], 0, SEQ_MAX);
  if (seq === undefined) return ERRORS['bad-seq'];
  // 9. type present
  if (tok.length < 2) return ERRORS['missing-field'];
  const type = tok[1];
  // 10. known type
  const isDevice = DEVICE_SET.has(type);
  if (!isDevice && !HOST_SET.has(type)) return ERRORS['unknown-type'];
  // 11-12. field count (err: kind first)
  const nFields = tok.length - 2;
  let expected: number;
  if (type === 'err') {
    if (nFields === 0) return ERRORS['missing-field'];
    const kind = tok[2];
    if (kind === 'reader') expected = 3;
    else if (kind === 'overflow' || kind === 'line') expected = 2;
    else return ERRORS['bad-field'];
  } else {
    expected = FIELD_COUNT[type];
  }
  if (nFields < expected) return ERRORS['missing-field'];
  if (nFields > expected) return ERRORS['extra-field'];
  // 13. fields
  const frame: Frame = { seq, type };
  if (!parseFields(type, tok.slice(2), frame)) return ERRORS['bad-field'];
  // 14. seq 0 is hello and only hello (device types)
  if (isDevice && (seq === 0) !== (type === 'hello')) return ERRORS['bad-seq'];
  return { ok: true, frame };
}
