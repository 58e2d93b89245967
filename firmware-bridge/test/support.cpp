#include "support.h"

#include <algorithm>
#include <sstream>

#include "crc8.h"
#include "harness.h"

namespace tenace {
std::ostream& operator<<(std::ostream& os, const Uid& u) { return os << support::hex(u); }
}  // namespace tenace

namespace support {

using namespace tenace;

Uid uid(const std::string& h) {
    Uid u;
    REQUIRE(uidFromHex(h.data(), h.size(), u));
    return u;
}

std::string hex(const Uid& u) {
    char buf[2 * kMaxUidBytes];
    const size_t n = uidToHex(u, buf, sizeof buf);
    return n == 0 ? std::string("<invalid uid>") : std::string(buf, n);
}

std::string framed(const std::string& body) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02X", crc8(body.data(), body.size()));
    return body + "*" + buf;
}

Frame parsed(const std::string& line) {
    std::string l = line;
    if (!l.empty() && l.back() == '\n') l.pop_back();
    const ParseResult r = parseLine(l.data(), l.size());
    if (!r.ok()) th::fail(__FILE__, __LINE__, "unparsable line '" + l + "': " + name(r.error));
    REQUIRE(r.ok());
    return r.frame;
}

ReaderFault FakeReaders::probe(uint8_t reader) {
    ++probes[reader];
    order.push_back(reader);
    return probeFault[reader];
}

void FakeReaders::poll(uint8_t reader, uint32_t budgetUs, PollResult& out) {
    const uint32_t n = polls[reader]++;
    order.push_back(reader);
    lastBudgetUs = budgetUs;
    out.count = 0;
    if (pollFault[reader] != ReaderFault::None) {
        out.outcome = PollResult::Outcome::Fault;
        out.fault = pollFault[reader];
        return;
    }
    std::vector<Uid> seen;
    if (!script[reader].empty()) {
        seen = script[reader].front();
        script[reader].pop_front();
    } else {
        for (const Uid& u : field[reader]) {
            if (drop && drop(reader, n, u)) continue;
            seen.push_back(u);
        }
    }
    out.outcome = partial[reader] ? PollResult::Outcome::Partial : PollResult::Outcome::Complete;
    for (const Uid& u : seen) {
        if (out.count == kMaxSeenPerPoll) {
            out.outcome = PollResult::Outcome::Partial;
            break;
        }
        out.uids[out.count++] = u;
    }
}

void FakeReaders::lift(uint8_t reader, const Uid& u) {
    auto& f = field[reader];
    f.erase(std::remove(f.begin(), f.end(), u), f.end());
}

size_t CaptureSink::room() const { return capacity_ == SIZE_MAX ? SIZE_MAX : capacity_ - pending_; }

bool CaptureSink::write(const char* line, size_t len) {
    if (len > room()) return false;
    REQUIRE(len > 0 && line[len - 1] == '\n');
    lines.emplace_back(line, len);
    if (capacity_ != SIZE_MAX) pending_ += len;
    return true;
}

std::vector<Frame> CaptureSink::take() {
    std::vector<Frame> out;
    for (; taken_ < lines.size(); ++taken_) out.push_back(parsed(lines[taken_]));
    return out;
}

std::vector<Frame> ofType(const std::vector<Frame>& frames, MsgType t) {
    std::vector<Frame> out;
    for (const Frame& f : frames) {
        if (f.type == t) out.push_back(f);
    }
    return out;
}

}  // namespace support
