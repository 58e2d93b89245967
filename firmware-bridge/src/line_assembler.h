// Bytes -> lines, with a hard cap. node-serialport's ReadlineParser buffers without limit; a
// microcontroller cannot, and a host that floods garbage must not be able to push us into a state
// where a good command is lost with the bad one. Overlong input is dropped up to the next '\n'
// and reported once, at that '\n'.
#pragma once

#include <cstddef>
#include <cstdint>

#include "protocol.h"

namespace tenace {

class LineAssembler {
   public:
    enum class Event : uint8_t { None, Line, TooLong };

    // Feed one received byte. On Line, line()/size() hold the bytes before the '\n' (a trailing
    // '\r' is left in place for the parser) until the next call to feed().
    Event feed(char c);

    const char* line() const { return buf_; }
    size_t size() const { return len_; }

    void reset();

   private:
    // kMaxLineLength content bytes plus the tolerated '\r'.
    static constexpr size_t kCapacity = kMaxLineLength + 1;

    char buf_[kCapacity] = {};
    size_t len_ = 0;
    bool complete_ = false;   // the previous feed() returned Line; start over on this one
    bool discarding_ = false;  // overflowed; drop bytes until '\n'
};

}  // namespace tenace
