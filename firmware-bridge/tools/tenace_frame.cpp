// tenace-frame: a bench tool for protocol v2 lines.
//
//   tenace-frame '41 ping' '43 present'   print each body as a complete line with its "*HH" checksum
//   tenace-frame < bodies.txt             the same, one body per input line
//   tenace-frame --check < capture.txt    check captured device output: print each line's verdict,
//                                         sequence gaps and duplicates, and a summary
//
// Typing commands at a bridge by hand: printf '%s\n' "$(tenace-frame '1 ping')" > /dev/tenace-bridge-...
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "frame_codec.h"
#include "crc8.h"
#include "seq.h"

namespace {

std::string frameBody(const std::string& body) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02X", tenace::crc8(body.data(), body.size()));
    return body + "*" + buf;
}

int check() {
    tenace::SeqTracker tracker;
    unsigned long good = 0, bad = 0, gaps = 0, lost = 0, dups = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        const tenace::ParseResult r = tenace::parseLine(line.data(), line.size());
        if (r.error == tenace::ParseError::Empty) continue;
        if (!r.ok()) {
            ++bad;
            std::printf("BAD  %-13s %s\n", tenace::name(r.error), line.c_str());
            continue;
        }
        ++good;
        uint16_t missing = 0;
        if (!tenace::isHostCommand(r.frame.type)) {
            switch (tracker.accept(r.frame.seq, r.frame.type == tenace::MsgType::Hello, missing)) {
                case tenace::SeqTracker::Verdict::Gap:
                    ++gaps;
                    lost += missing;
                    std::printf("GAP  %u line(s) missing before seq %u\n", missing, r.frame.seq);
                    break;
                case tenace::SeqTracker::Verdict::Duplicate:
                    ++dups;
                    std::printf("DUP  %s\n", line.c_str());
                    continue;
                default:
                    break;
            }
        }
        std::printf("ok   %-13s %s\n", tenace::name(r.frame.type), line.c_str());
    }
    std::printf("%lu good, %lu bad, %lu gaps (%lu lines lost), %lu duplicates\n", good, bad, gaps, lost, dups);
    return bad == 0 && gaps == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--check") == 0) return check();
    if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::printf("usage: tenace-frame [BODY...] | tenace-frame --check < lines\n");
        return 0;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; ++i) std::printf("%s\n", frameBody(argv[i]).c_str());
        return 0;
    }
    std::string body;
    while (std::getline(std::cin, body)) {
        if (!body.empty() && body.back() == '\r') body.pop_back();
        if (!body.empty()) std::printf("%s\n", frameBody(body).c_str());
    }
    return 0;
}
