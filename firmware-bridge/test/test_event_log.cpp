// The event log ring, the modular seq order and where a `since` replay starts.
#include "event_log.h"
#include "harness.h"
#include "seq.h"
#include "support.h"

using namespace tenace;

namespace {
const Uid A = support::uid("04A1B2C3D4E5F6");
}  // namespace

TEST(event_log_keeps_the_last_256_in_order_and_remembers_the_newest_evicted) {
    EventLog log;
    CHECK_EQ(log.size(), 0u);
    CHECK(log.holdsAllAfter(0));
    for (uint32_t line = 1; line <= kEventLogSize; ++line) {
        log.append(line, static_cast<uint16_t>(line), line % 2 ? MsgType::Arrive : MsgType::Leave, 3, A);
    }
    CHECK_EQ(log.size(), kEventLogSize);
    CHECK(!log.evicted());
    CHECK(log.holdsAllAfter(0));  // full but nothing lost yet
    for (uint32_t line = kEventLogSize + 1; line <= 300; ++line) log.append(line, static_cast<uint16_t>(line), MsgType::Arrive, 3, A);
    CHECK_EQ(log.size(), kEventLogSize);
    CHECK(log.evicted());
    CHECK_EQ(log.newestEvictedLine(), 44u);
    CHECK_EQ(log.at(0).line, 45u);
    CHECK_EQ(log.at(kEventLogSize - 1).line, 300u);
    for (size_t i = 1; i < log.size(); ++i) CHECK_EQ(log.at(i).line, log.at(i - 1).line + 1);
    CHECK(!log.holdsAllAfter(0));
    CHECK(!log.holdsAllAfter(43));
    CHECK(log.holdsAllAfter(44));
    CHECK_EQ(log.at(0).uid, A);
    CHECK_EQ(log.at(0).reader, 3);
    log.clear();
    CHECK_EQ(log.size(), 0u);
    CHECK(log.holdsAllAfter(0));
}

TEST(seq_after_orders_device_seqs_across_the_65535_to_1_wrap) {
    CHECK(seqAfter(8, 7));
    CHECK(!seqAfter(7, 8));
    CHECK(!seqAfter(7, 7));
    CHECK(seqAfter(1, 65535));
    CHECK(!seqAfter(65535, 1));
    CHECK(seqAfter(5, 0));
    CHECK(seqAfter(32766, 0));
    CHECK(!seqAfter(32767, 0));  // half the ring away: stale, as SeqTracker's duplicate rule
}

TEST(seq_counter_counts_lines_without_wrapping) {
    SeqCounter c;
    CHECK_EQ(c.take(), 0);
    CHECK_EQ(c.count(), 0u);
    for (uint32_t i = 0; i < 65536; ++i) c.take();
    CHECK_EQ(c.last(), 1);  // 65535 then 1
    CHECK_EQ(c.count(), 65536u);
    c.reset();
    CHECK_EQ(c.take(), 0);
    CHECK_EQ(c.count(), 0u);
}

TEST(replay_start_maps_after_to_a_line_of_this_boot_or_refuses) {
    uint32_t from = 99;
    CHECK(replayStart(0, 500, 500, from));
    CHECK_EQ(from, 0u);  // since the hello
    CHECK(replayStart(450, 500, 500, from));
    CHECK_EQ(from, 450u);
    CHECK(replayStart(500, 500, 500, from));
    CHECK_EQ(from, 500u);  // nothing after the last line: an empty replay
    CHECK(!replayStart(501, 500, 500, from));  // ahead of the last seq used
    CHECK(!replayStart(40000, 100, 100, from));  // behind, but before this boot's first line
    CHECK(!replayStart(5, 0, 0, from));  // only the hello so far
    // Across the wrap: line 65537 has seq 2; seq 65535 is line 65535.
    CHECK(replayStart(65535, 2, 65537, from));
    CHECK_EQ(from, 65535u);
    CHECK(replayStart(1, 2, 65537, from));
    CHECK_EQ(from, 65536u);
    CHECK(!replayStart(3, 2, 65537, from));
    // After a second wrap the same seq names the latest line that had it.
    CHECK(replayStart(10, 20, 2u * 65535u + 20u, from));
    CHECK_EQ(from, 2u * 65535u + 10u);
}
