#include "line_assembler.h"

namespace tenace {

LineAssembler::Event LineAssembler::feed(char c) {
    if (complete_) {
        len_ = 0;
        complete_ = false;
    }
    if (c == '\n') {
        if (discarding_) {
            discarding_ = false;
            len_ = 0;
            return Event::TooLong;
        }
        complete_ = true;
        return Event::Line;
    }
    if (discarding_) return Event::None;
    if (len_ == kCapacity) {
        discarding_ = true;
        len_ = 0;
        return Event::None;
    }
    buf_[len_++] = c;
    return Event::None;
}

void LineAssembler::reset() {
    len_ = 0;
    complete_ = false;
    discarding_ = false;
}

}  // namespace tenace
