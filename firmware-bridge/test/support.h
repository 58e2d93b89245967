// Test doubles and helpers shared by the test files.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "frame.h"
#include "frame_codec.h"
#include "line_sink.h"
#include "reader_port.h"
#include "uid.h"

namespace tenace {
std::ostream& operator<<(std::ostream& os, const Uid& uid);
}

namespace support {

tenace::Uid uid(const std::string& hex);
std::string hex(const tenace::Uid& uid);
// "41 ping" -> "41 ping*HH" (no terminator)
std::string framed(const std::string& body);
// Parses a line as sent (with or without '\n'); REQUIREs success.
tenace::Frame parsed(const std::string& line);

// A scripted set of antennas. `field` is what physically lies on each antenna; `drop` can hide a
// tag from a given poll (RC522 flicker); `script` overrides whole polls; faults are injectable.
class FakeReaders final : public tenace::ReaderPort {
   public:
    explicit FakeReaders(uint8_t count) : count_(count) {}

    uint8_t readerCount() const override { return count_; }
    tenace::ReaderFault probe(uint8_t reader) override;
    void poll(uint8_t reader, uint32_t budgetUs, tenace::PollResult& out) override;

    void place(uint8_t reader, const tenace::Uid& u) { field[reader].push_back(u); }
    void lift(uint8_t reader, const tenace::Uid& u);

    std::vector<tenace::Uid> field[tenace::kMaxReaders];
    std::deque<std::vector<tenace::Uid>> script[tenace::kMaxReaders];
    tenace::ReaderFault probeFault[tenace::kMaxReaders] = {};
    tenace::ReaderFault pollFault[tenace::kMaxReaders] = {};
    bool partial[tenace::kMaxReaders] = {};
    // Return true to hide `u` from poll number `pollNo` (0-based, per reader).
    std::function<bool(uint8_t reader, uint32_t pollNo, const tenace::Uid& u)> drop;

    uint32_t polls[tenace::kMaxReaders] = {};
    uint32_t probes[tenace::kMaxReaders] = {};
    uint32_t lastBudgetUs = 0;
    std::vector<uint8_t> order;  // reader of every poll/probe, in call order

   private:
    uint8_t count_;
};

// Captures lines; optionally limited to `capacity` bytes until drain() (a stalled USB host).
class CaptureSink final : public tenace::LineSink {
   public:
    size_t room() const override;
    bool write(const char* line, size_t len) override;

    void limit(size_t capacity) { capacity_ = capacity; }
    void unlimit() { capacity_ = SIZE_MAX; }
    void drain() { pending_ = 0; }

    // Lines since the last take(), parsed (each must be valid).
    std::vector<tenace::Frame> take();

    std::vector<std::string> lines;

   private:
    size_t capacity_ = SIZE_MAX;
    size_t pending_ = 0;
    size_t taken_ = 0;
};

std::vector<tenace::Frame> ofType(const std::vector<tenace::Frame>& frames, tenace::MsgType t);

}  // namespace support
