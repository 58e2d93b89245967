// The Bridge end to end, against a fake ReaderPort and a capturing sink, in simulated time.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bridge.h"
#include "harness.h"
#include "line_assembler.h"
#include "seq.h"
#include "support.h"

using namespace tenace;
using support::FakeReaders;
using support::framed;
using support::ofType;
using support::uid;

namespace {

const Uid A = uid("04A1B2C3D4E5F6");
const Uid B = uid("04B1B2C3D4E5F6");
const Uid C = uid("04C1B2C3D4E5F6");
const Uid D = uid("DEADBEEF");

struct Bench {
    FakeReaders readers;
    support::CaptureSink sink;
    Bridge bridge;
    uint32_t now = 0;
    uint16_t nextHseq = 100;
    SeqTracker tracker;
    uint32_t lost = 0;
    uint32_t duplicates = 0;
    std::vector<Frame> all;

    explicit Bench(uint8_t n = 4, bool start = true) : readers(n), bridge(readers, sink, "1.0.0") {
        if (start) begin(now, ResetCause::Power);
    }

    // A reset: each gets the next boot id (4661, 4662, ...), as the glue's random draw would differ.
    uint16_t lastBoot = 4660;
    void begin(uint32_t at, ResetCause cause) { bridge.begin(at, cause, ++lastBoot); }

    void run(uint32_t ms) {
        for (uint32_t i = 0; i < ms; ++i) bridge.tick(++now);
    }

    // Runs until every reader reports O (settled), at most `limit` ms.
    void settle(uint32_t limit = 2000) {
        for (uint32_t i = 0; i < limit; ++i) {
            bool ok = true;
            for (uint8_t r = 0; r < bridge.readerCount(); ++r) ok = ok && bridge.readerState(r) == ReaderState::Ok;
            if (ok) return;
            bridge.tick(++now);
        }
        th::fail(__FILE__, __LINE__, "readers did not settle");
    }

    uint16_t command(const std::string& cmd) {
        const uint16_t h = nextHseq++;
        const std::string line = framed(std::to_string(h) + " " + cmd);
        bridge.onHostLine(line.data(), line.size(), now);
        return h;
    }

    void raw(const std::string& line) { bridge.onHostLine(line.data(), line.size(), now); }

    // New frames since the last take(), checked for sequence continuity as a host would.
    std::vector<Frame> take() {
        std::vector<Frame> frames = sink.take();
        for (const Frame& f : frames) {
            uint16_t missing = 0;
            switch (tracker.accept(f.seq, f.type == MsgType::Hello, missing)) {
                case SeqTracker::Verdict::Gap: lost += missing; break;
                case SeqTracker::Verdict::Duplicate: ++duplicates; break;
                default: break;
            }
        }
        all.insert(all.end(), frames.begin(), frames.end());
        return frames;
    }
};

int count(const std::vector<Frame>& fs, MsgType t) { return static_cast<int>(ofType(fs, t).size()); }

std::string status(const Frame& f) { return std::string(f.status, f.statusLen); }

}  // namespace

TEST(bridge_says_hello_then_cfg_after_reset) {
    Bench b;
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 2u);
    CHECK_EQ(f[0].type, MsgType::Hello);
    CHECK_EQ(f[0].seq, 0);
    CHECK_EQ(std::string(f[0].fw), std::string("1.0.0"));
    CHECK_EQ(f[0].proto, 2);
    CHECK_EQ(f[0].boot, b.lastBoot);
    CHECK_EQ(f[0].readers, 4);
    CHECK_EQ(f[0].reset, ResetCause::Power);
    CHECK_EQ(f[1].type, MsgType::Cfg);
    CHECK_EQ(f[1].seq, 1);
    CHECK_EQ(f[1].pollMs, kPollMsDefault);
    CHECK_EQ(f[1].misses, kMissesDefault);
}

TEST(bridge_heartbeats_every_second_with_uptime_and_reader_state) {
    Bench b;
    b.readers.place(2, A);
    b.take();
    b.run(5000);
    const std::vector<Frame> hb = ofType(b.take(), MsgType::Hb);
    REQUIRE(hb.size() == 5u);
    for (size_t i = 0; i < hb.size(); ++i) {
        CHECK_EQ(hb[i].uptimeS, static_cast<uint32_t>(i + 1));
        CHECK_EQ(status(hb[i]), std::string("OOOO"));
        CHECK_EQ(hb[i].tags[2], 1);
        CHECK_EQ(hb[i].tags[0], 0);
    }
    CHECK_EQ(b.lost, 0u);
}

TEST(bridge_first_heartbeat_shows_warming_readers_at_fast_boot) {
    Bench b;
    b.command("set 1000 3");  // slow polling: not settled within the first second
    b.take();
    b.run(1000);
    const std::vector<Frame> hb = ofType(b.take(), MsgType::Hb);
    REQUIRE(hb.size() == 1u);
    CHECK_EQ(status(hb[0]), std::string("WWWW"));
}

TEST(bridge_reports_a_card_placed_and_lifted_exactly_once) {
    Bench b;
    b.settle();
    b.take();
    b.readers.place(1, A);
    const uint32_t placedAt = b.now;
    uint32_t arrivedAt = 0;
    for (int i = 0; i < 200 && arrivedAt == 0; ++i) {
        b.run(1);
        if (count(b.take(), MsgType::Arrive) == 1) arrivedAt = b.now;
    }
    REQUIRE(arrivedAt != 0);
    CHECK(arrivedAt - placedAt <= kPollMsDefault + 4);  // within one cycle

    b.run(3000);
    CHECK_EQ(count(b.take(), MsgType::Arrive), 0);

    b.readers.lift(1, A);
    const uint32_t liftedAt = b.now;
    uint32_t leftAt = 0;
    for (int i = 0; i < 1000 && leftAt == 0; ++i) {
        b.run(1);
        const std::vector<Frame> f = b.take();
        const std::vector<Frame> leaves = ofType(f, MsgType::Leave);
        if (!leaves.empty()) {
            CHECK_EQ(leaves.size(), 1u);
            CHECK_EQ(leaves[0].reader, 1);
            CHECK_EQ(leaves[0].uid, A);
            leftAt = b.now;
        }
    }
    REQUIRE(leftAt != 0);
    // Gone after `misses` complete polls without it: between (N-1) and N+1 cycles.
    CHECK(leftAt - liftedAt >= (kMissesDefault - 1) * kPollMsDefault);
    CHECK(leftAt - liftedAt <= (kMissesDefault + 1) * kPollMsDefault);
    b.run(3000);
    CHECK_EQ(count(b.take(), MsgType::Leave), 0);
    CHECK_EQ(b.lost, 0u);
}

