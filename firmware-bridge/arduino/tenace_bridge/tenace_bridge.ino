// tenace firmware bridge: Raspberry Pi Pico (RP2040, arduino-pico core) + MFRC522 readers on SPI0.
//
// This file is the glue and nothing else: pins, the MFRC522 ReaderPort, the USB serial pump, the
// watchdog and the reset cause. The behaviour (protocol v2: boot ids and `since` replay; debouncing,
// scheduling, resync) lives in the plain C++ core in ../../src, built as the TenaceBridge library.
// See ../../README.md to build and flash, ../../PROTOCOL.md for the wire format,
// ../../../hardware/wiring.md for the pins.
//
// Pinned versions, the ones ../../README.md installs ("Building and flashing"): arduino-cli 1.1.1,
// the arduino-pico core rp2040:rp2040 4.4.0 (rp2040.getResetReason, rp2040.hwrand32), the MFRC522
// library 1.4.11 ("MFRC522" by GithubCommunity), and the TenaceBridge library (this firmware-bridge/
// folder). The daemon needs protocol 2: docs/raspberry-pi.md has the compatibility table.

#include <Arduino.h>
#include <MFRC522.h>
#include <SPI.h>
#include <TenaceBridge.h>
#include <hardware/watchdog.h>

#include <array>
#include <utility>

using namespace tenace;

namespace {

constexpr char kFirmwareVersion[] = "2.0.0";  // 2.x speaks protocol v2; see CHANGELOG.md
static_assert(sizeof(kFirmwareVersion) - 1 <= kMaxFirmwareLength, "firmware version too long for hello");

// ---- Pins (GPIO numbers; hardware/wiring.md has the physical pins) ---------------------------
constexpr uint8_t kPinSpiMiso = 16;  // SPI0 RX, shared, through the 74LVC125 buffer
constexpr uint8_t kPinSpiSck = 18;   // SPI0 SCK
constexpr uint8_t kPinSpiMosi = 19;  // SPI0 TX
// Reader i is the play spot of seat i in the daemon's config (usually 0=N 1=E 2=S 3=W). To fit up to
// 8 readers, extend both arrays with GP10..GP13 (chip selects) and GP6..GP9 (resets).
constexpr uint8_t kPinCs[] = {17, 20, 21, 22};  // one chip select per reader; also enables its MISO buffer
constexpr uint8_t kPinRst[] = {2, 3, 4, 5};     // one NRSTPD per reader, so one can be reset alone
constexpr uint8_t kReaderCount = sizeof(kPinCs);
static_assert(sizeof(kPinRst) == kReaderCount, "one reset pin per chip select");
static_assert(kReaderCount >= 1 && kReaderCount <= kMaxReaders, "1..8 readers");
constexpr uint8_t kPinPollProbe = 15;  // high while a reader is polled: put a logic analyser here
constexpr uint8_t kPinLed = LED_BUILTIN;

// ---- Timing ------------------------------------------------------------------------------------
constexpr uint32_t kWatchdogMs = 2000;  // > the slowest probe (about 110 ms) with a wide margin
// RF timeout programmed into each MFRC522's timer: 40 ticks of 25 us = 1 ms. ISO 14443A tags answer
// within about 0.1 ms (frame delay time 1172/fc) and the timer stops at the first received bits, so
// 1 ms is ample. The library's default, 25 ms, would make every empty reader cost 25 ms a poll.
constexpr uint8_t kTReloadHi = 0x00;
constexpr uint8_t kTReloadLo = 0x28;
// Receiver gain: the library default (33 dB). It sets the read range more than anything else in
// software: raise it (RxGain_38dB, RxGain_43dB) if cards flicker through a thick tabletop, lower it
// (RxGain_23dB) if cards are read from outside the play spot. See hardware/antennas-and-tags.md.
constexpr MFRC522::PCD_RxGain kRxGain = MFRC522::RxGain_33dB;
// A REQA/WUPA that "times out" after much longer than the chip timer means the chip never raised its
// timer interrupt: the library gave up on a dead or absent chip. That is a fault, not an empty field.
constexpr uint32_t kDeadChipUs = 8000;
// Bytes of host input handled per loop, so a flood cannot starve the readers.
constexpr int kMaxRxPerLoop = 256;

// Written to a watchdog scratch register before a host-requested reboot, to tell it apart from
// other watchdog reboots afterwards. Scratch 0-3 are free for applications (4-7 belong to the
// bootrom); they survive a watchdog reboot but not a power cycle.
constexpr uint32_t kHostResetMagic = 0x7E4ACE01u;

// millis()/micros() as the 32-bit counters they are on the RP2040; all arithmetic on them is modulo
// 2^32 and wrap-safe.
uint32_t nowMs() { return static_cast<uint32_t>(millis()); }
uint32_t nowUs() { return static_cast<uint32_t>(micros()); }

// ---- Reader port ---------------------------------------------------------------------------------

// MFRC522 VersionReg values seen in the field: 0x91/0x92 genuine NXP v1/v2, 0x90 v0, 0x88/0x89 Fudan
// FM17522 clones, 0x12 and 0xB2 other clones. 0x00 and 0xFF mean nothing is driving MISO sensibly.
bool knownVersion(uint8_t v) {
    switch (v) {
        case 0x12: case 0x88: case 0x89: case 0x90: case 0x91: case 0x92: case 0xB2:
            return true;
        default:
            return false;
    }
}

class Mfrc522Port final : public ReaderPort {
   public:
    uint8_t readerCount() const override { return kReaderCount; }

