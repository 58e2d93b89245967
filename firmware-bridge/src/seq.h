// Sequence numbers (PROTOCOL.md "Sequence numbers").
//
// The device numbers its lines 0 (hello, after every reset), then 1, 2, ... 65535, 1, 2, ...
// Zero never recurs without a reset, so the host can tell a reset from a wrap without any other
// state. SeqTracker is the host-side rule, kept here as the executable reference for drivers.
#pragma once

#include <cstdint>

#include "protocol.h"

namespace tenace {

inline uint16_t nextSeq(uint16_t s) { return s >= kSeqMax ? 1 : static_cast<uint16_t>(s + 1); }

// True when device seq `a` comes after `b` in the wrapping order (the Gap rule of SeqTracker):
// 1 <= (a - b) mod 65535 < 32767. `b` may be 0, the hello.
inline bool seqAfter(uint16_t a, uint16_t b) {
    const uint32_t d = (static_cast<uint32_t>(a) + kSeqMax - b) % kSeqMax;
    return d >= 1 && d < kSeqMax / 2;
}

class SeqCounter {
   public:
    // After reset() the next take() returns 0, for the hello.
    void reset() { fresh_ = true; }

    uint16_t take() {
        if (fresh_) {
            fresh_ = false;
            last_ = 0;
            count_ = 0;
            return 0;
        }
        last_ = nextSeq(last_);
        ++count_;
        return last_;
    }

    // The last number taken, and how many were taken after the hello's: the same line counted
    // without wrapping (0 for the hello), which is how the event log orders its entries.
    uint16_t last() const { return last_; }
    uint32_t count() const { return count_; }

   private:
    bool fresh_ = true;
    uint16_t last_ = 0;
    uint32_t count_ = 0;
};

class SeqTracker {
   public:
    enum class Verdict : uint8_t {
        First,      // first line seen since the port was opened: accept, nothing to compare with
        Restart,    // a hello: the device was reset; accept
        InOrder,    // accept
        Gap,        // accept; `lost` lines are missing, so resynchronise
        Duplicate,  // the same or an older line again: drop it
    };

    // `seq` comes from a line that passed its CRC and grammar checks.
    Verdict accept(uint16_t seq, bool isHello, uint16_t& lost);

    void forget() { have_ = false; }

   private:
    bool have_ = false;
    uint16_t last_ = 0;
};

}  // namespace tenace
