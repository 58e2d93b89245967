// The portable core linked for the RP2040's Cortex-M0+ the way the sketch links it: one Bridge, the
// 16 KB transmit queue, the line assembler, four readers. The Arduino glue (USB, SPI, MFRC522, the
// watchdog) is replaced by memory-mapped stand-ins, so the compiler keeps every path the glue can
// reach and `make cross` can report what the core costs in flash and RAM. Never flashed.
#include <cstddef>
#include <cstdint>

#include "TenaceBridge.h"

using namespace tenace;

namespace {

// Stand-ins for hardware registers: volatile, so nothing read from them is folded away.
volatile uint32_t gClock;
volatile uint8_t gRxByte;
volatile uint8_t gTxRoom;
volatile uint8_t gChip[kMaxReaders];
volatile uint8_t gTagBytes[10];

class RegisterPort final : public ReaderPort {
   public:
    uint8_t readerCount() const override { return 4; }
    ReaderFault probe(uint8_t reader) override {
        return gChip[reader] == 0x92 ? ReaderFault::None : ReaderFault::NoChip;
    }
    void poll(uint8_t reader, uint32_t budgetUs, PollResult& out) override {
        out = PollResult{};
        if (gChip[reader] != 0x92 || budgetUs == 0) {
            out.outcome = PollResult::Outcome::Fault;
            out.fault = ReaderFault::Timeout;
            return;
        }
        Uid& uid = out.uids[0];
        uid.len = 7;
        for (uint8_t i = 0; i < uid.len; ++i) uid.bytes[i] = gTagBytes[i];
        if (uidPlausible(uid)) out.count = 1;
    }
};

RegisterPort port;
TxQueue<16384> txQueue;
LineAssembler rx;
Bridge bridge(port, txQueue, "2.0.0");

}  // namespace

int main() {
    bridge.begin(gClock, ResetCause::Power, static_cast<uint16_t>(gClock | 1u));
    for (;;) {
        const uint32_t now = gClock;
        switch (rx.feed(static_cast<char>(gRxByte))) {
            case LineAssembler::Event::Line: bridge.onHostLine(rx.line(), rx.size(), now); break;
            case LineAssembler::Event::TooLong: bridge.onHostLineTooLong(); break;
            case LineAssembler::Event::None: break;
        }
        bridge.tick(now);
        const char* p = nullptr;
        const size_t n = txQueue.peek(p);
        if (n > 0) {
            gRxByte = static_cast<uint8_t>(p[0]);
            txQueue.consume(n < gTxRoom ? n : gTxRoom);
        }
        if (bridge.rebootRequested()) return 1;
    }
}
