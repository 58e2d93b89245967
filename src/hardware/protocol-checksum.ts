// The line checksum of PROTOCOL.md §3: CRC-8/SMBUS over the body, written as "*HH" in uppercase hex.
//
// Apart because it is not only the codec's: tray codes (tray-code.ts) and the byte-level decoder of
// the lines of play (card-line.ts) use the same CRC.

/** The CRC-8/SMBUS byte table, shared with the byte-level decoders (card-line.ts). */
export const CRC_TABLE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let b = 0; b < 8; b++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    t[i] = c;
  }
  return t;
})();

/**
 * CRC-8/SMBUS (poly 0x07, init 0, no reflection, no xorout) over the body bytes. The text is taken
 * one byte per UTF-16 code unit (low 8 bits), i.e. as Latin-1, which is what a line of protocol
 * ASCII is.
 */
export function crc8(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[crc ^ (text.charCodeAt(i) & 0xff)];
  return crc;
}

const HEX = '0123456789ABCDEF';
function hex2(n: number): string {
  return HEX[(n >> 4) & 0xf] + HEX[n & 0xf];
}
/** The value of an uppercase hex digit (char code), or -1: the trailer and UIDs allow no other case. */
export function upperHex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The body and checksum of a line, without any terminator: `body "*" HH`. */
export function withCrc(body: string): string {
  return `${body}*${hex2(crc8(body))}`;
}
