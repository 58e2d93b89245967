// Framing: encoding, every parse error, canonical round trips, and fuzzing.
#include <cstring>
#include <random>
#include <string>

#include "crc8.h"
#include "frame_codec.h"
#include "harness.h"
#include "support.h"

using namespace tenace;
using support::framed;

namespace {

ParseError errorOf(const std::string& line) { return parseLine(line.data(), line.size()).error; }

std::string encode(const Frame& f) {
    char buf[kLineBufferSize];
    const size_t n = encodeFrame(f, buf, sizeof buf);
    return std::string(buf, n);
}

}  // namespace

TEST(encode_arrive_line) {
    Frame f;
    f.seq = 3;
    f.type = MsgType::Arrive;
    f.reader = 0;
    f.uid = support::uid("04A1B2C3D4E5F6");
    CHECK_EQ(encode(f), std::string("3 arrive 0 04A1B2C3D4E5F6*A3\n"));
}

TEST(encode_hello_and_heartbeat) {
    Frame h;
    h.seq = 0;
    h.type = MsgType::Hello;
    std::strcpy(h.fw, "1.0.0");
    h.proto = 2;
    h.readers = 4;
    h.reset = ResetCause::Power;
    h.boot = 4660;
    CHECK_EQ(encode(h), framed("0 hello 1.0.0 2 4 power 4660") + "\n");

    Frame b;
    b.seq = 17;
    b.type = MsgType::Hb;
    b.uptimeS = 3600;
    b.statusLen = 4;
    std::memcpy(b.status, "OOWF", 4);
    const uint8_t tags[] = {1, 0, 2, 0};
    std::memcpy(b.tags, tags, 4);
    b.boot = 999;
    CHECK_EQ(encode(b), framed("17 hb 3600 OOWF 1020 999") + "\n");
}

TEST(encode_since_replay_rec_replayend) {
    Frame s;
    s.seq = 47;
    s.type = MsgType::Since;
    s.boot = 4660;
    s.after = 0;
    CHECK_EQ(encode(s), std::string("47 since 4660 0*6A\n"));

    Frame r;
    r.seq = 52;
    r.type = MsgType::Replay;
    r.hseq = 47;
    r.count = 3;
    CHECK_EQ(encode(r), std::string("52 replay 47 3*B9\n"));
    r.type = MsgType::ReplayEnd;
    r.seq = 56;
    CHECK_EQ(encode(r), std::string("56 replayend 47 3*AF\n"));

    Frame rec;
    rec.seq = 53;
    rec.type = MsgType::Rec;
    rec.oseq = 17;
    rec.recKind = MsgType::Arrive;
    rec.reader = 0;
    rec.uid = support::uid("04A1B2C3D4E5F6");
    CHECK_EQ(encode(rec), framed("53 rec 17 arrive 0 04A1B2C3D4E5F6") + "\n");
    rec.recKind = MsgType::Tag;  // only arrive and leave are logged
    CHECK_EQ(encode(rec), std::string());
    rec.recKind = MsgType::Leave;
    rec.oseq = 0;  // the hello's seq is never an event's
    CHECK_EQ(encode(rec), std::string());

    Frame n;
    n.seq = 51;
    n.type = MsgType::Nak;
    n.hseq = 48;
    n.code = ParseError::Gone;
    CHECK_EQ(encode(n), framed("51 nak 48 gone") + "\n");
    Frame e;
    e.seq = 10;
    e.type = MsgType::Err;
    e.errKind = ErrKind::Line;
    e.code = ParseError::Gone;  // a nak code, not a line error
    CHECK_EQ(encode(e), std::string());
}

TEST(the_longest_lines_of_a_since_answer_are_as_long_as_protocol_h_says) {
    Frame ack;
    ack.seq = 65535;
    ack.type = MsgType::Ack;
    ack.hseq = 65535;
    ack.cmd = MsgType::Since;
    CHECK_EQ(encode(ack).size(), kMaxSinceAckBytes);
    Frame edge;
    edge.seq = 65535;
    edge.type = MsgType::ReplayEnd;
    edge.hseq = 65535;
    edge.count = 65535;
    CHECK_EQ(encode(edge).size(), kMaxReplayEdgeBytes);
    edge.type = MsgType::Replay;
    CHECK(encode(edge).size() <= kMaxReplayEdgeBytes);
    Frame rec;
    rec.seq = 65535;
    rec.type = MsgType::Rec;
    rec.oseq = 65535;
    rec.recKind = MsgType::Arrive;
    rec.reader = 7;
    rec.uid = support::uid("04112233445566778899");
    CHECK_EQ(encode(rec).size(), kMaxRecBytes);
    rec.recKind = MsgType::Leave;
    CHECK(encode(rec).size() <= kMaxRecBytes);
}

