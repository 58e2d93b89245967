// Which reader to talk to next, and when.
//
// Readers share one SPI bus and one CPU, so they are polled one at a time, round robin, one reader
// per call to next(): the main loop services USB between readers, so a slow antenna never delays
// a host command by more than one reader's budget. A cycle polls every healthy reader once and
// starts every `cycleMs`; if the readers take longer than that, the next cycle starts at once
// (counted as an overrun) rather than trying to catch up.
//
// Each poll gets a time budget, the cycle's fair share: cycleMs / readers, clamped to
// [kMinBudgetUs, kMaxBudgetUs]. The reader port stops its inventory when the budget runs out. The
// floor is what an MFRC522 needs for two NTAG213 on one antenna (about 15 ms: a dealer's turned
// trump card can share the spot with his first card), so ordinary play never yields a partial poll;
// crowded antennas lengthen the cycle instead (an overrun), which only delays the next cycle.
//
// Health: a reader that fails kFailuresToFault polls in a row is faulted, leaves the rotation, and
// is re-probed (reset and re-initialised) after a back-off that doubles from kBackoffMinMs up to
// kBackoffMaxMs, so a dead or unplugged reader costs almost nothing and a reseated one comes back
// on its own. A reader that comes back but soon fails again (answers probes, fails polls) keeps
// its back-off; only kStableMs of good health resets it, so a flapping reader cannot flood the
// host with error lines.
#pragma once

#include <cstdint>

#include "protocol.h"

namespace tenace {

class Scheduler {
   public:
    enum class Action : uint8_t { Idle, Probe, Poll };
    enum class Health : uint8_t { Unprobed, Healthy, Faulted };
    enum class Transition : uint8_t { None, WentDown, CameUp };

    struct Slot {
        Action action = Action::Idle;
        uint8_t reader = 0;
    };

    static constexpr uint8_t kFailuresToFault = 3;
    static constexpr uint32_t kBackoffMinMs = 250;
    static constexpr uint32_t kBackoffMaxMs = 8000;
    static constexpr uint32_t kStableMs = 30000;
    static constexpr uint32_t kMinBudgetUs = 20000;
    static constexpr uint32_t kMaxBudgetUs = 40000;

    // All readers start Unprobed; the first cycle probes them.
    void begin(uint8_t readers, uint16_t cycleMs, uint32_t nowMs);
    void setCycleMs(uint16_t cycleMs) { cycleMs_ = cycleMs; }

    // The next thing to do at nowMs. Each Probe/Poll slot must be followed by report().
    Slot next(uint32_t nowMs);

    // Outcome of the slot just run. Returns the health transition it caused, if any.
    Transition report(uint8_t reader, bool ok, uint32_t nowMs);

    Health health(uint8_t reader) const { return readers_[reader].health; }
    uint32_t budgetUs() const;
    uint32_t overruns() const { return overruns_; }
    uint32_t cycles() const { return cycles_; }

   private:
    struct ReaderSlot {
        Health health = Health::Unprobed;
        uint8_t failures = 0;
        uint32_t backoffMs = 0;
        uint32_t retryAtMs = 0;
        uint32_t upSinceMs = 0;
    };

    static bool reached(uint32_t nowMs, uint32_t atMs) { return static_cast<int32_t>(nowMs - atMs) >= 0; }

    ReaderSlot readers_[kMaxReaders];
    uint8_t count_ = 0;
    uint16_t cycleMs_ = kPollMsDefault;
    bool inCycle_ = false;
    uint8_t cursor_ = 0;
    uint32_t cycleStartMs_ = 0;
    uint32_t nextCycleMs_ = 0;
    uint32_t overruns_ = 0;
    uint32_t cycles_ = 0;
};

}  // namespace tenace
