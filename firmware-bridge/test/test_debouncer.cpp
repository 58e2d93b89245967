#include <vector>

#include "debouncer.h"
#include "harness.h"
#include "support.h"

using namespace tenace;
using support::uid;

namespace {

struct Poller {
    Debouncer d;
    uint8_t misses = 3;
    int arrivals = 0;
    int leaves = 0;
    bool overfull = false;
    std::vector<Debouncer::Change> log;

    void poll(const std::vector<Uid>& seen, bool complete = true) {
        Debouncer::Result r;
        d.observe(seen.data(), static_cast<uint8_t>(seen.size()), complete, misses, r);
        overfull = r.overfull;
        for (uint8_t i = 0; i < r.count; ++i) {
            (r.changes[i].arrive ? arrivals : leaves) += 1;
            log.push_back(r.changes[i]);
        }
    }
};

const Uid A = uid("04A1B2C3D4E5F6");
const Uid B = uid("04B1B2C3D4E5F6");
const Uid C = uid("DEADBEEF");

}  // namespace

TEST(debouncer_arrives_on_first_sighting_once) {
    Poller p;
    p.poll({A});
    CHECK_EQ(p.arrivals, 1);
    CHECK(p.d.contains(A));
    for (int i = 0; i < 50; ++i) p.poll({A});
    CHECK_EQ(p.arrivals, 1);
    CHECK_EQ(p.leaves, 0);
}

TEST(debouncer_n_misses_produce_exactly_one_leave) {
    for (uint8_t n = 1; n <= 5; ++n) {
        Poller p;
        p.misses = n;
        p.poll({A});
        for (uint8_t i = 1; i < n; ++i) {
            p.poll({});
            CHECK_EQ(p.leaves, 0);
        }
        p.poll({});
        CHECK_EQ(p.leaves, 1);
        CHECK(!p.d.contains(A));
        for (int i = 0; i < 10; ++i) p.poll({});
        CHECK_EQ(p.leaves, 1);
    }
}

TEST(debouncer_flicker_shorter_than_n_never_leaves) {
    // Every pattern of up to N-1 consecutive misses, for a long time: no leave, no second arrive.
    Poller p;
    p.poll({A});
    const int pattern[] = {1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1};
    for (int round = 0; round < 100; ++round) {
        for (int seen : pattern) p.poll(seen ? std::vector<Uid>{A} : std::vector<Uid>{});
    }
    CHECK_EQ(p.arrivals, 1);
    CHECK_EQ(p.leaves, 0);
}

TEST(debouncer_two_tags_on_one_antenna_seen_alternately) {
    // Anticollision often returns only one of two tags per poll. Neither may flap.
    Poller p;
    for (int i = 0; i < 200; ++i) p.poll(i % 2 ? std::vector<Uid>{A} : std::vector<Uid>{B});
    CHECK_EQ(p.arrivals, 2);
    CHECK_EQ(p.leaves, 0);
    // Lift B: A stays, B leaves once.
    for (int i = 0; i < 5; ++i) p.poll({A});
    CHECK_EQ(p.leaves, 1);
    CHECK(p.d.contains(A));
    CHECK(!p.d.contains(B));
}

TEST(debouncer_partial_and_failed_polls_do_not_count_misses) {
    Poller p;
    p.poll({A});
    for (int i = 0; i < 20; ++i) p.poll({}, /*complete=*/false);
    CHECK_EQ(p.leaves, 0);
    p.poll({B}, false);  // a partial poll still proves what it saw
    CHECK_EQ(p.arrivals, 2);
    p.poll({B});
    p.poll({B});
    p.poll({B});
    CHECK_EQ(p.leaves, 1);
    CHECK(!p.d.contains(A));
}

TEST(debouncer_reports_leaves_before_arrivals) {
    // A card replaced by another between polls: the leave must come first.
    Poller p;
    p.misses = 1;
    p.poll({A});
    p.poll({B});
    REQUIRE(p.log.size() == 3u);
    CHECK(!p.log[1].arrive);
    CHECK_EQ(p.log[1].uid, A);
    CHECK(p.log[2].arrive);
    CHECK_EQ(p.log[2].uid, B);
}

TEST(debouncer_ignores_duplicates_and_implausible_uids) {
    Poller p;
    p.poll({A, A, uid("88010203"), uid("00000000"), A});
    CHECK_EQ(p.arrivals, 1);
    CHECK_EQ(p.d.size(), 1);
}

TEST(debouncer_is_bounded_and_says_so) {
    Poller p;
    std::vector<Uid> many;
    for (int i = 0; i < 10; ++i) {
        Uid u = A;
        u.bytes[6] = static_cast<uint8_t>(i + 1);
        many.push_back(u);
    }
    p.poll(many);
    CHECK_EQ(p.arrivals, static_cast<int>(kMaxTagsPerReader));
    CHECK(p.overfull);
    CHECK_EQ(p.d.size(), kMaxTagsPerReader);
    // Make room: the extras arrive once there is space.
    std::vector<Uid> fewer(many.begin() + 2, many.end());
    for (int i = 0; i < 3; ++i) p.poll(fewer);
    CHECK_EQ(p.leaves, 2);
    CHECK_EQ(p.arrivals, static_cast<int>(kMaxTagsPerReader) + 2);
    CHECK(!p.overfull);
}

TEST(debouncer_keeps_arrival_order) {
    Poller p;
    p.misses = 1;
    p.poll({A});
    p.poll({A, B});
    p.poll({A, B, C});
    p.poll({B, C});
    REQUIRE(p.d.size() == 2);
    CHECK_EQ(p.d.tag(0), B);
    CHECK_EQ(p.d.tag(1), C);
}

TEST(debouncer_lowering_the_miss_limit_applies_at_once) {
    Poller p;
    p.misses = 5;
    p.poll({A});
    p.poll({});
    p.poll({});
    CHECK_EQ(p.leaves, 0);
    p.misses = 2;
    p.poll({});
    CHECK_EQ(p.leaves, 1);
}

TEST(debouncer_random_flicker_soak) {
    // 10 tags coming and going, each sighting dropped with 30% probability but never more than
    // N-1 times in a row: events must match the true placements exactly.
    uint32_t state = 1;
    auto rnd = [&] { return state = state * 1103515245u + 12345u, (state >> 16) & 0x7FFF; };
    Poller p;
    bool present[8] = {};
    int run[8] = {};
    int placed = 0, lifted = 0;
    for (int step = 0; step < 20000; ++step) {
        if (step % 40 == 0) {
            const int k = static_cast<int>(rnd() % 8);
            if (present[k]) {
                present[k] = false;
                ++lifted;
            } else {
                present[k] = true;
                ++placed;
            }
        }
        std::vector<Uid> seen;
        for (int k = 0; k < 8; ++k) {
            if (!present[k]) continue;
            Uid u = A;
            u.bytes[6] = static_cast<uint8_t>(k + 1);
            const bool miss = (rnd() % 10) < 3 && run[k] < p.misses - 1;
            run[k] = miss ? run[k] + 1 : 0;
            if (!miss) seen.push_back(u);
        }
        p.poll(seen);
    }
    for (int i = 0; i < 10; ++i) p.poll({});  // everything gone at the end
    int stillPresent = 0;
    for (bool b : present) stillPresent += b;
    CHECK_EQ(p.arrivals, placed);
    CHECK_EQ(p.leaves, lifted + stillPresent);
}
