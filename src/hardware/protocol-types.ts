// The protocol's vocabulary: its limits, the type words of each direction, the error and fault
// codes, and the shape of a decoded frame (PROTOCOL.md §3-§5, §13, §16).
//
// Apart from the codec so that code which only names frames or limits (seat maps, status reports,
// the emulator) does not have to read past the parser to find them.

export const PROTOCOL_VERSION = 2;
/** Maximum line length in bytes, without the terminator (PROTOCOL.md §3). */
export const MAX_LINE = 96;
/** Largest sequence number, device and host alike. */
export const SEQ_MAX = 65535;
/** Limits from PROTOCOL.md §5 / §16. */
export const MAX_READERS = 8;
export const POLL_MS_MIN = 10;
export const POLL_MS_MAX = 1000;
export const MISSES_MIN = 1;
export const MISSES_MAX = 20;
export const MAX_FIRMWARE_LENGTH = 16;
/** Boot ids: 1..65535, a new random one at every reset (PROTOCOL.md §4; 0 is never used). */
export const BOOT_MIN = 1;
export const BOOT_MAX = 65535;
/** arrive/leave lines the device keeps for `since` (PROTOCOL.md §11, `kEventLogSize`). */
export const EVENT_LOG_SIZE = 256;

export type Frame = { seq: number; type: string; [field: string]: unknown };

export type LineError =
  | 'empty'
  | 'too-long'
  | 'bad-char'
  | 'no-checksum'
  | 'bad-crc'
  | 'bad-frame'
  | 'bad-seq'
  | 'unknown-type'
  | 'missing-field'
  | 'extra-field'
  | 'bad-field';

export const LINE_ERRORS: readonly LineError[] = [
  'empty',
  'too-long',
  'bad-char',
  'no-checksum',
  'bad-crc',
  'bad-frame',
  'bad-seq',
  'unknown-type',
  'missing-field',
  'extra-field',
  'bad-field',
];

export type DecodeResult = { ok: true; frame: Frame } | { ok: false; error: LineError };

export const DEVICE_TYPES = [
  'hello',
  'cfg',
  'hb',
  'arrive',
  'leave',
  'err',
  'ack',
  'nak',
  'snap',
  'tag',
  'snapend',
  'identity',
  'replay',
  'rec',
  'replayend',
] as const;
export const HOST_TYPES = ['ping', 'reset', 'present', 'set', 'ident', 'since'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
export type HostType = (typeof HOST_TYPES)[number];

export const RESET_CAUSES = ['power', 'pin', 'watchdog', 'host', 'debug', 'unknown'] as const;
export const READER_FAULTS = ['no-chip', 'timeout', 'comm', 'overfull'] as const;
export const ERR_LINE_CODES = ['too-long', 'bad-char', 'no-checksum', 'bad-crc', 'bad-frame', 'bad-seq'] as const;
export const NAK_CODES = ['unknown-type', 'missing-field', 'extra-field', 'bad-field', 'gone'] as const;
/** The type word a `rec` carries: the logged line's type. */
export const REC_KINDS = ['arrive', 'leave'] as const;
export type ReaderState = 'O' | 'W' | 'F';

// ---- typed views of decoded frames (for consumers; decodeLine returns the generic Frame) ----

export type HelloFrame = { seq: number; type: 'hello'; fw: string; proto: number; readers: number; reset: string; boot: number };
export type IdentityFrame = Omit<HelloFrame, 'type'> & { type: 'identity'; uptimeS: number };
export type CfgFrame = { seq: number; type: 'cfg'; pollMs: number; misses: number };
export type HbFrame = { seq: number; type: 'hb'; uptimeS: number; status: string; tags: number[]; boot: number };
export type TagEventFrame = { seq: number; type: 'arrive' | 'leave' | 'tag'; reader: number; uid: string };
export type ErrFrame =
  | { seq: number; type: 'err'; kind: 'reader'; reader: number; code: string }
  | { seq: number; type: 'err'; kind: 'overflow'; dropped: number }
  | { seq: number; type: 'err'; kind: 'line'; code: string };
export type AckFrame = { seq: number; type: 'ack'; hseq: number; cmd: string };
export type NakFrame = { seq: number; type: 'nak'; hseq: number; code: string };
export type SnapFrame = { seq: number; type: 'snap'; hseq: number; total: number };
export type SnapEndFrame = { seq: number; type: 'snapend'; hseq: number; total: number; status: string };
export type SinceFrame = { seq: number; type: 'since'; boot: number; after: number };
export type ReplayFrame = { seq: number; type: 'replay' | 'replayend'; hseq: number; count: number };
export type RecFrame = { seq: number; type: 'rec'; oseq: number; kind: 'arrive' | 'leave'; reader: number; uid: string };

// ---- direction of a type word ----

/** The device's and the host's type words as sets, for the codec's per-line lookups. */
export const DEVICE_SET: ReadonlySet<string> = new Set(DEVICE_TYPES);
export const HOST_SET: ReadonlySet<string> = new Set(HOST_TYPES);

/** True for types the device sends (hello, hb, arrive...); false for host commands. */
export function isDeviceType(type: string): type is DeviceType {
  return DEVICE_SET.has(type);
}
/** True for host command types (ping, reset, present...). */
export function isHostType(type: string): type is HostType {
  return HOST_SET.has(type);
}