TEST(bridge_flicker_produces_no_leave_arrive_pairs) {
    Bench b;
    b.readers.place(0, A);
    b.readers.place(3, B);
    // A is seen only every third poll (two misses in a row, one short of the limit). B drops out
    // in pseudo-random runs of at most two polls.
    uint32_t lcg = 42;
    std::map<uint32_t, bool> bSeen;
    b.readers.drop = [&](uint8_t reader, uint32_t pollNo, const Uid&) {
        if (reader == 0) return pollNo % 3 != 0;
        auto it = bSeen.find(pollNo);
        if (it != bSeen.end()) return !it->second;
        lcg = lcg * 1103515245u + 12345u;
        bool seen = ((lcg >> 16) % 10) >= 4;
        if (!seen && pollNo >= 2 && !bSeen[pollNo - 1] && !bSeen[pollNo - 2]) seen = true;
        bSeen[pollNo] = seen;
        return !seen;
    };
    b.run(20000);
    const std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Arrive), 2);
    CHECK_EQ(count(f, MsgType::Leave), 0);
    CHECK(b.readers.polls[0] > 300u);
}

TEST(bridge_tracks_several_cards_on_one_antenna) {
    Bench b;
    b.settle();
    b.take();
    b.readers.place(2, A);
    b.readers.place(2, B);
    b.readers.place(2, D);
    b.run(200);
    std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Arrive), 3);
    b.readers.lift(2, B);
    b.run(400);
    f = b.take();
    const std::vector<Frame> leaves = ofType(f, MsgType::Leave);
    REQUIRE(leaves.size() == 1u);
    CHECK_EQ(leaves[0].uid, B);
    CHECK_EQ(b.bridge.presence(2).size(), 2);
}

TEST(bridge_reader_fault_invents_nothing_and_recovers) {
    Bench b;
    b.readers.place(2, A);
    b.readers.place(2, B);
    b.settle();
    b.take();

    // The chip stops answering: polls and re-probes fail alike.
    b.readers.pollFault[2] = ReaderFault::Timeout;
    b.readers.probeFault[2] = ReaderFault::Timeout;
    b.run(3000);
    std::vector<Frame> f = b.take();
    const std::vector<Frame> errs = ofType(f, MsgType::Err);
    REQUIRE(errs.size() == 1u);  // once, not once per retry
    CHECK_EQ(errs[0].errKind, ErrKind::Reader);
    CHECK_EQ(errs[0].reader, 2);
    CHECK_EQ(errs[0].fault, ReaderFault::Timeout);
    CHECK_EQ(count(f, MsgType::Leave), 0);  // a blind reader says nothing about the cards
    const std::vector<Frame> hb = ofType(f, MsgType::Hb);
    REQUIRE(!hb.empty());
    CHECK_EQ(status(hb.back()), std::string("OOFO"));
    CHECK_EQ(hb.back().tags[2], 2);  // last known
    CHECK(b.readers.probes[2] >= 2u);  // retried with back-off

    // While it was blind, B was lifted. Once it answers again, B leaves, A does not.
    b.readers.lift(2, B);
    b.readers.pollFault[2] = ReaderFault::None;
    b.readers.probeFault[2] = ReaderFault::None;
    b.run(10000);
    f = b.take();
    const std::vector<Frame> leaves = ofType(f, MsgType::Leave);
    REQUIRE(leaves.size() == 1u);
    CHECK_EQ(leaves[0].uid, B);
    CHECK_EQ(count(f, MsgType::Arrive), 0);
    CHECK(b.bridge.readerState(2) == ReaderState::Ok);
    CHECK_EQ(b.lost, 0u);
}

TEST(bridge_flapping_reader_backs_off_instead_of_spamming) {
    // The chip answers a probe but every poll fails (a broken antenna): it goes down, comes back,
    // goes down... The back-off keeps growing until it has stayed up for a while, so the error
    // lines stay rare.
    Bench b;
    b.settle();
    b.take();
    b.readers.pollFault[1] = ReaderFault::Comm;
    b.run(60000);
    const std::vector<Frame> errs = ofType(b.take(), MsgType::Err);
    CHECK(errs.size() >= 3u);
    CHECK(errs.size() <= 12u);
    for (const Frame& e : errs) CHECK_EQ(e.fault, ReaderFault::Comm);
}

TEST(bridge_missing_reader_is_reported_once_and_joins_when_fitted) {
    Bench b(4, false);
    b.readers.probeFault[3] = ReaderFault::NoChip;
    b.begin(0, ResetCause::Power);
    b.run(20000);
    std::vector<Frame> f = b.take();
    const std::vector<Frame> errs = ofType(f, MsgType::Err);
    REQUIRE(errs.size() == 1u);
    CHECK_EQ(errs[0].reader, 3);
    CHECK_EQ(errs[0].fault, ReaderFault::NoChip);
    CHECK_EQ(status(ofType(f, MsgType::Hb).back()), std::string("OOOF"));
    CHECK(b.readers.probes[3] < 12u);  // back-off, not hammering
    CHECK_EQ(b.readers.polls[3], 0u);

    b.readers.probeFault[3] = ReaderFault::None;
    b.readers.place(3, C);
    b.run(10000);
    f = b.take();
    CHECK_EQ(count(f, MsgType::Arrive), 1);
    CHECK_EQ(status(ofType(f, MsgType::Hb).back()), std::string("OOOO"));
}