    ReaderFault probe(uint8_t r) override {
        // Hard reset through NRSTPD: also recovers a chip whose SPI state machine is wedged.
        digitalWrite(kPinRst[r], LOW);
        delayMicroseconds(10);
        digitalWrite(kPinRst[r], HIGH);
        delay(50);  // oscillator start-up; the datasheet needs far less, the library uses 50 ms too

        MFRC522& chip = chips_[r];
        // The library must not touch NRSTPD itself (it would read the pin as an input and may leave
        // it floating); we own the reset pins.
        chip.PCD_Init(kPinCs[r], MFRC522::UNUSED_PIN);
        const uint8_t v = chip.PCD_ReadRegister(MFRC522::VersionReg);
        if (v == 0x00 || v == 0xFF) return ReaderFault::NoChip;
        if (!knownVersion(v)) return ReaderFault::Comm;  // something answers, but not as a reader would
        chip.PCD_WriteRegister(MFRC522::TReloadRegH, kTReloadHi);
        chip.PCD_WriteRegister(MFRC522::TReloadRegL, kTReloadLo);
        chip.PCD_SetAntennaGain(kRxGain);
        // Read back what we wrote: a second module driving MISO (the RC522 tri-state problem, see
        // README) shows up here as corrupted reads.
        if (chip.PCD_ReadRegister(MFRC522::TReloadRegL) != kTReloadLo) return ReaderFault::Comm;
        version_[r] = v;
        return ReaderFault::None;
    }

    void poll(uint8_t r, uint32_t budgetUs, PollResult& out) override {
        digitalWrite(kPinPollProbe, HIGH);
        inventory(r, budgetUs, out);
        digitalWrite(kPinPollProbe, LOW);
    }