TEST(encoder_refuses_frames_the_parser_would_reject) {
    Frame f;
    f.seq = 5;
    f.type = MsgType::Hello;  // hello must be seq 0
    std::strcpy(f.fw, "1.0.0");
    f.proto = 2;
    f.readers = 4;
    f.boot = 7;
    CHECK_EQ(encode(f), std::string());
    f.seq = 0;
    f.boot = 0;  // boot 0 is never used
    CHECK_EQ(encode(f), std::string());
    f.boot = 7;
    std::strcpy(f.fw, "1.0 beta");  // space would split the token
    CHECK_EQ(encode(f), std::string());
    std::strcpy(f.fw, "");
    CHECK_EQ(encode(f), std::string());

    Frame a;
    a.seq = 1;
    a.type = MsgType::Arrive;
    a.reader = 8;
    a.uid = support::uid("DEADBEEF");
    CHECK_EQ(encode(a), std::string());
    a.reader = 1;
    a.uid.len = 5;
    CHECK_EQ(encode(a), std::string());

    Frame s;
    s.seq = 1;
    s.type = MsgType::Set;
    s.pollMs = 5;
    s.misses = 3;
    CHECK_EQ(encode(s), std::string());

    Frame n;
    n.seq = 1;
    n.type = MsgType::Nak;
    n.code = ParseError::BadCrc;  // line errors are not nak codes
    CHECK_EQ(encode(n), std::string());

    Frame hb;
    hb.seq = 2;
    hb.type = MsgType::Hb;
    hb.statusLen = 1;
    hb.status[0] = 'O';
    hb.tags[0] = 10;
    hb.boot = 1;
    CHECK_EQ(encode(hb), std::string());
    hb.tags[0] = 1;
    hb.boot = 0;
    CHECK_EQ(encode(hb), std::string());
}

