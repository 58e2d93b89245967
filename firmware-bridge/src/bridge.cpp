#include "bridge.h"

#include <cstring>

#include "command.h"
#include "frame_codec.h"

namespace tenace {

namespace {

bool reached(uint32_t nowMs, uint32_t atMs) { return static_cast<int32_t>(nowMs - atMs) >= 0; }

Frame frameOf(MsgType type) {
    Frame f;
    f.type = type;
    return f;
}

// Bytes that the frames `eachFrame` lists would take, numbered from a copy of the counter. A
// snapshot or a replay goes out whole or waits for room: a half-sent one only makes the host ask
// again.
template <typename EachFrame>
size_t measure(SeqCounter dry, EachFrame&& eachFrame) {
    char buf[kLineBufferSize];
    size_t bytes = 0;
    eachFrame([&](Frame f) {
        f.seq = dry.take();
        bytes += encodeFrame(f, buf, sizeof buf);
    });
    return bytes;
}

}  // namespace

Bridge::Bridge(ReaderPort& port, LineSink& out, const char* firmwareVersion)
    : port_(port), out_(out), fw_(firmwareVersion), readers_(1) {}

void Bridge::begin(uint32_t nowMs, ResetCause cause, uint16_t boot) {
    // The reader count is read here, not in the constructor, so global objects in the glue can be
    // constructed in any order.
    const uint8_t n = port_.readerCount();
    readers_ = n == 0 ? 1 : (n > kMaxReaders ? kMaxReaders : n);

    pollMs_ = kPollMsDefault;
    misses_ = kMissesDefault;
    for (uint8_t r = 0; r < kMaxReaders; ++r) {
        presence_[r].clear();
        completePolls_[r] = 0;
        overfull_[r] = false;
    }
    lastNowMs_ = nowMs;
    uptimeMs_ = 0;
    nextHeartbeatMs_ = nowMs + kHeartbeatMs;
    snapshotPending_ = false;
    sincePending_ = false;
    log_.clear();
    boot_ = boot == 0 ? kBootMin : boot;
    droppedSinceReport_ = 0;
    rebootRequested_ = false;
    stats_ = BridgeStats{};
    seq_.reset();
    scheduler_.begin(readers_, pollMs_, nowMs);

    resetCause_ = cause;
    Frame hello = frameOf(MsgType::Hello);
    std::strncpy(hello.fw, fw_ != nullptr ? fw_ : "", kMaxFirmwareLength);
    hello.fw[kMaxFirmwareLength] = '\0';
    hello.proto = kProtocolVersion;
    hello.readers = readers_;
    hello.reset = cause;
    hello.boot = boot_;
    emit(hello);
    emitCfg();
}

void Bridge::advanceClock(uint32_t nowMs) {
    // millis() wraps every 49.7 days; the difference does not.
    uptimeMs_ += static_cast<uint32_t>(nowMs - lastNowMs_);
    lastNowMs_ = nowMs;
}

void Bridge::tick(uint32_t nowMs) {
    advanceClock(nowMs);
    if (rebootRequested_) return;

    reportOverflow();
    if (sincePending_) answerSince();
    if (snapshotPending_ && snapshotReady(nowMs)) sendSnapshot();
    if (reached(nowMs, nextHeartbeatMs_)) {
        emitHeartbeat();
        nextHeartbeatMs_ += kHeartbeatMs;
        // After a long stall (a debugger, a blocking probe) restart the rhythm instead of bursting.
        if (reached(nowMs, nextHeartbeatMs_)) nextHeartbeatMs_ = nowMs + kHeartbeatMs;
    }
    runSlot(nowMs);
}

void Bridge::onHostLine(const char* line, size_t len, uint32_t nowMs) {
    advanceClock(nowMs);
    if (rebootRequested_) return;

    const CommandResult c = parseCommand(line, len);
    switch (c.outcome) {
        case CommandResult::Outcome::Ignore:
            return;
        case CommandResult::Outcome::LineError: {
            ++stats_.hostLines;
            ++stats_.hostLinesRejected;
            Frame f = frameOf(MsgType::Err);
            f.errKind = ErrKind::Line;
            f.code = c.error;
            emit(f);
            return;
        }
        case CommandResult::Outcome::Nak: {
            ++stats_.hostLines;
            ++stats_.hostLinesRejected;
            Frame f = frameOf(MsgType::Nak);
            f.hseq = c.hseq;
            f.code = c.error;
            emit(f);
            return;
        }
        case CommandResult::Outcome::Execute:
            ++stats_.hostLines;
            execute(c.command, nowMs);
            return;
    }
}

void Bridge::onHostLineTooLong() {
    if (rebootRequested_) return;
    ++stats_.hostLines;
    ++stats_.hostLinesRejected;
    Frame f = frameOf(MsgType::Err);
    f.errKind = ErrKind::Line;
    f.code = ParseError::TooLong;
    emit(f);
}

void Bridge::execute(const Command& c, uint32_t nowMs) {
    Frame ack = frameOf(MsgType::Ack);
    ack.hseq = c.hseq;
    ack.cmd = c.type;
    switch (c.type) {
        case MsgType::Ping:
            emit(ack);
            break;
        case MsgType::Reset:
            emit(ack);
            rebootRequested_ = true;
            break;
        case MsgType::Present:
            emit(ack);
            // Several requests before the answer share one snapshot, which carries the latest hseq.
            if (!snapshotPending_) snapshotSinceMs_ = nowMs;
            snapshotPending_ = true;
            snapshotHseq_ = c.hseq;
            break;
        case MsgType::Since:
            // Answered (ack and replay, or nak gone) as soon as the whole answer fits, judged then.
            sincePending_ = true;
            sinceHseq_ = c.hseq;
            sinceBoot_ = c.boot;
            sinceAfter_ = c.after;
            answerSince();
            break;
        case MsgType::Set:
            pollMs_ = c.pollMs;
            misses_ = c.misses;
            scheduler_.setCycleMs(c.pollMs);
            emit(ack);
            emitCfg();
            break;
        case MsgType::Ident:
            // What the hello said, for a host that connected after it was sent (a daemon restart
            // does not reset the bridge), plus the uptime, which tells it whether it missed a reset.
            emit(ack);
            emitIdentity();
            break;
        default:
            break;
    }
}

ReaderState Bridge::readerState(uint8_t reader) const {
    if (reader >= readers_) return ReaderState::Fault;
    switch (scheduler_.health(reader)) {
        case Scheduler::Health::Faulted:
            return ReaderState::Fault;
        case Scheduler::Health::Unprobed:
            return ReaderState::Warming;
        case Scheduler::Health::Healthy:
            break;
    }
    // Settled once it has had misses_ complete polls: any tag in the field that flickers less than
    // the debounce allows has been seen by then, so the presence set is the truth, not a guess.
    return completePolls_[reader] >= misses_ ? ReaderState::Ok : ReaderState::Warming;
}

void Bridge::runSlot(uint32_t nowMs) {
    const Scheduler::Slot slot = scheduler_.next(nowMs);
    switch (slot.action) {
        case Scheduler::Action::Idle:
            return;
        case Scheduler::Action::Probe:
            probe(slot.reader, nowMs);
            return;
        case Scheduler::Action::Poll:
            poll(slot.reader, nowMs);
            return;
    }
}

void Bridge::probe(uint8_t reader, uint32_t nowMs) {
    const ReaderFault fault = port_.probe(reader);
    const Scheduler::Transition t = scheduler_.report(reader, fault == ReaderFault::None, nowMs);
    if (t == Scheduler::Transition::CameUp) {
        // The presence set is kept across a fault: the cards did not move because the reader
        // stopped answering. It is re-verified from here, and the reader reports W until it is.
        completePolls_[reader] = 0;
        overfull_[reader] = false;
    } else if (t == Scheduler::Transition::WentDown) {
        emitReaderError(reader, fault == ReaderFault::None ? ReaderFault::Comm : fault);
    }
}

void Bridge::poll(uint8_t reader, uint32_t nowMs) {
    scratch_.outcome = PollResult::Outcome::Complete;
    scratch_.fault = ReaderFault::None;
    scratch_.count = 0;
    port_.poll(reader, scheduler_.budgetUs(), scratch_);
    ++stats_.polls;

    if (scratch_.outcome == PollResult::Outcome::Fault) {
        // Not a miss: a reader that cannot see says nothing about the cards. No leave is invented.
        ++stats_.pollFailures;
        if (scheduler_.report(reader, false, nowMs) == Scheduler::Transition::WentDown) {
            emitReaderError(reader, scratch_.fault == ReaderFault::None ? ReaderFault::Comm : scratch_.fault);
        }
        return;
    }
    scheduler_.report(reader, true, nowMs);

    const bool complete = scratch_.outcome == PollResult::Outcome::Complete;
    if (!complete) ++stats_.partialPolls;
    const uint8_t count = scratch_.count > kMaxSeenPerPoll ? kMaxSeenPerPoll : scratch_.count;

    Debouncer::Result& changes = changes_;
    presence_[reader].observe(scratch_.uids, count, complete, misses_, changes);
    for (uint8_t i = 0; i < changes.count; ++i) {
        Frame f = frameOf(changes.changes[i].arrive ? MsgType::Arrive : MsgType::Leave);
        f.reader = reader;
        f.uid = changes.changes[i].uid;
        emit(f);
    }
    if (complete && completePolls_[reader] < 255) ++completePolls_[reader];

    // Too many tags on one antenna (a trick pushed into the play spot, a pile of cards): report it
    // once per episode, not once per poll.
    const bool overfull = changes.overfull || !complete;
    if (overfull && !overfull_[reader]) emitReaderError(reader, ReaderFault::Overfull);
    if (overfull) {
        overfull_[reader] = true;
    } else if (complete) {
        overfull_[reader] = false;
    }
}

size_t Bridge::frameStatus(Frame& f) const {
    f.statusLen = readers_;
    size_t total = 0;
    for (uint8_t r = 0; r < readers_; ++r) {
        f.status[r] = static_cast<char>(readerState(r));
        f.tags[r] = presence_[r].size();
        total += presence_[r].size();
    }
    return total;
}

bool Bridge::snapshotReady(uint32_t nowMs) const {
    if (reached(nowMs, snapshotSinceMs_ + kSnapshotMaxWaitMs)) return true;
    for (uint8_t r = 0; r < readers_; ++r) {
        if (readerState(r) == ReaderState::Warming) return false;
    }
    return true;
}

bool Bridge::sendSnapshot() {
    Frame head = frameOf(MsgType::Snap);
    Frame tail = frameOf(MsgType::SnapEnd);
    const size_t total = frameStatus(tail);
    head.hseq = tail.hseq = snapshotHseq_;
    head.total = tail.total = static_cast<uint16_t>(total);

    // The snapshot's frames in order: head, one `tag` per present tag (readers in index order), tail.
    auto eachFrame = [&](auto&& use) {
        use(head);
        for (uint8_t r = 0; r < readers_; ++r) {
            for (uint8_t i = 0; i < presence_[r].size(); ++i) {
                Frame t = frameOf(MsgType::Tag);
                t.reader = r;
                t.uid = presence_[r].tag(i);
                use(t);
            }
        }
        use(tail);
    };
    if (out_.room() < measure(seq_, eachFrame)) return false;

    eachFrame([&](Frame& f) { emit(f); });
    snapshotPending_ = false;
    return true;
}

bool Bridge::answerSince() {
    uint32_t from = 0;
    if (sinceBoot_ != boot_ || !replayStart(sinceAfter_, seq_.last(), seq_.count(), from) ||
        !log_.holdsAllAfter(from)) {
        // Another boot, a seq this boot has not reached, or an event after it was overwritten: the
        // host falls back to a snapshot, and knows the order of what that yields is unknown.
        sincePending_ = false;
        ++stats_.gone;
        Frame nak = frameOf(MsgType::Nak);
        nak.hseq = sinceHseq_;
        nak.code = ParseError::Gone;
        emit(nak);
        return true;
    }
    size_t first = 0;
    while (first < log_.size() && log_.at(first).line <= from) ++first;

    Frame ack = frameOf(MsgType::Ack);
    ack.hseq = sinceHseq_;
    ack.cmd = MsgType::Since;
    Frame head = frameOf(MsgType::Replay);
    Frame tail = frameOf(MsgType::ReplayEnd);
    head.hseq = tail.hseq = sinceHseq_;
    head.count = tail.count = static_cast<uint16_t>(log_.size() - first);
    // The answer's frames in order: ack, head, one `rec` per logged event after `from`, tail. It
    // holds exactly the events logged before the replay line: it is positioned in the stream.
    auto eachFrame = [&](auto&& use) {
        use(ack);
        use(head);
        for (size_t i = first; i < log_.size(); ++i) {
            const LoggedEvent& e = log_.at(i);
            Frame rec = frameOf(MsgType::Rec);
            rec.oseq = e.seq;
            rec.recKind = e.type;
            rec.reader = e.reader;
            rec.uid = e.uid;
            use(rec);
        }
        use(tail);
    };
    if (out_.room() < measure(seq_, eachFrame)) return false;

    eachFrame([&](Frame& f) { emit(f); });
    sincePending_ = false;
    ++stats_.replays;
    return true;
}

void Bridge::emitCfg() {
    Frame f = frameOf(MsgType::Cfg);
    f.pollMs = pollMs_;
    f.misses = misses_;
    emit(f);
}

void Bridge::emitReaderError(uint8_t reader, ReaderFault fault) {
    Frame f = frameOf(MsgType::Err);
    f.errKind = ErrKind::Reader;
    f.reader = reader;
    f.fault = fault;
    emit(f);
}

void Bridge::emitIdentity() {
    Frame f = frameOf(MsgType::Identity);
    std::strncpy(f.fw, fw_ != nullptr ? fw_ : "", kMaxFirmwareLength);
    f.fw[kMaxFirmwareLength] = '\0';
    f.proto = kProtocolVersion;
    f.readers = readers_;
    f.reset = resetCause_;
    f.uptimeS = uptimeS();
    f.boot = boot_;
    emit(f);
}

void Bridge::emitHeartbeat() {
    Frame f = frameOf(MsgType::Hb);
    f.uptimeS = uptimeS();
    frameStatus(f);
    f.boot = boot_;
    emit(f);
}

void Bridge::reportOverflow() {
    if (droppedSinceReport_ == 0) return;
    Frame f = frameOf(MsgType::Err);
    f.errKind = ErrKind::Overflow;
    f.dropped = droppedSinceReport_;
    // Only when it fits: reporting an overflow into a full buffer would just make another one.
    SeqCounter dry = seq_;
    Frame probe = f;
    probe.seq = dry.take();
    char buf[kLineBufferSize];
    const size_t n = encodeFrame(probe, buf, sizeof buf);
    if (n == 0 || out_.room() < n) return;
    droppedSinceReport_ = 0;
    emit(f);
}

bool Bridge::emit(Frame& f) {
    // The number is spent even if the line is not sent: that gap is how the host learns of the loss.
    f.seq = seq_.take();
    // An event is logged when it is created, sent or not: the log is how the host gets it back.
    if (f.type == MsgType::Arrive || f.type == MsgType::Leave) log_.append(seq_.count(), f.seq, f.type, f.reader, f.uid);
    char buf[kLineBufferSize];
    const size_t n = encodeFrame(f, buf, sizeof buf);
    bool sent = false;
    if (n == 0) {
        ++stats_.encodeFailures;
    } else {
        sent = out_.write(buf, n);
    }
    if (!sent) {
        ++stats_.linesDropped;
        if (droppedSinceReport_ < kSeqMax) ++droppedSinceReport_;
        return false;
    }
    ++stats_.linesSent;
    return true;
}

}  // namespace tenace
