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

class SeqCounter {
   public:
    // After reset() the next take() returns 0, for the hello.
    void reset() { fresh_ = true; }

    uint16_t take() {
        if (fresh_) {
            fresh_ = false;
            last_ = 0;
            return 0;
        }
        last_ = nextSeq(last_);
        return last_;
    }

   private:
    bool fresh_ = true;
    uint16_t last_ = 0;
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