TEST(bridge_present_answers_with_a_framed_snapshot) {
    Bench b;
    b.readers.place(0, A);
    b.readers.place(0, B);
    b.readers.place(2, D);
    b.settle();
    b.take();
    const uint16_t h = b.command("present");
    b.run(1);
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() >= 6u);
    CHECK_EQ(f[0].type, MsgType::Ack);
    CHECK_EQ(f[0].hseq, h);
    CHECK_EQ(f[0].cmd, MsgType::Present);
    CHECK_EQ(f[1].type, MsgType::Snap);
    CHECK_EQ(f[1].hseq, h);
    CHECK_EQ(f[1].total, 3);
    CHECK_EQ(f[2].type, MsgType::Tag);
    CHECK_EQ(f[2].reader, 0);
    CHECK_EQ(f[2].uid, A);
    CHECK_EQ(f[3].uid, B);
    CHECK_EQ(f[4].reader, 2);
    CHECK_EQ(f[4].uid, D);
    CHECK_EQ(f[5].type, MsgType::SnapEnd);
    CHECK_EQ(f[5].hseq, h);
    CHECK_EQ(f[5].total, 3);
    CHECK_EQ(status(f[5]), std::string("OOOO"));
    for (size_t i = 1; i < 6; ++i) CHECK_EQ(f[i].seq, nextSeq(f[i - 1].seq));  // contiguous
}

TEST(bridge_empty_snapshot) {
    Bench b;
    b.settle();
    b.take();
    b.command("present");
    b.run(1);
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() >= 3u);
    CHECK_EQ(f[1].type, MsgType::Snap);
    CHECK_EQ(f[1].total, 0);
    CHECK_EQ(f[2].type, MsgType::SnapEnd);
}

TEST(bridge_snapshot_after_reset_waits_until_every_reader_has_settled) {
    // Cards lie on the table when the bridge boots, and flicker during the first polls. A snapshot
    // taken too early would miss them and make the host invent lifts.
    Bench b(4, false);
    b.readers.place(0, A);
    b.readers.place(1, B);
    b.readers.place(3, C);
    b.readers.drop = [](uint8_t, uint32_t pollNo, const Uid&) { return pollNo < 2; };
    b.begin(0, ResetCause::Watchdog);
    b.run(1);
    const uint16_t h = b.command("present");
    b.run(1);
    std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Ack), 1);  // acknowledged at once
    CHECK_EQ(count(f, MsgType::Snap), 0);  // answered later
    CHECK(b.bridge.snapshotPending());
    b.run(1000);
    f = b.take();
    const std::vector<Frame> snaps = ofType(f, MsgType::SnapEnd);
    REQUIRE(snaps.size() == 1u);
    CHECK_EQ(snaps[0].hseq, h);
    CHECK_EQ(snaps[0].total, 3);
    CHECK_EQ(status(snaps[0]), std::string("OOOO"));
    CHECK_EQ(count(f, MsgType::Tag), 3);
    CHECK_EQ(count(f, MsgType::Leave), 0);
}

TEST(bridge_snapshot_does_not_wait_for_a_faulted_reader) {
    Bench b(4, false);
    b.readers.probeFault[1] = ReaderFault::NoChip;
    b.begin(0, ResetCause::Power);
    b.command("present");
    b.run(400);
    const std::vector<Frame> ends = ofType(b.take(), MsgType::SnapEnd);
    REQUIRE(ends.size() == 1u);
    CHECK_EQ(status(ends[0]), std::string("OFOO"));
}

TEST(bridge_snapshot_gives_up_waiting_after_the_maximum) {
    // A reader that never completes an inventory (always out of budget) never settles; the answer
    // still comes, marked W, after kSnapshotMaxWaitMs.
    Bench b;
    b.readers.partial[2] = true;
    b.run(300);  // it will not settle; that is the point
    b.take();
    b.command("present");
    const uint32_t asked = b.now;
    uint32_t answered = 0;
    for (int i = 0; i < 5000 && answered == 0; ++i) {
        b.run(1);
        const std::vector<Frame> ends = ofType(b.take(), MsgType::SnapEnd);
        if (!ends.empty()) {
            answered = b.now;
            CHECK_EQ(status(ends[0]), std::string("OOWO"));
        }
    }
    REQUIRE(answered != 0);
    CHECK(answered - asked >= kSnapshotMaxWaitMs);
    CHECK(answered - asked <= kSnapshotMaxWaitMs + 2);
}

TEST(bridge_two_requests_before_the_answer_share_one_snapshot) {
    Bench b(4, false);
    b.begin(0, ResetCause::Power);
    b.command("present");
    const uint16_t h2 = b.command("present");
    b.run(1000);
    const std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Ack), 2);
    const std::vector<Frame> ends = ofType(f, MsgType::SnapEnd);
    REQUIRE(ends.size() == 1u);
    CHECK_EQ(ends[0].hseq, h2);
}

TEST(bridge_set_changes_poll_interval_and_debounce) {
    Bench b;
    b.settle();
    b.take();
    const uint16_t h = b.command("set 20 5");
    std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 2u);
    CHECK_EQ(f[0].type, MsgType::Ack);
    CHECK_EQ(f[0].hseq, h);
    CHECK_EQ(f[0].cmd, MsgType::Set);
    CHECK_EQ(f[1].type, MsgType::Cfg);
    CHECK_EQ(f[1].pollMs, 20);
    CHECK_EQ(f[1].misses, 5);

    const uint32_t before = b.readers.polls[0];
    b.run(1000);
    const uint32_t polls = b.readers.polls[0] - before;
    CHECK(polls >= 49u && polls <= 51u);

    b.readers.place(0, A);
    b.run(100);
    b.take();
    b.readers.lift(0, A);
    const uint32_t liftedAt = b.now;
    uint32_t leftAt = 0;
    for (int i = 0; i < 1000 && leftAt == 0; ++i) {
        b.run(1);
        if (count(b.take(), MsgType::Leave) == 1) leftAt = b.now;
    }
    REQUIRE(leftAt != 0);
    CHECK(leftAt - liftedAt >= 4u * 20u);
    CHECK(leftAt - liftedAt <= 6u * 20u);
}

TEST(bridge_ident_repeats_the_hello_for_a_late_host) {
    Bench b(3, false);
    b.begin(0, ResetCause::Watchdog);
    b.run(7500);
    b.take();
    const uint16_t h = b.command("ident");
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 2u);
    CHECK_EQ(f[0].type, MsgType::Ack);
    CHECK_EQ(f[0].hseq, h);
    CHECK_EQ(f[0].cmd, MsgType::Ident);
    CHECK_EQ(f[1].type, MsgType::Identity);
    CHECK_EQ(std::string(f[1].fw), std::string("1.0.0"));
    CHECK_EQ(f[1].proto, kProtocolVersion);
    CHECK_EQ(f[1].readers, 3);
    CHECK_EQ(f[1].reset, ResetCause::Watchdog);
    CHECK_EQ(f[1].uptimeS, 7u);
}

