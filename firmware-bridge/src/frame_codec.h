// Frame <-> line. The only place that knows the grammar of PROTOCOL.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "frame.h"

namespace tenace {

struct ParseResult {
    ParseError error = ParseError::None;
    // How far the parse got, so a command handler can still answer a rejected command by its seq:
    // haveSeq means frame.seq holds the line's (CRC-checked) sequence number; haveType, frame.type.
    bool haveSeq = false;
    bool haveType = false;
    Frame frame;

    bool ok() const { return error == ParseError::None; }
};

// Parses the bytes of one line received before its '\n' (one trailing '\r' is tolerated).
// The checks run in the order PROTOCOL.md gives, so the error reported for a bad line is the same
// in every implementation that follows the document.
ParseResult parseLine(const char* line, size_t len);

// Encodes `f` as a complete line including the trailing '\n'. Returns the byte count, or 0 if the
// frame is not valid or does not fit. The encoder re-parses its own output before returning it, so
// nothing reaches the wire that a conforming receiver would reject.
size_t encodeFrame(const Frame& f, char* out, size_t cap);

// Size a line buffer must have for encodeFrame.
constexpr size_t kLineBufferSize = kMaxLineLength + 2;

}  // namespace tenace
