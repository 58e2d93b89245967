// A byte ring that decouples the Bridge from the USB stack: the Bridge writes whole lines whenever it
// likes, and the glue drains as much as the CDC endpoint accepts on each loop. Sized so a complete
// snapshot fits (see kMaxSnapshotBytes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "line_sink.h"

namespace tenace {

template <size_t Capacity>
class TxQueue final : public LineSink {
    static_assert(Capacity > 0, "queue needs room");

   public:
    size_t room() const override { return Capacity - used_; }

    bool write(const char* line, size_t len) override {
        if (len > room()) return false;
        for (size_t i = 0; i < len; ++i) {
            buf_[(head_ + used_ + i) % Capacity] = line[i];
        }
        used_ += len;
        return true;
    }

    size_t used() const { return used_; }

    // The longest run of queued bytes that is contiguous in memory, for a single Serial.write().
    size_t peek(const char*& p) const {
        p = buf_ + head_;
        const size_t toEnd = Capacity - head_;
        return used_ < toEnd ? used_ : toEnd;
    }

    void consume(size_t n) {
        if (n > used_) n = used_;
        head_ = (head_ + n) % Capacity;
        used_ -= n;
    }

    void clear() {
        head_ = 0;
        used_ = 0;
    }

   private:
    char buf_[Capacity] = {};
    size_t head_ = 0;
    size_t used_ = 0;
};

}  // namespace tenace
