// Encoding a frame to a line (PROTOCOL.md §13), checked by decoding it back.
//
// Apart from the decoder because only senders need it (the emulator, the command channel, tests);
// it leans on the decoder rather than repeating its range checks.
import { withCrc } from './protocol-checksum.js';
import { decodeLine } from './protocol-decode.js';
import type { Frame } from './protocol-types.js';

/** The tokens after the type word, in §13 order, as the frame's values are written. */
function fieldTokens(frame: Frame): string[] {
  const f = frame as Record<string, unknown>;
  const s = (k: string): string => String(f[k]);
  switch (frame.type) {
    case 'hello':
      return [s('fw'), s('proto'), s('readers'), s('reset'), s('boot')];
    case 'identity':
      return [s('fw'), s('proto'), s('readers'), s('reset'), s('uptimeS'), s('boot')];
    case 'cfg':
    case 'set':
      return [s('pollMs'), s('misses')];
    case 'hb': {
      const tags = f.tags;
      if (!Array.isArray(tags)) throw new Error('encodeFrame: hb.tags must be an array of digits');
      return [s('uptimeS'), s('status'), tags.map((n) => String(n)).join(''), s('boot')];
    }
    case 'arrive':
    case 'leave':
    case 'tag':
      return [s('reader'), s('uid')];
    case 'err':
      switch (f.kind) {
        case 'reader':
          return ['reader', s('reader'), s('code')];
        case 'overflow':
          return ['overflow', s('dropped')];
        case 'line':
          return ['line', s('code')];
        default:
          throw new Error(`encodeFrame: unknown err kind ${String(f.kind)}`);
      }
    case 'ack':
      return [s('hseq'), s('cmd')];
    case 'nak':
      return [s('hseq'), s('code')];
    case 'snap':
      return [s('hseq'), s('total')];
    case 'snapend':
      return [s('hseq'), s('total'), s('status')];
    case 'since':
      return [s('boot'), s('after')];
    case 'replay':
    case 'replayend':
      return [s('hseq'), s('count')];
    case 'rec':
      return [s('oseq'), s('kind'), s('reader'), s('uid')];
    case 'ping':
    case 'reset':
    case 'present':
    case 'ident':
      return [];
    default:
      throw new Error(`encodeFrame: unknown type ${frame.type}`);
  }
}

/**
 * Encodes a frame (§13 field names) to a line WITHOUT its terminator. Like the C++ encoder it
 * self-checks by decoding the result: a frame whose fields are out of range, or whose line would
 * not decode back to the same frame, throws rather than producing a line the receiver rejects.
 */
export function encodeFrame(frame: Frame): string {
  const body = [String(frame.seq), frame.type, ...fieldTokens(frame)].join(' ');
  const line = withCrc(body);
  const back = decodeLine(line);
  if (!back.ok) throw new Error(`encodeFrame: ${back.error} for ${JSON.stringify(frame)}`);
  for (const k of Object.keys(back.frame)) {
    if (JSON.stringify(back.frame[k]) !== JSON.stringify(frame[k])) {
      throw new Error(`encodeFrame: field ${k} does not round-trip in ${JSON.stringify(frame)}`);
    }
  }
  return line;
}