   private:
    // ISO 14443-3 inventory: WUPA wakes every tag in the field (including those we halted on the
    // previous poll), then select one, halt it, REQA for the next (halted tags stay silent), until
    // nothing answers. A tag that leaves and comes back is IDLE again, so REQA finds it too.
    void inventory(uint8_t r, uint32_t budgetUs, PollResult& out) {
        MFRC522& chip = chips_[r];
        const uint32_t start = nowUs();
        out.outcome = PollResult::Outcome::Complete;
        out.count = 0;

        // A dead, unplugged or reset chip must not look like an empty antenna: that would be a leave
        // for every card on it. One register read per poll (a few microseconds) rules it out.
        // 0x00/0xFF: nothing drives the line (the pull-ups on the buffer inputs and on MISO make an
        // unplugged reader read 0xFF). Anything else that is wrong: a garbled bus.
        const uint8_t v = chip.PCD_ReadRegister(MFRC522::VersionReg);
        if (v != version_[r]) {
            fault(out, v == 0x00 || v == 0xFF ? ReaderFault::Timeout : ReaderFault::Comm);
            return;
        }

        uint8_t atqa[2];
        uint8_t atqaSize = sizeof atqa;
        uint32_t t0 = nowUs();
        MFRC522::StatusCode st = chip.PICC_WakeupA(atqa, &atqaSize);
        for (uint8_t attempts = 0;; ++attempts) {
            if (st == MFRC522::STATUS_TIMEOUT) {
                if (nowUs() - t0 > kDeadChipUs) fault(out, ReaderFault::Timeout);
                return;  // nothing (more) answers: the inventory is complete
            }
            // Bounded: a tag that garbles every answer is unreadable, not a reason to spin.
            if (attempts > kMaxSeenPerPoll + 2) return;
            if (st == MFRC522::STATUS_OK || st == MFRC522::STATUS_COLLISION) {
                MFRC522::Uid uid;
                if (chip.PICC_Select(&uid, 0) == MFRC522::STATUS_OK) {
                    if (!add(out, uid)) {
                        out.outcome = PollResult::Outcome::Partial;  // more tags than we can list
                        return;
                    }
                    chip.PICC_HaltA();
                }
                // A failed select (a card sliding in or out, noise) is not fatal: the tag answers the
                // next REQA or the next poll, and the debouncer absorbs the miss.
            }
            if (nowUs() - start >= budgetUs) {
                out.outcome = PollResult::Outcome::Partial;  // out of time: what we saw is true, what we
                return;                                      // did not see is unknown
            }
            atqaSize = sizeof atqa;
            t0 = nowUs();
            st = chip.PICC_RequestA(atqa, &atqaSize);
        }
    }

    static void fault(PollResult& out, ReaderFault f) {
        out.outcome = PollResult::Outcome::Fault;
        out.fault = f;
    }

    static bool add(PollResult& out, const MFRC522::Uid& uid) {
        if (out.count >= kMaxSeenPerPoll) return false;
        Uid& u = out.uids[out.count];
        u.len = uid.size <= kMaxUidBytes ? uid.size : 0;  // the debouncer drops anything implausible
        for (uint8_t i = 0; i < u.len; ++i) u.bytes[i] = uid.uidByte[i];
        for (uint8_t i = 0; i < out.count; ++i) {
            if (out.uids[i] == u) return true;  // a tag that ignored HLTA and answered twice
        }
        ++out.count;
        return true;
    }

    template <size_t... I>
    static std::array<MFRC522, sizeof...(I)> makeChips(std::index_sequence<I...>) {
        return {{MFRC522(kPinCs[I], MFRC522::UNUSED_PIN)...}};
    }