TEST(bridge_uptime_survives_the_millis_wrap) {
    Bench b(1, false);
    b.now = 0xFFFFFFFFu - 1500;
    b.begin(b.now, ResetCause::Power);
    b.run(4000);
    CHECK_EQ(b.bridge.uptimeS(), 4u);
    const std::vector<Frame> hb = ofType(b.take(), MsgType::Hb);
    CHECK_EQ(hb.size(), 4u);
}

TEST(bridge_answers_bad_host_lines_and_keeps_its_settings) {
    Bench b;
    b.take();
    b.raw("41 ping*00");
    b.raw(framed("042 ping"));
    b.raw("");
    b.raw("\r");
    uint16_t hBad = b.command("set 5 3");
    uint16_t hUnknown = b.command("reboot");
    uint16_t hDevice = b.command("arrive 0 DEADBEEF");
    b.bridge.onHostLineTooLong();
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 6u);
    CHECK_EQ(f[0].type, MsgType::Err);
    CHECK_EQ(f[0].errKind, ErrKind::Line);
    CHECK_EQ(f[0].code, ParseError::BadCrc);
    CHECK_EQ(f[1].code, ParseError::BadSeq);
    CHECK_EQ(f[2].type, MsgType::Nak);
    CHECK_EQ(f[2].hseq, hBad);
    CHECK_EQ(f[2].code, ParseError::BadField);
    CHECK_EQ(f[3].hseq, hUnknown);
    CHECK_EQ(f[3].code, ParseError::UnknownType);
    CHECK_EQ(f[4].hseq, hDevice);
    CHECK_EQ(f[4].code, ParseError::UnknownType);
    CHECK_EQ(f[5].type, MsgType::Err);
    CHECK_EQ(f[5].code, ParseError::TooLong);
    CHECK_EQ(b.bridge.pollMs(), kPollMsDefault);
    CHECK_EQ(b.bridge.stats().hostLinesRejected, 6u);
}

TEST(bridge_host_bytes_through_the_line_assembler) {
    // The path the glue takes: bytes -> LineAssembler -> Bridge.
    Bench b;
    b.take();
    LineAssembler asm_;
    const std::string stream = framed("7 ping") + "\r\n" + std::string(300, 'Z') + "\n" + framed("8 ping") + "\n";
    for (char c : stream) {
        switch (asm_.feed(c)) {
            case LineAssembler::Event::Line: b.bridge.onHostLine(asm_.line(), asm_.size(), b.now); break;
            case LineAssembler::Event::TooLong: b.bridge.onHostLineTooLong(); break;
            case LineAssembler::Event::None: break;
        }
    }
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 3u);
    CHECK_EQ(f[0].hseq, 7);
    CHECK_EQ(f[1].code, ParseError::TooLong);
    CHECK_EQ(f[2].hseq, 8);
}

TEST(bridge_reset_command_acks_then_goes_quiet_until_restarted) {
    Bench b;
    b.readers.place(0, A);
    b.settle();
    b.take();
    const uint16_t h = b.command("reset");
    std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 1u);
    CHECK_EQ(f[0].type, MsgType::Ack);
    CHECK_EQ(f[0].hseq, h);
    CHECK_EQ(f[0].cmd, MsgType::Reset);
    CHECK(b.bridge.rebootRequested());
    b.run(3000);
    b.command("ping");
    CHECK(b.take().empty());

    // What the glue does after rebooting.
    b.begin(b.now, ResetCause::Host);
    f = b.take();
    REQUIRE(f.size() == 2u);
    CHECK_EQ(f[0].type, MsgType::Hello);
    CHECK_EQ(f[0].seq, 0);
    CHECK_EQ(f[0].reset, ResetCause::Host);
    CHECK_EQ(b.bridge.presence(0).size(), 0);
    b.run(500);
    CHECK_EQ(count(b.take(), MsgType::Arrive), 1);  // the card is rediscovered
}

TEST(bridge_dropped_lines_show_as_a_gap_and_are_reported) {
    Bench b;
    b.settle();
    b.take();
    b.sink.limit(60);  // the host stops reading
    b.readers.place(0, A);
    b.readers.place(1, B);
    b.readers.place(2, C);
    b.readers.place(3, D);
    b.run(2500);
    CHECK(b.bridge.stats().linesDropped > 0u);
    const uint32_t dropped = b.bridge.stats().linesDropped;
    b.sink.unlimit();  // the host reads again
    b.run(10);
    const std::vector<Frame> f = b.take();
    const std::vector<Frame> over = ofType(f, MsgType::Err);
    REQUIRE(over.size() == 1u);
    CHECK_EQ(over[0].errKind, ErrKind::Overflow);
    CHECK_EQ(static_cast<uint32_t>(over[0].dropped), dropped);
    CHECK_EQ(b.lost, dropped);  // every dropped line is a visible gap
}

TEST(bridge_snapshot_goes_out_whole_or_waits_for_room) {
    Bench b;
    for (uint8_t r = 0; r < 4; ++r) b.readers.place(r, r % 2 ? A : B);
    b.settle();
    b.take();
    b.sink.limit(60);
    b.command("present");  // the ack fits, the snapshot does not
    b.run(5);
    std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Ack), 1);
    CHECK_EQ(count(f, MsgType::Snap), 0);
    CHECK(b.bridge.snapshotPending());
    b.sink.unlimit();
    b.run(1);
    f = b.take();
    size_t at = 0;
    while (at < f.size() && f[at].type != MsgType::Snap) ++at;
    REQUIRE(at + 5 < f.size());
    for (size_t i = at + 1; i <= at + 5; ++i) CHECK_EQ(f[i].seq, nextSeq(f[i - 1].seq));
    CHECK_EQ(f[at + 5].type, MsgType::SnapEnd);
    CHECK_EQ(f[at + 5].total, 4);
}

