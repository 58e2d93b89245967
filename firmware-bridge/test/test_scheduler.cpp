#include <vector>

#include "harness.h"
#include "scheduler.h"

using namespace tenace;
using A = Scheduler::Action;
using T = Scheduler::Transition;

namespace {

// Runs next() at `now` and reports success for whatever it asked for.
Scheduler::Slot step(Scheduler& s, uint32_t now, bool ok = true) {
    const Scheduler::Slot slot = s.next(now);
    if (slot.action != A::Idle) s.report(slot.reader, ok, now);
    return slot;
}

void bringUp(Scheduler& s, uint8_t readers, uint32_t now) {
    for (uint8_t r = 0; r < readers; ++r) {
        const Scheduler::Slot slot = s.next(now);
        REQUIRE(slot.action == A::Probe);
        REQUIRE(slot.reader == r);
        REQUIRE(s.report(r, true, now) == T::CameUp);
    }
}

}  // namespace

TEST(scheduler_probes_every_reader_first) {
    Scheduler s;
    s.begin(4, 50, 1000);
    bringUp(s, 4, 1000);
    CHECK(s.next(1000).action == A::Idle);
}

TEST(scheduler_polls_round_robin_once_per_cycle) {
    Scheduler s;
    s.begin(4, 50, 0);
    bringUp(s, 4, 0);
    std::vector<int> order;
    for (uint32_t now = 0; now < 200; ++now) {
        for (;;) {
            const Scheduler::Slot slot = step(s, now);
            if (slot.action == A::Idle) break;
            CHECK(slot.action == A::Poll);
            order.push_back(slot.reader);
        }
    }
    // cycles start at 50, 100, 150 (the bring-up cycle began at 0)
    REQUIRE(order.size() == 12u);
    for (size_t i = 0; i < order.size(); ++i) CHECK_EQ(order[i], static_cast<int>(i % 4));
    CHECK_EQ(s.overruns(), 0u);
}

TEST(scheduler_overrun_starts_the_next_cycle_at_once_without_catching_up) {
    Scheduler s;
    s.begin(2, 50, 0);
    bringUp(s, 2, 0);
    CHECK(s.next(0).action == A::Idle);  // closes the bring-up cycle
    // Cycle starting at 50 takes 130 ms (slow readers).
    CHECK(step(s, 50).action == A::Poll);
    CHECK(step(s, 120).action == A::Poll);
    CHECK(s.next(180).action == A::Poll);  // closes the late cycle and starts the next one at once
    s.report(0, true, 180);
    CHECK_EQ(s.overruns(), 1u);
    CHECK(step(s, 181).action == A::Poll);
    CHECK(s.next(182).action == A::Idle);  // and then waits the full interval again
    CHECK(s.next(229).action == A::Idle);
    CHECK(s.next(230).action == A::Poll);
}

TEST(scheduler_faults_after_three_failures_and_skips_the_reader) {
    Scheduler s;
    s.begin(2, 10, 0);
    bringUp(s, 2, 0);
    uint32_t now = 0;
    int downs = 0;
    std::vector<int> polled;
    for (; now < 100; ++now) {
        for (;;) {
            const Scheduler::Slot slot = s.next(now);
            if (slot.action == A::Idle) break;
            polled.push_back(slot.reader);
            if (s.report(slot.reader, slot.reader != 1, now) == T::WentDown) ++downs;
        }
    }
    CHECK_EQ(downs, 1);
    CHECK(s.health(1) == Scheduler::Health::Faulted);
    int polls1 = 0;
    for (int r : polled) polls1 += r == 1;
    CHECK_EQ(polls1, 3);  // then skipped until its back-off expires (250 ms)
}

