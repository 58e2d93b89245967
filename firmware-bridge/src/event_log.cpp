#include "event_log.h"

#include "seq.h"

namespace tenace {

void EventLog::clear() {
    head_ = 0;
    count_ = 0;
    evicted_ = false;
    newestEvicted_ = 0;
}

void EventLog::append(uint32_t line, uint16_t seq, MsgType type, uint8_t reader, const Uid& uid) {
    if (count_ == kEventLogSize) {
        // Full: the oldest entry makes room. The log is ordered, so it is also the newest evicted.
        evicted_ = true;
        newestEvicted_ = ring_[head_].line;
        head_ = (head_ + 1) % kEventLogSize;
        --count_;
    }
    LoggedEvent& e = ring_[(head_ + count_) % kEventLogSize];
    e.line = line;
    e.seq = seq;
    e.type = type;
    e.reader = reader;
    e.uid = uid;
    ++count_;
}

bool replayStart(uint16_t after, uint16_t lastSeq, uint32_t lastLine, uint32_t& from) {
    if (after == 0) {
        from = 0;
        return true;
    }
    if (lastLine == 0 || seqAfter(after, lastSeq)) return false;
    const uint32_t back = (static_cast<uint32_t>(lastSeq) + kSeqMax - after) % kSeqMax;
    if (back >= lastLine) return false;  // before the first line after the hello: not this boot's
    from = lastLine - back;
    return true;
}

}  // namespace tenace
