// Protocol v2 vocabulary: limits, message types and the enumerated codes that travel on the wire.
// PROTOCOL.md is the specification; every constant here is quoted there. Change both together.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tenace {

constexpr uint8_t kProtocolVersion = 2;

// Bytes before the terminator. A receiver also tolerates one '\r' before the '\n'.
constexpr size_t kMaxLineLength = 96;

constexpr uint8_t kMaxReaders = 8;         // reader indices are one decimal digit, 0..7
constexpr uint8_t kMaxTagsPerReader = 8;   // per-reader presence set; a play spot holds one or two cards
constexpr uint8_t kMaxSeenPerPoll = 10;    // one poll may report more than fit, so overfull is detectable
constexpr uint8_t kMaxUidBytes = 10;       // ISO 14443A triple-size UID
constexpr size_t kMaxFirmwareLength = 16;  // hello <fw> token

// Host-settable poll settings (`set`), with their defaults after every reset.
constexpr uint16_t kPollMsMin = 10;
constexpr uint16_t kPollMsMax = 1000;
constexpr uint16_t kPollMsDefault = 50;
constexpr uint8_t kMissesMin = 1;
constexpr uint8_t kMissesMax = 20;
constexpr uint8_t kMissesDefault = 3;

constexpr uint32_t kHeartbeatMs = 1000;
// A `present` answer waits for every reader to settle, but never longer than this.
constexpr uint32_t kSnapshotMaxWaitMs = 2000;

// Worst-case bytes of one snapshot (snap + every tag + snapend, each a full line with '\n').
// The device's transmit buffer must hold this so a snapshot is never cut short.
constexpr size_t kMaxSnapshotBytes =
    (static_cast<size_t>(kMaxReaders) * kMaxTagsPerReader + 2) * (kMaxLineLength + 1);

// Device sequence numbers: 0 is reserved for hello, the rest run 1..65535 and wrap to 1.
constexpr uint16_t kSeqMax = 65535;

// Boot ids (hello, identity, hb, since): 1..65535, a new random one at every reset; 0 is never used.
constexpr uint16_t kBootMin = 1;

// The event log: the last arrive/leave lines, kept for `since` (PROTOCOL.md "Resynchronisation").
constexpr size_t kEventLogSize = 256;

// Worst-case bytes of the answer to `since`: the ack, replay, one `rec` per logged event and
// replayend, each with its newline. The longest lines are "65535 ack 65535 since*HH",
// "65535 replayend 65535 65535*HH" and "65535 rec 65535 arrive 7 <20 hex digits>*HH"
// (test_bridge.cpp checks these lengths). Like a snapshot, the whole answer waits for room.
constexpr size_t kMaxSinceAckBytes = 25;
constexpr size_t kMaxReplayEdgeBytes = 31;
constexpr size_t kMaxRecBytes = 49;
constexpr size_t kMaxReplayBytes = kMaxSinceAckBytes + 2 * kMaxReplayEdgeBytes + kEventLogSize * kMaxRecBytes;

enum class MsgType : uint8_t {
    // device -> host
    Hello,
    Cfg,
    Hb,
    Arrive,
    Leave,
    Err,
    Ack,
    Nak,
    Snap,
    Tag,
    SnapEnd,
    Identity,
    Replay,
    Rec,
    ReplayEnd,
    // host -> device
    Ping,
    Reset,
    Present,
    Set,
    Ident,
    Since,
    Count
};

enum class ResetCause : uint8_t { Power, Pin, Watchdog, Host, Debug, Unknown, Count };

// Reader fault codes (`err reader <r> <code>`). None is never sent.
enum class ReaderFault : uint8_t { None, NoChip, Timeout, Comm, Overfull, Count };

enum class ErrKind : uint8_t { Reader, Overflow, Line, Count };

// Why a line was rejected. The order of the enumerators is not the order of the checks;
// PROTOCOL.md "Receiving a line" gives the order, which frame_codec.cpp follows.
enum class ParseError : uint8_t {
    None,
    Empty,
    TooLong,
    BadChar,
    NoChecksum,
    BadCrc,
    BadFrame,
    BadSeq,
    UnknownType,
    MissingField,
    ExtraField,
    BadField,
    // Not a parse error: the nak code for a `since` the event log cannot answer. It shares this
    // enum because `nak` carries its code in the same field as the parse errors.
    Gone,
    Count
};

// One character per reader in `hb` and `snapend`.
enum class ReaderState : char { Ok = 'O', Warming = 'W', Fault = 'F' };

const char* name(MsgType t);
const char* name(ResetCause c);
const char* name(ReaderFault f);
const char* name(ErrKind k);
const char* name(ParseError e);

// Lookups from a (not NUL-terminated) token. They return false for unknown names.
bool parseName(const char* s, size_t n, MsgType& out);
bool parseName(const char* s, size_t n, ResetCause& out);
bool parseName(const char* s, size_t n, ReaderFault& out);
bool parseName(const char* s, size_t n, ErrKind& out);
bool parseName(const char* s, size_t n, ParseError& out);

bool isHostCommand(MsgType t);
// `err line <code>`: the errors found before a host line's sequence number can be trusted.
bool isLineError(ParseError e);
// `nak <hseq> <code>`: the errors found after it.
bool isNakCode(ParseError e);
bool isReaderStateChar(char c);

}  // namespace tenace
