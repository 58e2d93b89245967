// Host line -> what the device should do about it. Separates "what did the host ask" from "how do we
// answer", so the answer rules (PROTOCOL.md "Answers to host lines") are testable on their own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "protocol.h"

namespace tenace {

struct Command {
    MsgType type = MsgType::Ping;  // a host command type (isHostCommand)
    uint16_t hseq = 0;
    uint16_t pollMs = 0;  // Set
    uint8_t misses = 0;   // Set
    uint16_t boot = 0;    // Since
    uint16_t after = 0;   // Since
};

struct CommandResult {
    enum class Outcome : uint8_t {
        Ignore,     // empty line: say nothing
        Execute,    // `command` is valid; run it, then ack
        Nak,        // the line is intact (CRC and seq good) but not an acceptable command: nak hseq code
        LineError,  // the line is damaged; its seq cannot be trusted: err line code
    };

    Outcome outcome = Outcome::Ignore;
    Command command;
    uint16_t hseq = 0;                    // Nak
    ParseError error = ParseError::None;  // Nak, LineError
};

CommandResult parseCommand(const char* line, size_t len);

}  // namespace tenace