TEST(bridge_sequence_numbers_wrap_to_one_never_zero) {
    Bench b;
    b.take();
    for (int i = 0; i < 70000; ++i) b.command("ping");
    const std::vector<Frame> f = b.take();
    REQUIRE(f.size() == 70000u);
    bool wrapped = false;
    for (size_t i = 1; i < f.size(); ++i) {
        CHECK(f[i].seq != 0);
        if (f[i - 1].seq == 65535) {
            CHECK_EQ(f[i].seq, 1);
            wrapped = true;
        }
    }
    CHECK(wrapped);
    CHECK_EQ(b.lost, 0u);
    CHECK_EQ(b.duplicates, 0u);
}

TEST(bridge_overfull_antenna_reports_once) {
    Bench b;
    b.settle();
    b.take();
    for (uint8_t i = 0; i < 10; ++i) {
        Uid u = A;
        u.bytes[6] = static_cast<uint8_t>(0x10 + i);
        b.readers.place(0, u);
    }
    b.run(3000);
    const std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Arrive), static_cast<int>(kMaxTagsPerReader));
    const std::vector<Frame> errs = ofType(f, MsgType::Err);
    REQUIRE(errs.size() == 1u);
    CHECK_EQ(errs[0].fault, ReaderFault::Overfull);
    CHECK_EQ(errs[0].reader, 0);
}

TEST(bridge_partial_polls_never_invent_leaves) {
    Bench b;
    b.readers.place(1, A);
    b.settle();
    b.take();
    b.readers.partial[1] = true;
    b.readers.lift(1, A);
    b.run(3000);
    std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Leave), 0);
    CHECK_EQ(count(f, MsgType::Err), 1);  // overfull, once
    b.readers.partial[1] = false;
    b.run(500);
    f = b.take();
    CHECK_EQ(count(f, MsgType::Leave), 1);
}

TEST(bridge_ignores_implausible_uids) {
    Bench b;
    b.settle();
    b.take();
    b.readers.place(0, uid("88A1B2C3"));
    b.readers.place(0, uid("00000000000000"));
    b.run(1000);
    CHECK_EQ(count(b.take(), MsgType::Arrive), 0);
}

TEST(bridge_every_line_is_short_and_valid) {
    Bench b(8, true);
    for (uint8_t r = 0; r < 8; ++r) {
        for (uint8_t i = 0; i < 8; ++i) {
            Uid u = uid("04112233445566778899");
            u.bytes[9] = static_cast<uint8_t>(r * 8 + i);
            b.readers.place(r, u);
        }
    }
    b.settle();
    b.command("present");
    b.run(1100);
    for (const std::string& line : b.sink.lines) CHECK(line.size() <= kMaxLineLength + 1);
    const std::vector<Frame> f = b.take();  // take() REQUIREs every line to parse
    const std::vector<Frame> ends = ofType(f, MsgType::SnapEnd);
    REQUIRE(ends.size() == 1u);
    CHECK_EQ(ends[0].total, 64);
}

// ---------------------------------------------------------------------------------------------
// Protocol v2: the boot id, the event log and `since` (PROTOCOL.md "Boot id", "Resynchronisation").

namespace {

const Uid E = uid("04E1B2C3D4E5F6");

std::string since(const Bench& b, uint16_t after) { return "since " + std::to_string(b.bridge.boot()) + " " + std::to_string(after); }

// The answer to host line `h`: ack, replay, rec..., replayend (empty if absent or incomplete).
std::vector<Frame> answerTo(const std::vector<Frame>& f, uint16_t h) {
    size_t at = 0;
    while (at < f.size() && !(f[at].type == MsgType::Ack && f[at].hseq == h)) ++at;
    if (at + 2 >= f.size() || f[at + 1].type != MsgType::Replay) return {};
    const size_t end = at + 2 + f[at + 1].count;
    if (end >= f.size()) return {};
    return std::vector<Frame>(f.begin() + static_cast<std::ptrdiff_t>(at), f.begin() + static_cast<std::ptrdiff_t>(end + 1));
}

std::vector<Frame> events(const std::vector<Frame>& f) {
    std::vector<Frame> out;
    for (const Frame& x : f) {
        if (x.type == MsgType::Arrive || x.type == MsgType::Leave) out.push_back(x);
    }
    return out;
}

// Places and lifts cards in a known order, running long enough for each to be seen (a leave takes
// `misses` polls).
void playSome(Bench& b) {
    b.readers.place(0, A);
    b.run(100);
    b.readers.place(1, B);
    b.run(100);
    b.readers.lift(0, A);
    b.run(300);
    b.readers.place(2, C);
    b.run(100);
    b.readers.lift(1, B);
    b.run(300);
}

}  // namespace

TEST(bridge_hello_identity_and_heartbeat_carry_the_boot_id_and_a_reset_changes_it) {
    Bench b;
    const uint16_t first = b.bridge.boot();
    CHECK_EQ(first, b.lastBoot);
    b.run(1000);
    b.command("ident");
    std::vector<Frame> f = b.take();
    CHECK_EQ(f[0].boot, first);
    const uint16_t hbBoot = ofType(f, MsgType::Hb).at(0).boot;
    const uint16_t identityBoot = ofType(f, MsgType::Identity).at(0).boot;
    CHECK_EQ(hbBoot, first);
    CHECK_EQ(identityBoot, first);
    b.readers.place(0, A);
    b.run(100);
    CHECK_EQ(b.bridge.eventLog().size(), 1u);
    b.begin(b.now, ResetCause::Watchdog);
    CHECK(b.bridge.boot() != first);
    CHECK_EQ(b.bridge.eventLog().size(), 0u);  // RAM: the log starts empty at every reset
    f = b.take();
    const uint16_t helloBoot = ofType(f, MsgType::Hello).at(0).boot;
    CHECK_EQ(helloBoot, b.bridge.boot());
    b.bridge.begin(b.now, ResetCause::Power, 0);
    CHECK_EQ(b.bridge.boot(), kBootMin);  // 0 is never used
}

