#include "seq.h"

namespace tenace {

SeqTracker::Verdict SeqTracker::accept(uint16_t seq, bool isHello, uint16_t& lost) {
    lost = 0;
    if (isHello) {
        have_ = true;
        last_ = 0;
        return Verdict::Restart;
    }
    if (!have_) {
        have_ = true;
        last_ = seq;
        return Verdict::First;
    }
    const uint16_t expected = nextSeq(last_);
    if (seq == expected) {
        last_ = seq;
        return Verdict::InOrder;
    }
    // Distance forward from `expected` on the ring 1..65535 (65535 values). Half the ring ahead is
    // a gap; the other half, including seq == last, is a line we have already had.
    const uint32_t ring = kSeqMax;
    const uint32_t d = (static_cast<uint32_t>(seq) + ring - static_cast<uint32_t>(expected)) % ring;
    if (d < ring / 2) {
        lost = static_cast<uint16_t>(d);
        last_ = seq;
        return Verdict::Gap;
    }
    return Verdict::Duplicate;
}

}  // namespace tenace
