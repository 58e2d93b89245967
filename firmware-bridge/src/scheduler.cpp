#include "scheduler.h"

namespace tenace {

void Scheduler::begin(uint8_t readers, uint16_t cycleMs, uint32_t nowMs) {
    count_ = readers > kMaxReaders ? kMaxReaders : readers;
    cycleMs_ = cycleMs;
    for (ReaderSlot& r : readers_) r = ReaderSlot{};
    inCycle_ = false;
    cursor_ = 0;
    cycleStartMs_ = nowMs;
    nextCycleMs_ = nowMs;
    overruns_ = 0;
    cycles_ = 0;
}

uint32_t Scheduler::budgetUs() const {
    uint8_t active = 0;
    for (uint8_t i = 0; i < count_; ++i) {
        if (readers_[i].health != Health::Faulted) ++active;
    }
    if (active == 0) active = 1;
    uint32_t share = static_cast<uint32_t>(cycleMs_) * 1000u / active;
    if (share < kMinBudgetUs) share = kMinBudgetUs;
    if (share > kMaxBudgetUs) share = kMaxBudgetUs;
    return share;
}

Scheduler::Slot Scheduler::next(uint32_t nowMs) {
    Slot slot;
    // Two passes: finishing a late cycle may make the next one due at once.
    for (int pass = 0; pass < 2; ++pass) {
        if (!inCycle_) {
            if (!reached(nowMs, nextCycleMs_)) return slot;
            inCycle_ = true;
            cursor_ = 0;
            cycleStartMs_ = nowMs;
        }
        while (cursor_ < count_) {
            const uint8_t r = cursor_++;
            const ReaderSlot& rs = readers_[r];
            switch (rs.health) {
                case Health::Healthy:
                    slot.action = Action::Poll;
                    slot.reader = r;
                    return slot;
                case Health::Unprobed:
                    slot.action = Action::Probe;
                    slot.reader = r;
                    return slot;
                case Health::Faulted:
                    if (reached(nowMs, rs.retryAtMs)) {
                        slot.action = Action::Probe;
                        slot.reader = r;
                        return slot;
                    }
                    break;  // skipped this cycle
            }
        }
        // Cycle complete.
        inCycle_ = false;
        ++cycles_;
        nextCycleMs_ = cycleStartMs_ + cycleMs_;
        if (reached(nowMs, nextCycleMs_) && nowMs != nextCycleMs_) {
            // Took longer than the interval: start again now, and do not try to catch up.
            ++overruns_;
            nextCycleMs_ = nowMs;
        }
    }
    return slot;
}

Scheduler::Transition Scheduler::report(uint8_t reader, bool ok, uint32_t nowMs) {
    if (reader >= count_) return Transition::None;
    ReaderSlot& rs = readers_[reader];
    auto grow = [](uint32_t backoff) {
        if (backoff < kBackoffMinMs) return kBackoffMinMs;
        return backoff * 2 > kBackoffMaxMs ? kBackoffMaxMs : backoff * 2;
    };
    switch (rs.health) {
        case Health::Healthy:
            if (ok) {
                rs.failures = 0;
                return Transition::None;
            }
            if (++rs.failures < kFailuresToFault) return Transition::None;
            rs.health = Health::Faulted;
            // A reader that was up only briefly resumes its back-off where it left off.
            rs.backoffMs = reached(nowMs, rs.upSinceMs + kStableMs) ? kBackoffMinMs : grow(rs.backoffMs);
            rs.retryAtMs = nowMs + rs.backoffMs;
            return Transition::WentDown;
        case Health::Unprobed:
            rs.failures = 0;
            if (ok) {
                rs.health = Health::Healthy;
                rs.upSinceMs = nowMs;
                return Transition::CameUp;
            }
            rs.health = Health::Faulted;
            rs.backoffMs = kBackoffMinMs;
            rs.retryAtMs = nowMs + rs.backoffMs;
            return Transition::WentDown;
        case Health::Faulted:
            // This was a probe.
            if (ok) {
                rs.health = Health::Healthy;
                rs.failures = 0;
                rs.upSinceMs = nowMs;
                return Transition::CameUp;
            }
            rs.backoffMs = grow(rs.backoffMs);
            rs.retryAtMs = nowMs + rs.backoffMs;
            return Transition::None;
    }
    return Transition::None;
}

}  // namespace tenace