TEST(bridge_since_replays_the_logged_events_after_the_seq_in_order_right_after_the_ack) {
    Bench b;
    b.settle();
    b.take();
    playSome(b);
    const std::vector<Frame> sent = events(b.take());
    REQUIRE(sent.size() == 5u);
    const uint16_t h = b.command(since(b, sent[0].seq));
    const std::vector<Frame> r = answerTo(b.take(), h);
    REQUIRE(r.size() == 7u);
    CHECK_EQ(r[0].cmd, MsgType::Since);
    CHECK_EQ(r[1].hseq, h);
    CHECK_EQ(r[1].count, 4);
    CHECK_EQ(r[6].type, MsgType::ReplayEnd);
    CHECK_EQ(r[6].count, 4);
    for (size_t i = 0; i < 4; ++i) {
        CHECK_EQ(r[2 + i].type, MsgType::Rec);
        CHECK_EQ(r[2 + i].oseq, sent[1 + i].seq);
        CHECK_EQ(r[2 + i].recKind, sent[1 + i].type);
        CHECK_EQ(r[2 + i].reader, sent[1 + i].reader);
        CHECK_EQ(r[2 + i].uid, sent[1 + i].uid);
    }
    for (size_t i = 1; i < r.size(); ++i) CHECK_EQ(r[i].seq, nextSeq(r[i - 1].seq));  // consecutive
    CHECK_EQ(b.bridge.stats().replays, 1u);

    // after 0: since the hello; after the last seq: an empty replay.
    const uint16_t all = b.command(since(b, 0));
    std::vector<Frame> f = b.take();
    const uint16_t allCount = answerTo(f, all).at(1).count;
    CHECK_EQ(allCount, 5);
    const uint16_t none = b.command(since(b, f.back().seq));
    f = b.take();
    CHECK_EQ(answerTo(f, none).size(), 3u);
}

TEST(bridge_since_answers_nak_gone_for_another_boot_an_unreached_seq_or_after_a_reset) {
    Bench b;
    b.settle();
    playSome(b);
    const std::vector<Frame> before = b.take();
    const uint16_t old = b.bridge.boot();
    const uint16_t last = before.back().seq;
    const uint16_t h1 = b.command("since " + std::to_string(old + 1) + " 0");
    const uint16_t h2 = b.command("since " + std::to_string(old) + " " + std::to_string(last + 5));
    b.begin(b.now, ResetCause::Pin);
    b.readers.lift(2, C);  // while the bridge restarts
    const uint16_t h3 = b.command("since " + std::to_string(old) + " " + std::to_string(last));
    b.settle();
    const uint16_t h4 = b.command(since(b, 0));
    const std::vector<Frame> f = b.take();
    const std::vector<Frame> naks = ofType(f, MsgType::Nak);
    REQUIRE(naks.size() == 3u);
    CHECK_EQ(naks[0].hseq, h1);
    CHECK_EQ(naks[1].hseq, h2);
    CHECK_EQ(naks[2].hseq, h3);
    for (const Frame& n : naks) CHECK_EQ(n.code, ParseError::Gone);
    CHECK_EQ(b.bridge.stats().gone, 1u);  // counted since the reset
    // The new boot's log holds only what its first polls saw: nothing of the old boot.
    const std::vector<Frame> r = answerTo(f, h4);
    REQUIRE(r.size() == 3u);  // no card left on the table
}

TEST(bridge_since_is_gone_once_an_event_after_it_was_evicted_from_the_256_entry_log) {
    Bench b;
    b.settle();
    b.take();
    for (int i = 0; i < 150; ++i) {
        Uid u = E;
        u.bytes[6] = static_cast<uint8_t>(i);
        b.readers.place(static_cast<uint8_t>(i % 4), u);
        b.run(60);
        b.readers.lift(static_cast<uint8_t>(i % 4), u);
        b.run(200);
    }
    const std::vector<Frame> sent = events(b.take());
    REQUIRE(sent.size() == 300u);
    const uint16_t gone0 = b.command(since(b, 0));
    const uint16_t gone1 = b.command(since(b, sent[42].seq));  // event 43 (index 43) was evicted
    const uint16_t ok = b.command(since(b, sent[43].seq));
    const std::vector<Frame> f = b.take();
    const std::vector<Frame> naks = ofType(f, MsgType::Nak);
    REQUIRE(naks.size() == 2u);
    CHECK_EQ(naks[0].hseq, gone0);
    CHECK_EQ(naks[1].hseq, gone1);
    const std::vector<Frame> r = answerTo(f, ok);
    REQUIRE(r.size() == kEventLogSize + 3);
    for (size_t i = 0; i < kEventLogSize; ++i) CHECK_EQ(r[2 + i].oseq, sent[44 + i].seq);
}

TEST(bridge_events_dropped_by_a_full_buffer_are_in_the_log_and_the_replay_waits_for_room) {
    Bench b;
    b.settle();
    const uint16_t last = b.take().back().seq;
    b.sink.limit(0);  // the host stops reading: every line is dropped
    playSome(b);
    CHECK(b.bridge.stats().linesDropped >= 5u);
    b.sink.limit(200);  // room for the ack, not for ack and replay
    b.sink.drain();
    const uint16_t h = b.command(since(b, last));
    CHECK(b.bridge.replayPending());
    b.run(5);
    std::vector<Frame> f = b.take();
    CHECK_EQ(count(f, MsgType::Ack), 0);  // the whole answer waits, the ack with it
    b.sink.unlimit();
    b.run(1);
    f = b.take();
    CHECK(!b.bridge.replayPending());
    const std::vector<Frame> r = answerTo(f, h);
    REQUIRE(r.size() == 8u);
    const char* order[] = {"arrive 0", "arrive 1", "leave 0", "arrive 2", "leave 1"};
    for (size_t i = 0; i < 5; ++i) {
        CHECK_EQ(std::string(name(r[2 + i].recKind)) + " " + std::to_string(r[2 + i].reader), std::string(order[i]));
    }
}

TEST(bridge_since_across_the_seq_wrap_replays_in_order) {
    Bench b;
    b.settle();
    b.take();
    for (int i = 0; i < 65520; ++i) b.command("ping");
    const uint16_t last = b.take().back().seq;
    CHECK(last > 65500);
    b.readers.place(0, A);
    b.run(100);
    for (int i = 0; i < 30; ++i) b.command("ping");  // the wrap, between the events
    b.readers.place(1, B);
    b.run(100);
    const std::vector<Frame> sent = events(b.take());
    REQUIRE(sent.size() == 2u);
    CHECK(sent[1].seq < sent[0].seq);  // B's seq wrapped
    const uint16_t h = b.command(since(b, last));
    const std::vector<Frame> r = answerTo(b.take(), h);
    REQUIRE(r.size() == 5u);
    CHECK_EQ(r[2].oseq, sent[0].seq);
    CHECK_EQ(r[3].oseq, sent[1].seq);
}

