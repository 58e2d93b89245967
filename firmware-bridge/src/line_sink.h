// Where the Bridge puts its outgoing lines. Writes are all-or-nothing and never block: a bridge that
// blocked on a stalled USB host would stop polling and miss cards. A refused line is counted, keeps
// its sequence number (so the host sees the gap) and is reported later as `err overflow`.
#pragma once

#include <cstddef>

namespace tenace {

class LineSink {
   public:
    // Bytes that write() would accept right now.
    virtual size_t room() const = 0;
    // Accepts the whole line (including its '\n') or nothing.
    virtual bool write(const char* line, size_t len) = 0;

   protected:
    // Not deleted through this interface; no virtual destructor needed on the MCU.
    ~LineSink() = default;
};

}  // namespace tenace
