// The event log (PROTOCOL.md "Resynchronisation"): the last kEventLogSize arrive/leave lines, so a
// host that missed some (a CRC error, a full transmit buffer, a reconnect, its own restart) can ask
// for them in their order with `since` instead of guessing it from a presence snapshot.
//
// Entries are ordered by `line`, the device's line count since the hello (SeqCounter::count), which
// does not wrap; `seq` is what went on the wire. A fixed ring: no heap, RAM only, so a reset loses it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "protocol.h"
#include "uid.h"

namespace tenace {

struct LoggedEvent {
    uint32_t line = 0;
    uint16_t seq = 0;
    MsgType type = MsgType::Arrive;  // Arrive or Leave
    uint8_t reader = 0;
    Uid uid;
};

class EventLog {
   public:
    void clear();

    // Appends, overwriting the oldest entry when full (then evicted() and newestEvictedLine() say so).
    void append(uint32_t line, uint16_t seq, MsgType type, uint8_t reader, const Uid& uid);

    size_t size() const { return count_; }
    // i = 0 is the oldest entry.
    const LoggedEvent& at(size_t i) const { return ring_[(head_ + i) % kEventLogSize]; }

    bool evicted() const { return evicted_; }
    uint32_t newestEvictedLine() const { return newestEvicted_; }

    // True when the log still holds every event logged after line `from`: nothing newer was evicted.
    bool holdsAllAfter(uint32_t from) const { return !evicted_ || newestEvicted_ <= from; }

   private:
    LoggedEvent ring_[kEventLogSize];
    size_t head_ = 0;
    size_t count_ = 0;
    bool evicted_ = false;
    uint32_t newestEvicted_ = 0;
};

// Where a `since <boot> <after>` replay starts: the line count of `after`, given the last line used
// (`lastSeq`, counted `lastLine`). 0 for after = 0 (since the hello). `after` names the latest line
// with that seq, at most half the seq ring back (SeqTracker's rule); false when it is ahead of the
// last seq used, or names a line before this boot's hello.
bool replayStart(uint16_t after, uint16_t lastSeq, uint32_t lastLine, uint32_t& from);

}  // namespace tenace