TEST(scheduler_backoff_doubles_and_is_capped) {
    Scheduler s;
    s.begin(1, 10, 0);
    CHECK(s.next(0).action == A::Probe);
    CHECK(s.report(0, false, 0) == T::WentDown);  // no chip at start-up
    std::vector<uint32_t> probeTimes;
    for (uint32_t now = 1; now < 40000; ++now) {
        const Scheduler::Slot slot = s.next(now);
        if (slot.action == A::Idle) continue;
        CHECK(slot.action == A::Probe);
        probeTimes.push_back(now);
        CHECK(s.report(0, false, now) == T::None);  // repeated failures are not new transitions
    }
    REQUIRE(probeTimes.size() >= 8u);
    std::vector<uint32_t> gaps;
    uint32_t prev = 0;
    for (uint32_t t : probeTimes) {
        gaps.push_back(t - prev);
        prev = t;
    }
    // 250, 500, 1000, 2000, 4000, 8000, 8000 ... (to the next cycle boundary, 10 ms)
    const uint32_t expect[] = {250, 500, 1000, 2000, 4000, 8000, 8000};
    for (size_t i = 0; i < 7; ++i) {
        CHECK(gaps[i] >= expect[i]);
        CHECK(gaps[i] < expect[i] + 10);
    }
}

TEST(scheduler_recovered_reader_rejoins) {
    Scheduler s;
    s.begin(1, 10, 0);
    s.next(0);
    s.report(0, false, 0);
    Scheduler::Slot slot;
    uint32_t now = 1;
    for (; now < 1000; ++now) {
        slot = s.next(now);
        if (slot.action != A::Idle) break;
    }
    CHECK(slot.action == A::Probe);
    CHECK(s.report(0, true, now) == T::CameUp);
    CHECK(s.health(0) == Scheduler::Health::Healthy);
    bool polled = false;
    for (uint32_t t = now; t < now + 30 && !polled; ++t) polled = step(s, t).action == A::Poll;
    CHECK(polled);
}

TEST(scheduler_budget_is_a_fair_share_within_limits) {
    Scheduler s;
    s.begin(4, 100, 0);
    CHECK_EQ(s.budgetUs(), 25000u);
    s.setCycleMs(50);
    CHECK_EQ(s.budgetUs(), Scheduler::kMinBudgetUs);
    s.setCycleMs(1000);
    CHECK_EQ(s.budgetUs(), Scheduler::kMaxBudgetUs);
    s.setCycleMs(100);
    // A faulted reader's share goes to the others.
    s.next(0);
    s.report(0, false, 0);
    CHECK_EQ(s.budgetUs(), 33333u);
}

TEST(scheduler_backoff_resets_only_after_a_stable_period) {
    Scheduler s;
    s.begin(1, 10, 0);
    uint32_t now = 0;
    // Run until `want` happens, failing polls if `failPolls`, passing probes if `probesOk`.
    auto runUntil = [&](T want, bool failPolls, bool probesOk, uint32_t limit) {
        for (uint32_t end = now + limit; now < end; ++now) {
            const Scheduler::Slot slot = s.next(now);
            if (slot.action == A::Idle) continue;
            const bool ok = slot.action == A::Probe ? probesOk : !failPolls;
            if (s.report(slot.reader, ok, now) == want) return true;
        }
        return false;
    };
    REQUIRE(runUntil(T::CameUp, false, true, 100));
    // Flapping: each time it comes back and fails again, the wait before the next probe grows.
    std::vector<uint32_t> waits;
    for (int i = 0; i < 4; ++i) {
        REQUIRE(runUntil(T::WentDown, true, true, 100000));
        const uint32_t down = now;
        REQUIRE(runUntil(T::CameUp, true, true, 100000));
        waits.push_back(now - down);
    }
    for (size_t i = 1; i < waits.size(); ++i) CHECK(waits[i] > waits[i - 1]);
    // Healthy for longer than kStableMs: the next fault starts again from the minimum.
    REQUIRE(!runUntil(T::WentDown, false, true, Scheduler::kStableMs + 100));
    REQUIRE(runUntil(T::WentDown, true, true, 1000));
    const uint32_t down = now;
    REQUIRE(runUntil(T::CameUp, true, true, 100000));
    CHECK(now - down <= Scheduler::kBackoffMinMs + 10);
}
