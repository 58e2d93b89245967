// Line assembler, transmit queue, sequence numbers.
#include <string>

#include "harness.h"
#include "line_assembler.h"
#include "seq.h"
#include "tx_queue.h"

using namespace tenace;

namespace {

struct Fed {
    std::vector<std::string> lines;
    int tooLong = 0;
};

Fed feedAll(LineAssembler& a, const std::string& bytes) {
    Fed out;
    for (char c : bytes) {
        switch (a.feed(c)) {
            case LineAssembler::Event::Line: out.lines.emplace_back(a.line(), a.size()); break;
            case LineAssembler::Event::TooLong: ++out.tooLong; break;
            case LineAssembler::Event::None: break;
        }
    }
    return out;
}

}  // namespace

TEST(assembler_splits_lines_and_keeps_cr_for_the_parser) {
    LineAssembler a;
    const Fed f = feedAll(a, "1 ping*AB\n2 present*CD\r\n\n");
    REQUIRE(f.lines.size() == 3u);
    CHECK_EQ(f.lines[0], std::string("1 ping*AB"));
    CHECK_EQ(f.lines[1], std::string("2 present*CD\r"));
    CHECK_EQ(f.lines[2], std::string());
    CHECK_EQ(f.tooLong, 0);
}

TEST(assembler_caps_line_length_and_recovers_at_the_next_newline) {
    LineAssembler a;
    const std::string limit(kMaxLineLength, 'x');
    Fed f = feedAll(a, limit + "\r\n");  // 96 + CR: allowed
    CHECK_EQ(f.lines.size(), 1u);
    CHECK_EQ(f.tooLong, 0);
    f = feedAll(a, limit + "yz\n");  // 98: too long
    CHECK_EQ(f.lines.size(), 0u);
    CHECK_EQ(f.tooLong, 1);
    f = feedAll(a, std::string(10000, 'g') + "\n1 ping*AB\n");  // a flood costs one report
    CHECK_EQ(f.tooLong, 1);
    REQUIRE(f.lines.size() == 1u);
    CHECK_EQ(f.lines[0], std::string("1 ping*AB"));
}

TEST(assembler_97_bytes_are_passed_to_the_parser_which_decides) {
    // 97 bytes fit the buffer only because a CR may follow 96 bytes of content; if the 97th is not
    // a CR the parser reports too-long, so both paths end in the same answer.
    LineAssembler a;
    const Fed f = feedAll(a, std::string(97, 'x') + "\n");
    REQUIRE(f.lines.size() == 1u);
    CHECK_EQ(f.lines[0].size(), 97u);
}

TEST(tx_queue_is_all_or_nothing_and_wraps) {
    TxQueue<16> q;
    CHECK_EQ(q.room(), 16u);
    CHECK(q.write("0123456789", 10));
    CHECK(!q.write("abcdefg", 7));  // does not fit: nothing written
    CHECK_EQ(q.used(), 10u);
    const char* p = nullptr;
    CHECK_EQ(q.peek(p), 10u);
    q.consume(8);
    CHECK(q.write("abcdefghij", 10));  // wraps around the end
    std::string out;
    while (q.used() > 0) {
        const size_t n = q.peek(p);
        out.append(p, n);
        q.consume(n);
    }
    CHECK_EQ(out, std::string("89abcdefghij"));
    q.consume(5);  // over-consume is harmless
    CHECK_EQ(q.used(), 0u);
}

TEST(tx_queue_holds_a_worst_case_snapshot_in_the_glue_size) {
    // The sketch uses TxQueue<8192>; a full snapshot must always fit in it.
    CHECK(kMaxSnapshotBytes <= 8192u);
}

TEST(seq_counter_reserves_zero_for_hello_and_wraps_to_one) {
    SeqCounter c;
    CHECK_EQ(c.take(), 0);
    CHECK_EQ(c.take(), 1);
    CHECK_EQ(c.take(), 2);
    for (int i = 3; i < 65535; ++i) c.take();
    CHECK_EQ(c.take(), 65535);
    CHECK_EQ(c.take(), 1);  // not 0
    c.reset();
    CHECK_EQ(c.take(), 0);
    CHECK_EQ(nextSeq(65535), 1);
    CHECK_EQ(nextSeq(0), 1);
}

TEST(seq_tracker_classifies_order_gaps_duplicates_and_restarts) {
    SeqTracker t;
    uint16_t lost = 0;
    using V = SeqTracker::Verdict;
    CHECK_EQ(t.accept(500, false, lost), V::First);  // joined mid-stream
    CHECK_EQ(t.accept(501, false, lost), V::InOrder);
    CHECK_EQ(t.accept(501, false, lost), V::Duplicate);
    CHECK_EQ(t.accept(400, false, lost), V::Duplicate);  // older
    CHECK_EQ(t.accept(505, false, lost), V::Gap);
    CHECK_EQ(lost, 3);  // 502, 503, 504
    CHECK_EQ(t.accept(506, false, lost), V::InOrder);
    CHECK_EQ(t.accept(0, true, lost), V::Restart);
    CHECK_EQ(t.accept(1, false, lost), V::InOrder);
}

TEST(seq_tracker_handles_the_wrap) {
    SeqTracker t;
    uint16_t lost = 0;
    using V = SeqTracker::Verdict;
    t.accept(65534, false, lost);
    CHECK_EQ(t.accept(65535, false, lost), V::InOrder);
    CHECK_EQ(t.accept(1, false, lost), V::InOrder);
    CHECK_EQ(t.accept(65535, false, lost), V::Duplicate);
    t.forget();
    t.accept(65533, false, lost);
    CHECK_EQ(t.accept(2, false, lost), V::Gap);  // 65534, 65535, 1 lost
    CHECK_EQ(lost, 3);
}