// ---------------------------------------------------------------------------------------------
// The resynchronisation contract (DESIGN §7, PROTOCOL.md "Resynchronisation"): a reference host
// that follows the documented rules, and scenarios that must produce exactly the true changes.

namespace {

struct ReferenceHost {
    std::set<std::pair<int, std::string>> believed;  // (reader, uid) from the journal
    std::vector<std::string> events;                 // "place r uid" / "lift r uid"
    SeqTracker tracker;
    bool needResync = false;
    bool inSnapshot = false;
    bool snapshotBroken = false;
    uint16_t expectTotal = 0;
    std::set<std::pair<int, std::string>> snapshot;

    void place(int r, const std::string& u) {
        if (believed.insert({r, u}).second) events.push_back("place " + std::to_string(r) + " " + u);
    }
    void lift(int r, const std::string& u) {
        if (believed.erase({r, u})) events.push_back("lift " + std::to_string(r) + " " + u);
    }

    void onFrame(const Frame& f) {
        uint16_t missing = 0;
        const SeqTracker::Verdict v = tracker.accept(f.seq, f.type == MsgType::Hello, missing);
        if (v == SeqTracker::Verdict::Duplicate) return;
        if (v == SeqTracker::Verdict::Gap || v == SeqTracker::Verdict::Restart || v == SeqTracker::Verdict::First) {
            needResync = true;
            if (inSnapshot) snapshotBroken = true;
        }
        const std::string u = support::hex(f.uid);
        switch (f.type) {
            case MsgType::Arrive: place(f.reader, u); break;  // idempotent
            case MsgType::Leave: lift(f.reader, u); break;    // idempotent
            case MsgType::Snap:
                inSnapshot = true;
                snapshotBroken = false;
                expectTotal = f.total;
                snapshot.clear();
                break;
            case MsgType::Tag:
                if (inSnapshot) snapshot.insert({f.reader, u});
                break;
            case MsgType::SnapEnd: {
                inSnapshot = false;
                if (snapshotBroken || snapshot.size() != expectTotal || f.total != expectTotal) {
                    needResync = true;
                    break;
                }
                for (const auto& t : snapshot) place(t.first, t.second);
                std::vector<std::pair<int, std::string>> gone;
                for (const auto& t : believed) {
                    // Absence proves a lift only on a reader that is O.
                    if (t.first < f.statusLen && f.status[t.first] == 'O' && !snapshot.count(t)) gone.push_back(t);
                }
                for (const auto& t : gone) lift(t.first, t.second);
                break;
            }
            default:
                break;
        }
    }
};

void pump(Bench& b, ReferenceHost& host) {
    for (const Frame& f : b.take()) host.onFrame(f);
    if (host.needResync) {
        host.needResync = false;
        b.command("present");
    }
}

void runWithHost(Bench& b, ReferenceHost& host, uint32_t ms) {
    for (uint32_t i = 0; i < ms; ++i) {
        b.run(1);
        pump(b, host);
    }
}

}  // namespace

TEST(resync_after_a_device_reset_reports_only_what_changed) {
    Bench b;
    ReferenceHost host;
    b.readers.place(0, A);
    b.readers.place(1, B);
    b.readers.place(2, C);
    runWithHost(b, host, 2000);
    CHECK_EQ(host.events.size(), 3u);
    host.events.clear();

    // The bridge loses power. While it is down, B is lifted and D is placed on reader 3.
    b.readers.lift(1, B);
    b.readers.place(3, D);
    // A and C flicker during the first polls after the restart.
    b.readers.drop = [](uint8_t, uint32_t pollNo, const Uid&) { return pollNo % 50 < 2; };
    b.readers.polls[0] = b.readers.polls[1] = b.readers.polls[2] = b.readers.polls[3] = 0;
    b.begin(b.now, ResetCause::Power);
    runWithHost(b, host, 3000);

    std::sort(host.events.begin(), host.events.end());
    REQUIRE(host.events.size() == 2u);
    CHECK_EQ(host.events[0], "lift 1 " + support::hex(B));
    CHECK_EQ(host.events[1], "place 3 " + support::hex(D));
}

TEST(resync_after_lost_lines_recovers_the_missing_events) {
    Bench b;
    ReferenceHost host;
    runWithHost(b, host, 500);
    // Lines are lost in transit (the host was not reading): a card arrives and another leaves.
    b.readers.place(0, A);
    runWithHost(b, host, 300);
    host.events.clear();
    b.sink.limit(0);
    b.readers.lift(0, A);
    b.readers.place(2, C);
    b.run(400);
    b.sink.unlimit();
    b.sink.lines.resize(b.sink.lines.size());  // nothing was captured while limited
    runWithHost(b, host, 1000);
    std::sort(host.events.begin(), host.events.end());
    REQUIRE(host.events.size() == 2u);
    CHECK_EQ(host.events[0], "lift 0 " + support::hex(A));
    CHECK_EQ(host.events[1], "place 2 " + support::hex(C));
    CHECK(b.lost > 0u);
}

TEST(resync_daemon_restart_with_nothing_changed_is_silent) {
    Bench b;
    ReferenceHost host;
    b.readers.place(0, A);
    b.readers.place(3, D);
    runWithHost(b, host, 1000);
    const std::set<std::pair<int, std::string>> journal = host.believed;

    // The daemon restarts: a new host process with the journal's state, joining mid-stream.
    ReferenceHost restarted;
    restarted.believed = journal;
    runWithHost(b, restarted, 1000);
    CHECK(restarted.events.empty());
}

// ---------------------------------------------------------------------------------------------
// Version 2 host procedure: after any doubt, `since <boot> <last>`; live events are held until the
// replay ends; `nak gone` falls back to a snapshot whose events are marked order-unknown. A boot id
// that changed without a hello: `since <newBoot> 0`, then a snapshot for what the old boot lost.
// On `nak gone` this host first asks `ident`: the gone may only mean a reset it has not seen yet.

