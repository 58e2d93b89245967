#include "command.h"
#include "harness.h"
#include "support.h"

using namespace tenace;
using support::framed;
using O = CommandResult::Outcome;

namespace {
CommandResult cmd(const std::string& line) { return parseCommand(line.data(), line.size()); }
}  // namespace

TEST(command_parses_each_host_command) {
    CommandResult r = cmd(framed("41 ping"));
    CHECK(r.outcome == O::Execute);
    CHECK_EQ(r.command.type, MsgType::Ping);
    CHECK_EQ(r.command.hseq, 41);
    CHECK_EQ(cmd(framed("0 reset")).command.type, MsgType::Reset);
    CHECK_EQ(cmd(framed("65535 present")).command.hseq, 65535);
    r = cmd(framed("7 set 20 4") + "\r");
    CHECK(r.outcome == O::Execute);
    CHECK_EQ(r.command.type, MsgType::Set);
    CHECK_EQ(r.command.pollMs, 20);
    CHECK_EQ(r.command.misses, 4);
    r = cmd(framed("8 since 4660 65535"));
    CHECK(r.outcome == O::Execute);
    CHECK_EQ(r.command.type, MsgType::Since);
    CHECK_EQ(r.command.boot, 4660);
    CHECK_EQ(r.command.after, 65535);
}

TEST(command_naks_intact_lines_it_cannot_execute) {
    CommandResult r = cmd(framed("8 set 5 4"));
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.hseq, 8);
    CHECK_EQ(r.error, ParseError::BadField);
    r = cmd(framed("9 set 50"));
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.error, ParseError::MissingField);
    r = cmd(framed("10 ping 1"));
    CHECK_EQ(r.error, ParseError::ExtraField);
    r = cmd(framed("12 since 0 5"));  // boot 0 is never used
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.error, ParseError::BadField);
    r = cmd(framed("13 since 4660"));
    CHECK_EQ(r.error, ParseError::MissingField);
    r = cmd(framed("11 reboot"));
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.hseq, 11);
    CHECK_EQ(r.error, ParseError::UnknownType);
}

TEST(command_naks_device_messages_sent_to_the_device) {
    // Our own output looped back must not be mistaken for commands, valid or not.
    CommandResult r = cmd(framed("12 arrive 0 DEADBEEF"));
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.error, ParseError::UnknownType);
    r = cmd(framed("0 arrive 0 DEADBEEF"));  // also breaks the seq-0 rule
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.error, ParseError::UnknownType);
    r = cmd(framed("13 hb 1 O 9 9 9"));
    CHECK(r.outcome == O::Nak);
    CHECK_EQ(r.error, ParseError::UnknownType);
}

TEST(command_reports_damaged_lines_without_a_seq) {
    CHECK(cmd("41 ping*00").outcome == O::LineError);
    CHECK_EQ(cmd("41 ping*00").error, ParseError::BadCrc);
    CHECK_EQ(cmd("41 ping").error, ParseError::NoChecksum);
    CHECK_EQ(cmd(framed("041 ping")).error, ParseError::BadSeq);
    CHECK_EQ(cmd(framed("41  ping")).error, ParseError::BadFrame);
    CHECK_EQ(cmd(std::string(100, 'x')).error, ParseError::TooLong);
    CHECK_EQ(cmd("41 p\x80ng*00").error, ParseError::BadChar);
}

TEST(command_ignores_empty_lines) {
    CHECK(cmd("").outcome == O::Ignore);
    CHECK(cmd("\r").outcome == O::Ignore);
}
