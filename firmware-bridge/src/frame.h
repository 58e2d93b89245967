// One decoded protocol line. A flat struct rather than a variant: it is ~80 bytes, needs no heap and
// no RTTI, and only the fields of `type` are meaningful (PROTOCOL.md lists them per type).
#pragma once

#include <cstdint>

#include "protocol.h"
#include "uid.h"

namespace tenace {

struct Frame {
    uint16_t seq = 0;
    MsgType type = MsgType::Ping;

    // hello, identity
    char fw[kMaxFirmwareLength + 1] = {};  // NUL-terminated
    uint8_t proto = 0;
    uint8_t readers = 0;
    ResetCause reset = ResetCause::Unknown;
    // hello, identity, hb, since: the boot id, 1..65535
    uint16_t boot = 0;
    // since: the device seq after which events are wanted (0: since the hello)
    uint16_t after = 0;

    // cfg, set
    uint16_t pollMs = 0;
    uint8_t misses = 0;

    // hb, identity
    uint32_t uptimeS = 0;
    // hb, snapend: one ReaderState char per reader; hb also carries tags present per reader (0..9)
    uint8_t statusLen = 0;
    char status[kMaxReaders] = {};
    uint8_t tags[kMaxReaders] = {};

    // arrive, leave, tag, rec, err reader
    uint8_t reader = 0;
    // arrive, leave, tag, rec
    Uid uid;
    // rec: the original seq of the logged line, and its type (Arrive or Leave)
    uint16_t oseq = 0;
    MsgType recKind = MsgType::Arrive;

    // err
    ErrKind errKind = ErrKind::Reader;
    ReaderFault fault = ReaderFault::None;  // err reader
    uint16_t dropped = 0;                   // err overflow
    // err line, nak
    ParseError code = ParseError::None;

    // ack, nak, snap, snapend, replay, replayend
    uint16_t hseq = 0;
    MsgType cmd = MsgType::Ping;  // ack: the command acknowledged
    uint16_t total = 0;           // snap, snapend: tag lines in the snapshot
    uint16_t count = 0;           // replay, replayend: rec lines in the replay
};

}  // namespace tenace
