#include "command.h"

#include "frame_codec.h"

namespace tenace {

CommandResult parseCommand(const char* line, size_t len) {
    CommandResult r;
    const ParseResult p = parseLine(line, len);

    if (p.error == ParseError::Empty) {
        r.outcome = CommandResult::Outcome::Ignore;
        return r;
    }
    // A well-formed line of a device type (someone looped our output back, or a confused host)
    // is not a command, whatever else is wrong with it.
    if (p.haveSeq && p.haveType && !isHostCommand(p.frame.type)) {
        r.outcome = CommandResult::Outcome::Nak;
        r.hseq = p.frame.seq;
        r.error = ParseError::UnknownType;
        return r;
    }
    if (!p.ok()) {
        if (p.haveSeq && isNakCode(p.error)) {
            r.outcome = CommandResult::Outcome::Nak;
            r.hseq = p.frame.seq;
            r.error = p.error;
        } else {
            r.outcome = CommandResult::Outcome::LineError;
            r.error = p.error;
        }
        return r;
    }
    r.outcome = CommandResult::Outcome::Execute;
    r.command.type = p.frame.type;
    r.command.hseq = p.frame.seq;
    r.command.pollMs = p.frame.pollMs;
    r.command.misses = p.frame.misses;
    r.command.boot = p.frame.boot;
    r.command.after = p.frame.after;
    return r;
}

}  // namespace tenace
