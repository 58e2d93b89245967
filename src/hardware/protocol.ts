// The firmware-bridge line protocol, version 2: codec for both directions.
//
// firmware-bridge/PROTOCOL.md is the contract; firmware-bridge/vectors/protocol-vectors.json pins it
// down byte for byte, and test/hardware/protocol.test.ts checks every vector against this module.
// The checks in `decodeLine` run in the order of PROTOCOL.md §8, so the first failing check decides
// the error code exactly as the C++ reference (firmware-bridge/src/frame_codec.cpp) does.
//
// A decoded frame (PROTOCOL.md §13) is a plain object: `seq`, `type`, and exactly the fields of its
// type, with JSON types (numbers as numbers, `hb.tags` as an array of numbers).
//
// The codec is split by concern; this module is its public face and re-exports them:
//   protocol-types.ts     limits, type words, codes, frame shapes
//   protocol-checksum.ts  CRC-8 and the "*HH" trailer
//   protocol-fields.ts    the field grammar of each type
//   protocol-decode.ts    decodeLine (the §8 checks) and announcedProto
//   protocol-encode.ts    encodeFrame
//   protocol-seq.ts       seq order and SeqTracker
import { CRC_TABLE, upperHex } from './protocol-checksum.js';
import { ERRORS } from './protocol-decode.js';
import { FIELD_COUNT, decimal, parseFields } from './protocol-fields.js';
import { DEVICE_SET, HOST_SET } from './protocol-types.js';

export {
  BOOT_MAX, BOOT_MIN, DEVICE_TYPES, ERR_LINE_CODES, EVENT_LOG_SIZE, HOST_TYPES, LINE_ERRORS, MAX_FIRMWARE_LENGTH,
  MAX_LINE, MAX_READERS, MISSES_MAX, MISSES_MIN, NAK_CODES, POLL_MS_MAX, POLL_MS_MIN, PROTOCOL_VERSION, READER_FAULTS,
  REC_KINDS, RESET_CAUSES, SEQ_MAX, isDeviceType, isHostType,
} from './protocol-types.js';
export type {
  AckFrame, CfgFrame, DecodeResult, DeviceType, ErrFrame, Frame, HbFrame, HelloFrame, HostType, IdentityFrame,
  LineError, NakFrame, ReaderState, RecFrame, ReplayFrame, SinceFrame, SnapEndFrame, SnapFrame, TagEventFrame,
} from './protocol-types.js';
export { crc8, withCrc } from './protocol-checksum.js';
export { isUidHex } from './protocol-fields.js';
export { announcedProto, decodeLine } from './protocol-decode.js';
export { encodeFrame } from './protocol-encode.js';
export { SeqTracker, type SeqVerdict, nextDeviceSeq, nextHostSeq, seqAfter } from './protocol-seq.js';

/**
 * The codec's unchanged parts that the old, token-splitting decoder of the equivalence test shares
 * (test/hardware/protocol-reference.ts), and the CRC table of the byte-level decoder of the lines
 * of play (card-line.ts): not API.
 */
export const codecParts = { CRC_TABLE, upperHex, decimal, FIELD_COUNT, parseFields, ERRORS, DEVICE_SET, HOST_SET } as const;
