#include "protocol.h"

#include <cstring>

namespace tenace {

namespace {

const char* const kMsgTypeNames[] = {"hello", "cfg",    "hb",        "arrive",  "leave", "err",
                                     "ack",   "nak",    "snap",      "tag",     "snapend", "identity",
                                     "replay", "rec",   "replayend", "ping",    "reset", "present",
                                     "set",   "ident",  "since"};
static_assert(sizeof(kMsgTypeNames) / sizeof(kMsgTypeNames[0]) == static_cast<size_t>(MsgType::Count),
              "one name per message type");

const char* const kResetCauseNames[] = {"power", "pin", "watchdog", "host", "debug", "unknown"};
static_assert(sizeof(kResetCauseNames) / sizeof(kResetCauseNames[0]) ==
                  static_cast<size_t>(ResetCause::Count),
              "one name per reset cause");

// Index 0 (None) has no wire name; the empty string never matches a token.
const char* const kReaderFaultNames[] = {"", "no-chip", "timeout", "comm", "overfull"};
static_assert(sizeof(kReaderFaultNames) / sizeof(kReaderFaultNames[0]) ==
                  static_cast<size_t>(ReaderFault::Count),
              "one name per reader fault");

const char* const kErrKindNames[] = {"reader", "overflow", "line"};
static_assert(sizeof(kErrKindNames) / sizeof(kErrKindNames[0]) == static_cast<size_t>(ErrKind::Count),
              "one name per error kind");

const char* const kParseErrorNames[] = {"",         "empty",        "too-long",    "bad-char",
                                        "no-checksum", "bad-crc",   "bad-frame",   "bad-seq",
                                        "unknown-type", "missing-field", "extra-field", "bad-field",
                                        "gone"};
static_assert(sizeof(kParseErrorNames) / sizeof(kParseErrorNames[0]) ==
                  static_cast<size_t>(ParseError::Count),
              "one name per parse error");

template <typename E, size_t N>
const char* nameOf(const char* const (&table)[N], E value) {
    const size_t i = static_cast<size_t>(value);
    return i < N ? table[i] : "";
}

template <typename E, size_t N>
bool lookup(const char* const (&table)[N], const char* s, size_t n, E& out) {
    if (n == 0) return false;
    for (size_t i = 0; i < N; ++i) {
        if (std::strlen(table[i]) == n && std::memcmp(table[i], s, n) == 0) {
            out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

}  // namespace

const char* name(MsgType t) { return nameOf(kMsgTypeNames, t); }
const char* name(ResetCause c) { return nameOf(kResetCauseNames, c); }
const char* name(ReaderFault f) { return nameOf(kReaderFaultNames, f); }
const char* name(ErrKind k) { return nameOf(kErrKindNames, k); }
const char* name(ParseError e) { return nameOf(kParseErrorNames, e); }

bool parseName(const char* s, size_t n, MsgType& out) { return lookup(kMsgTypeNames, s, n, out); }
bool parseName(const char* s, size_t n, ResetCause& out) { return lookup(kResetCauseNames, s, n, out); }
bool parseName(const char* s, size_t n, ReaderFault& out) { return lookup(kReaderFaultNames, s, n, out); }
bool parseName(const char* s, size_t n, ErrKind& out) { return lookup(kErrKindNames, s, n, out); }
bool parseName(const char* s, size_t n, ParseError& out) { return lookup(kParseErrorNames, s, n, out); }

bool isHostCommand(MsgType t) {
    return t == MsgType::Ping || t == MsgType::Reset || t == MsgType::Present || t == MsgType::Set ||
           t == MsgType::Ident || t == MsgType::Since;
}

bool isLineError(ParseError e) {
    switch (e) {
        case ParseError::TooLong:
        case ParseError::BadChar:
        case ParseError::NoChecksum:
        case ParseError::BadCrc:
        case ParseError::BadFrame:
        case ParseError::BadSeq:
            return true;
        default:
            return false;
    }
}

bool isNakCode(ParseError e) {
    switch (e) {
        case ParseError::UnknownType:
        case ParseError::MissingField:
        case ParseError::ExtraField:
        case ParseError::BadField:
        case ParseError::Gone:
            return true;
        default:
            return false;
    }
}

bool isReaderStateChar(char c) { return c == 'O' || c == 'W' || c == 'F'; }

}  // namespace tenace