    std::array<MFRC522, kReaderCount> chips_ = makeChips(std::make_index_sequence<kReaderCount>{});
    uint8_t version_[kReaderCount] = {};
};

// ---- Globals -------------------------------------------------------------------------------------

// 16 KiB holds a worst-case answer to `since` (kMaxReplayBytes, about 12.6 KB: 256 records) or
// snapshot (kMaxSnapshotBytes) plus the lines around it.
constexpr size_t kTxQueueBytes = 16384;
static_assert(kTxQueueBytes >= kMaxSnapshotBytes, "a whole snapshot must fit in the transmit queue");
static_assert(kTxQueueBytes >= kMaxReplayBytes, "a whole replay must fit in the transmit queue");

Mfrc522Port port;
TxQueue<kTxQueueBytes> txQueue;
LineAssembler rx;
Bridge bridge(port, txQueue, kFirmwareVersion);

ResetCause readResetCause() {
    if (watchdog_hw->scratch[0] == kHostResetMagic) {
        watchdog_hw->scratch[0] = 0;
        return ResetCause::Host;
    }
    switch (rp2040.getResetReason()) {
        case RP2040::PWRON_RESET: return ResetCause::Power;
        case RP2040::RUN_PIN_RESET: return ResetCause::Pin;
        case RP2040::WDT_RESET: return ResetCause::Watchdog;
        case RP2040::DEBUG_RESET: return ResetCause::Debug;
        default: return ResetCause::Unknown;  // includes a reboot we did not ask for (e.g. an upload)
    }
}

// Moves queued lines to USB as fast as the CDC endpoint takes them, never blocking: if the host is
// not reading, the queue fills, the Bridge counts the lines it cannot queue, and the host sees the
// gap and an `err overflow` when it reads again.
void drainTx() {
    const char* p = nullptr;
    size_t n = 0;
    while ((n = txQueue.peek(p)) > 0) {
        const int room = Serial.availableForWrite();
        if (room <= 0) return;
        const size_t chunk = n < static_cast<size_t>(room) ? n : static_cast<size_t>(room);
        const size_t written = Serial.write(reinterpret_cast<const uint8_t*>(p), chunk);
        txQueue.consume(written);
        if (written < chunk) return;
    }
}

void pumpRx() {
    for (int i = 0; i < kMaxRxPerLoop && Serial.available() > 0; ++i) {
        const int c = Serial.read();
        if (c < 0) return;
        switch (rx.feed(static_cast<char>(c))) {
            case LineAssembler::Event::Line:
                bridge.onHostLine(rx.line(), rx.size(), nowMs());
                break;
            case LineAssembler::Event::TooLong:
                bridge.onHostLineTooLong();
                break;
            case LineAssembler::Event::None:
                break;
        }
    }
}

// The ack is already queued: give it up to 200 ms to leave, then reboot through the watchdog.
void rebootForHost() {
    const uint32_t deadline = nowMs() + 200;
    while (txQueue.used() > 0 && static_cast<int32_t>(nowMs() - deadline) < 0) {
        drainTx();
        rp2040.wdt_reset();
    }
    Serial.flush();
    delay(20);
    watchdog_hw->scratch[0] = kHostResetMagic;
    rp2040.reboot();
}

// A random boot id, 1..65535, from the ROSC (PROTOCOL.md "Boot id"): a host that missed the hello
// still sees the reset in the next heartbeat. Watchdog scratch 1 survives a watchdog or software
// reboot (a host `reset`, a hang), so then the id is also never the previous one.
uint16_t drawBootId() {
    const uint32_t previous = watchdog_hw->scratch[1];
    uint16_t id = 0;
    while (id == 0 || id == previous) id = static_cast<uint16_t>(rp2040.hwrand32());
    watchdog_hw->scratch[1] = id;
    return id;
}

void showStatus() {
    // Steady: every reader OK. Blinking: at least one reader warming up or faulted.
    bool allOk = true;
    for (uint8_t r = 0; r < bridge.readerCount(); ++r) allOk = allOk && bridge.readerState(r) == ReaderState::Ok;
    digitalWrite(kPinLed, allOk || ((nowMs() / 250) % 2 == 0) ? HIGH : LOW);
}

}  // namespace

void setup() {
    const ResetCause cause = readResetCause();

    // Every chip select high before SPI starts: no reader selected, every MISO buffer off.
    for (uint8_t r = 0; r < kReaderCount; ++r) {
        pinMode(kPinCs[r], OUTPUT);
        digitalWrite(kPinCs[r], HIGH);
        pinMode(kPinRst[r], OUTPUT);
        digitalWrite(kPinRst[r], HIGH);
    }
    pinMode(kPinPollProbe, OUTPUT);
    digitalWrite(kPinPollProbe, LOW);
    pinMode(kPinLed, OUTPUT);

    SPI.setRX(kPinSpiMiso);
    SPI.setSCK(kPinSpiSck);
    SPI.setTX(kPinSpiMosi);
    SPI.begin();

    Serial.begin(115200);  // USB CDC: the baud rate is ignored
    rp2040.wdt_begin(kWatchdogMs);

    // No waiting for the host: the hello is queued and goes out when USB is up. A host that opens
    // the port later sends `ident` and `present` (PROTOCOL.md "Connecting").
    bridge.begin(nowMs(), cause, drawBootId());
}

void loop() {
    rp2040.wdt_reset();
    pumpRx();
    bridge.tick(nowMs());
    drainTx();
    if (bridge.rebootRequested()) rebootForHost();
    showStatus();
}