namespace {

struct OrderedHost {
    std::set<std::pair<int, std::string>> believed;
    std::vector<std::string> events;  // "place r uid" / "lift r uid", "?" in front when the order is unknown
    SeqTracker tracker;
    uint16_t boot = 0;
    uint16_t last = 0;
    bool doubt = false;
    bool asked = false;
    bool inReplay = false;
    bool snapshotAsked = false;
    bool identAsked = false;
    bool presentAfterReplay = false;
    std::set<std::pair<int, std::string>> snapshot;

    void askPresent(Bench& b) {
        b.command("present");
        snapshotAsked = true;
    }

    void apply(bool arrive, int r, const std::string& u, const char* mark = "") {
        if (arrive ? believed.insert({r, u}).second : believed.erase({r, u}) > 0) {
            events.push_back(std::string(mark) + (arrive ? "place " : "lift ") + std::to_string(r) + " " + u);
        }
    }

    void onFrame(const Frame& f, Bench& b) {
        uint16_t missing = 0;
        if ((f.type == MsgType::Hb || f.type == MsgType::Identity) && f.boot != boot) {
            // A reset whose hello was lost: the new boot's lines so far were dropped as stale.
            boot = f.boot;
            last = 0;
            doubt = true;
            asked = false;
            presentAfterReplay = true;
            tracker.forget();
        } else if (f.type == MsgType::Identity && identAsked) {
            askPresent(b);  // the same boot: the log really lost events
        }
        if (f.type == MsgType::Identity) identAsked = false;
        const SeqTracker::Verdict v = tracker.accept(f.seq, f.type == MsgType::Hello, missing);
        if (v == SeqTracker::Verdict::Duplicate) return;
        if (f.type == MsgType::Hello) {
            boot = f.boot;
            last = 0;
        }
        if (v == SeqTracker::Verdict::Gap || (f.type == MsgType::Err && f.errKind == ErrKind::Overflow)) doubt = true;
        const std::string u = support::hex(f.uid);
        switch (f.type) {
            case MsgType::Arrive:
            case MsgType::Leave:
                if (!doubt) apply(f.type == MsgType::Arrive, f.reader, u);  // else: it is in the replay
                break;
            case MsgType::Replay: inReplay = true; break;
            case MsgType::Rec:
                if (inReplay) apply(f.recKind == MsgType::Arrive, f.reader, u);
                break;
            case MsgType::ReplayEnd:
                inReplay = false;
                doubt = asked = false;
                if (presentAfterReplay) askPresent(b);
                presentAfterReplay = false;
                break;
            case MsgType::Nak:
                if (f.code == ParseError::Gone) {
                    b.command("ident");
                    identAsked = true;
                }
                break;
            case MsgType::Tag: snapshot.insert({f.reader, u}); break;
            case MsgType::SnapEnd: {
                if (!snapshotAsked) break;
                for (const auto& t : snapshot) apply(true, t.first, t.second, "?");
                std::vector<std::pair<int, std::string>> gone;
                for (const auto& t : believed) if (!snapshot.count(t)) gone.push_back(t);
                for (const auto& t : gone) apply(false, t.first, t.second, "?");
                snapshot.clear();
                snapshotAsked = doubt = asked = false;
                break;
            }
            default: break;
        }
        if (!doubt) last = f.seq;
        if (doubt && !asked) {
            b.command("since " + std::to_string(boot) + " " + std::to_string(last));
            asked = true;
        }
    }
};

void runOrdered(Bench& b, OrderedHost& host, uint32_t ms) {
    for (uint32_t i = 0; i < ms; ++i) {
        b.run(1);
        for (const Frame& f : b.sink.take()) host.onFrame(f, b);
    }
}

std::string ev(const char* what, int r, const Uid& u) { return std::string(what) + " " + std::to_string(r) + " " + support::hex(u); }

}  // namespace

TEST(resync_v2_lost_lines_come_back_by_replay_in_their_exact_order) {
    Bench b;
    OrderedHost host;
    runOrdered(b, host, 500);
    b.sink.limit(0);  // the host stops reading: A is placed and lifted, B placed, C placed, B lifted
    playSome(b);
    b.sink.unlimit();
    runOrdered(b, host, 500);
    const std::vector<std::string> expected = {ev("place", 0, A), ev("place", 1, B), ev("lift", 0, A),
                                               ev("place", 2, C), ev("lift", 1, B)};
    CHECK(host.events == expected);  // A's whole visit too, which no snapshot could show
    CHECK_EQ(b.bridge.stats().replays, 1u);
    CHECK_EQ(b.bridge.stats().gone, 0u);
}

TEST(resync_v2_reset_with_its_hello_lost_is_seen_by_boot_and_replayed_from_0) {
    Bench b;
    OrderedHost host;
    b.readers.place(0, A);
    runOrdered(b, host, 1000);
    host.events.clear();
    b.sink.limit(0);  // the reset's first lines (hello, cfg, the re-seen A, D) are lost
    b.readers.place(3, D);
    b.begin(b.now, ResetCause::Watchdog);
    b.run(200);
    b.sink.unlimit();
    b.readers.place(1, B);
    runOrdered(b, host, 2000);
    const std::vector<std::string> expected = {ev("place", 3, D), ev("place", 1, B)};
    CHECK(host.events == expected);  // A was known; D and B in their order
    CHECK_EQ(host.boot, b.bridge.boot());
}

TEST(resync_v2_when_the_log_no_longer_covers_the_gap_the_snapshot_marks_order_unknown) {
    Bench b;
    OrderedHost host;
    b.readers.place(0, A);
    runOrdered(b, host, 500);
    host.events.clear();
    b.sink.limit(0);
    for (int i = 0; i < 140; ++i) {  // 280 events: more than the log holds
        Uid u = E;
        u.bytes[6] = static_cast<uint8_t>(i);
        b.readers.place(2, u);
        b.run(60);
        b.readers.lift(2, u);
        b.run(200);
    }
    b.readers.lift(0, A);
    b.readers.place(1, B);
    b.run(300);
    b.sink.unlimit();
    runOrdered(b, host, 3000);
    std::vector<std::string> got = host.events;
    std::sort(got.begin(), got.end());
    const std::vector<std::string> expected = {"?" + ev("lift", 0, A), "?" + ev("place", 1, B)};
    CHECK(got == expected);
    CHECK(b.bridge.stats().gone >= 1u);
}
