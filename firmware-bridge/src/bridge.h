// The firmware's core: polls readers through a ReaderPort, debounces what they see, and speaks
// protocol v2 through a LineSink. No clocks, no I/O of its own: the glue passes the time in and
// moves bytes, so the whole behaviour runs unchanged under g++ in the tests.
//
// Single-threaded and run-to-completion: every call finishes its lines before returning, so a
// snapshot or a replay is never interleaved with arrive/leave lines and its position in the
// sequence is exact.
#pragma once

#include <cstddef>
#include <cstdint>

#include "command.h"
#include "debouncer.h"
#include "event_log.h"
#include "frame.h"
#include "line_sink.h"
#include "protocol.h"
#include "reader_port.h"
#include "scheduler.h"
#include "seq.h"

namespace tenace {

struct BridgeStats {
    uint32_t linesSent = 0;
    uint32_t linesDropped = 0;     // refused by the sink (seq consumed: the host sees a gap)
    uint32_t encodeFailures = 0;   // a frame the encoder refused; a bug if ever non-zero
    uint32_t hostLines = 0;        // non-empty host lines received
    uint32_t hostLinesRejected = 0;
    uint32_t polls = 0;
    uint32_t pollFailures = 0;
    uint32_t partialPolls = 0;
    uint32_t replays = 0;          // answers to `since`
    uint32_t gone = 0;             // `since` answered `nak gone`
};

class Bridge {
   public:
    Bridge(ReaderPort& port, LineSink& out, const char* firmwareVersion);

    // After every reset: restores default settings, empty presence and an empty event log, then
    // sends hello and cfg. `boot` identifies this run (1..65535, random, PROTOCOL.md "Boot id"):
    // the glue draws it from a hardware source; 0 is taken as 1.
    void begin(uint32_t nowMs, ResetCause cause, uint16_t boot);

    // Call as often as possible. Runs at most one reader slot, plus any heartbeat, pending
    // snapshot or replay, and overflow report that are due.
    void tick(uint32_t nowMs);

    // One host line (the bytes before '\n'), and the line assembler's "that was too long".
    void onHostLine(const char* line, size_t len, uint32_t nowMs);
    void onHostLineTooLong();

    // A `reset` was acknowledged: the glue flushes the output, then reboots. The Bridge goes quiet.
    bool rebootRequested() const { return rebootRequested_; }

    uint8_t readerCount() const { return readers_; }
    ReaderState readerState(uint8_t reader) const;
    const Debouncer& presence(uint8_t reader) const { return presence_[reader]; }
    uint16_t pollMs() const { return pollMs_; }
    uint8_t misses() const { return misses_; }
    bool snapshotPending() const { return snapshotPending_; }
    bool replayPending() const { return sincePending_; }
    uint16_t boot() const { return boot_; }
    const EventLog& eventLog() const { return log_; }
    uint32_t uptimeS() const { return static_cast<uint32_t>(uptimeMs_ / 1000u); }
    const BridgeStats& stats() const { return stats_; }

   private:
    void advanceClock(uint32_t nowMs);
    bool emit(Frame& f);
    void emitCfg();
    void emitReaderError(uint8_t reader, ReaderFault fault);
    void emitHeartbeat();
    void emitIdentity();
    void runSlot(uint32_t nowMs);
    void probe(uint8_t reader, uint32_t nowMs);
    void poll(uint8_t reader, uint32_t nowMs);
    void execute(const Command& c, uint32_t nowMs);
    bool snapshotReady(uint32_t nowMs) const;
    bool sendSnapshot();
    bool answerSince();
    size_t frameStatus(Frame& f) const;
    void reportOverflow();

    ReaderPort& port_;
    LineSink& out_;
    const char* fw_;
    uint8_t readers_;
    ResetCause resetCause_ = ResetCause::Unknown;
    uint16_t boot_ = kBootMin;

    SeqCounter seq_;
    EventLog log_;
    Scheduler scheduler_;
    Debouncer presence_[kMaxReaders];
    uint8_t completePolls_[kMaxReaders] = {};  // since the reader (re)started; saturates
    bool overfull_[kMaxReaders] = {};           // latched until a clean complete poll
    PollResult scratch_;               // members, not locals: they are the largest objects here
    Debouncer::Result changes_;        // and the RP2040's core-0 stack is small

    uint16_t pollMs_ = kPollMsDefault;
    uint8_t misses_ = kMissesDefault;

    uint32_t lastNowMs_ = 0;
    uint64_t uptimeMs_ = 0;
    uint32_t nextHeartbeatMs_ = 0;

    bool snapshotPending_ = false;
    uint16_t snapshotHseq_ = 0;
    uint32_t snapshotSinceMs_ = 0;

    // A `since` waiting for room for its whole answer; a later one replaces it.
    bool sincePending_ = false;
    uint16_t sinceHseq_ = 0;
    uint16_t sinceBoot_ = 0;
    uint16_t sinceAfter_ = 0;

    uint16_t droppedSinceReport_ = 0;
    bool rebootRequested_ = false;
    BridgeStats stats_;
};

}  // namespace tenace
