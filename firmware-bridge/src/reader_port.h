// The seam between the logic and the antennas. The Arduino glue implements it with MFRC522 chips on
// SPI; the tests implement it with a scripted fake. Everything above this line is hardware-free.
#pragma once

#include <cstdint>

#include "protocol.h"
#include "uid.h"

namespace tenace {

struct PollResult {
    enum class Outcome : uint8_t {
        Complete,  // inventoried every tag in the field
        Partial,   // stopped early (budget, or more tags than uids[] holds); uids[] is what it got
        Fault,     // the reader did not answer as a reader should; `fault` says how
    };

    Outcome outcome = Outcome::Complete;
    ReaderFault fault = ReaderFault::None;
    uint8_t count = 0;
    Uid uids[kMaxSeenPerPoll];
};

class ReaderPort {
   public:
    // 1..kMaxReaders. Fixed for the life of the port.
    virtual uint8_t readerCount() const = 0;

    // Reset the reader chip, check it is the part we expect, configure it and switch its field on.
    // Returns ReaderFault::None on success. May take tens of milliseconds (chip reset); the
    // scheduler only calls it at start-up and on back-off after a fault.
    virtual ReaderFault probe(uint8_t reader) = 0;

    // One inventory of the reader's field, stopping once budgetUs has elapsed.
    virtual void poll(uint8_t reader, uint32_t budgetUs, PollResult& out) = 0;

   protected:
    ~ReaderPort() = default;
};

}  // namespace tenace