TEST(encoder_respects_the_output_capacity) {
    Frame f;
    f.seq = 1;
    f.type = MsgType::Ping;
    char buf[kLineBufferSize];
    const size_t n = encodeFrame(f, buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK_EQ(encodeFrame(f, buf, n - 1), 0u);
    CHECK_EQ(encodeFrame(f, buf, n), n);
}

TEST(parse_error_order_follows_the_document) {
    // Too long wins over everything.
    CHECK_EQ(errorOf(std::string(97, '\x01')), ParseError::TooLong);
    // Bad characters are found before the checksum is looked at.
    CHECK_EQ(errorOf("1 ping\x01*00"), ParseError::BadChar);
    // The CRC is checked before tokens, seq or type.
    CHECK_EQ(errorOf("1  pong*00"), ParseError::BadCrc);
    // With a good CRC, structure, then seq, then type, then arity, then fields, then the seq rule.
    CHECK_EQ(errorOf(framed("1  pong")), ParseError::BadFrame);
    CHECK_EQ(errorOf(framed("01 pong")), ParseError::BadSeq);
    CHECK_EQ(errorOf(framed("1 pong")), ParseError::UnknownType);
    CHECK_EQ(errorOf(framed("1 arrive 9")), ParseError::MissingField);
    CHECK_EQ(errorOf(framed("0 arrive 9 DEADBEEF")), ParseError::BadField);
    CHECK_EQ(errorOf(framed("0 arrive 1 DEADBEEF")), ParseError::BadSeq);
}

TEST(parse_reports_how_far_it_got) {
    ParseResult r = parseLine(framed("77 pong").c_str(), framed("77 pong").size());
    CHECK(r.haveSeq);
    CHECK(!r.haveType);
    CHECK_EQ(r.frame.seq, 77);
    const std::string l = framed("78 set 5 3");
    r = parseLine(l.data(), l.size());
    CHECK_EQ(r.error, ParseError::BadField);
    CHECK(r.haveSeq && r.haveType);
    CHECK_EQ(r.frame.type, MsgType::Set);
    const std::string bad = "78 ping*00";
    r = parseLine(bad.data(), bad.size());
    CHECK(!r.haveSeq);
}

TEST(parse_tolerates_exactly_one_carriage_return) {
    const std::string l = framed("1 ping");
    CHECK(parseLine((l + "\r").data(), l.size() + 1).ok());
    CHECK_EQ(errorOf(l + "\r\r"), ParseError::BadChar);
}

TEST(every_single_byte_corruption_of_a_valid_line_is_rejected) {
    // The guarantee that matters at the table: line noise never turns into a different card.
    const std::string lines[] = {framed("3 arrive 0 04A1B2C3D4E5F6"), framed("65535 leave 7 04112233445566778899"),
                                 framed("24 snapend 43 2 OOOF"), framed("17 hb 3600 OOWF 1020 4660"),
                                 framed("53 rec 17 arrive 0 04A1B2C3D4E5F6"), framed("47 since 4660 12")};
    for (const std::string& good : lines) {
        for (size_t i = 0; i < good.size(); ++i) {
            for (int v = 0; v < 256; ++v) {
                if (v == static_cast<unsigned char>(good[i]) || v == '\n') continue;
                std::string bad = good;
                bad[i] = static_cast<char>(v);
                const ParseResult r = parseLine(bad.data(), bad.size());
                if (r.ok()) th::fail(__FILE__, __LINE__, "accepted corrupted line: " + bad);
            }
        }
    }
}

TEST(every_truncation_of_a_valid_line_is_rejected) {
    const std::string good = framed("3 arrive 0 04A1B2C3D4E5F6");
    for (size_t n = 1; n < good.size(); ++n) {
        CHECK(!parseLine(good.data(), n).ok());
    }
}

TEST(fuzz_random_lines_never_crash_and_never_pass_with_a_wrong_crc) {
    std::mt19937 rng(12345);
    const char alphabet[] = "0123456789ABCDEF abcdefghijklmnopqrstuvwxyz*-+.\r\x01\xff";
    int accepted = 0;
    for (int i = 0; i < 100000; ++i) {
        std::string line;
        const size_t len = rng() % 120;
        for (size_t k = 0; k < len; ++k) line += alphabet[rng() % (sizeof alphabet - 1)];
        if (rng() % 2 == 0 && line.size() > 3) {
            // Give half of them a correct checksum so the later checks get exercised too.
            const std::string body = line.substr(0, line.size() - 3);
            line = framed(body);
        }
        const ParseResult r = parseLine(line.data(), line.size());
        if (r.ok()) {
            ++accepted;
            // Anything accepted must re-encode to itself (canonical form).
            std::string l = line;
            if (!l.empty() && l.back() == '\r') l.pop_back();
            CHECK_EQ(encode(r.frame), l + "\n");
        }
    }
    CHECK(accepted < 100000);
}

TEST(random_valid_frames_round_trip) {
    std::mt19937 rng(99);
    const MsgType types[] = {MsgType::Arrive, MsgType::Leave,  MsgType::Tag,  MsgType::Hb,        MsgType::Set,
                             MsgType::Cfg,    MsgType::Ack,    MsgType::Snap, MsgType::SnapEnd,   MsgType::Rec,
                             MsgType::Replay, MsgType::ReplayEnd, MsgType::Since};
    for (int i = 0; i < 20000; ++i) {
        Frame f;
        f.type = types[rng() % (sizeof types / sizeof types[0])];
        f.seq = static_cast<uint16_t>(1 + rng() % 65535);
        f.reader = static_cast<uint8_t>(rng() % 8);
        const uint8_t lens[] = {4, 7, 10};
        f.uid.len = lens[rng() % 3];
        for (uint8_t k = 0; k < f.uid.len; ++k) f.uid.bytes[k] = static_cast<uint8_t>(rng());
        f.uptimeS = static_cast<uint32_t>(rng());
        f.statusLen = static_cast<uint8_t>(1 + rng() % 8);
        for (uint8_t k = 0; k < f.statusLen; ++k) {
            f.status[k] = "OWF"[rng() % 3];
            f.tags[k] = static_cast<uint8_t>(rng() % 10);
        }
        f.pollMs = static_cast<uint16_t>(kPollMsMin + rng() % (kPollMsMax - kPollMsMin + 1));
        f.misses = static_cast<uint8_t>(kMissesMin + rng() % (kMissesMax - kMissesMin + 1));
        f.hseq = static_cast<uint16_t>(rng());
        f.total = static_cast<uint16_t>(rng());
        f.count = static_cast<uint16_t>(rng());
        f.boot = static_cast<uint16_t>(1 + rng() % 65535);
        f.after = static_cast<uint16_t>(rng());
        f.oseq = static_cast<uint16_t>(1 + rng() % 65535);
        f.recKind = rng() % 2 ? MsgType::Arrive : MsgType::Leave;
        f.cmd = rng() % 2 ? MsgType::Present : MsgType::Since;
        const std::string line = encode(f);
        REQUIRE(!line.empty());
        REQUIRE(line.size() <= kMaxLineLength + 1);
        const Frame back = support::parsed(line);
        CHECK_EQ(encode(back), line);
    }
}
