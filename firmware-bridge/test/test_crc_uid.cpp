#include <cstring>

#include "crc8.h"
#include "harness.h"
#include "support.h"
#include "uid.h"

using namespace tenace;

TEST(crc8_matches_the_catalogue_check_value) {
    // CRC-8/SMBUS check value from the CRC catalogue.
    CHECK_EQ(crc8("123456789", 9), 0xF4);
    CHECK_EQ(crc8("", 0), 0x00);
    const uint8_t zero = 0;
    CHECK_EQ(crc8(&zero, 1), 0x00);
    const uint8_t one = 1;
    CHECK_EQ(crc8(&one, 1), 0x07);
}

TEST(crc8_is_incremental) {
    const char* s = "0 hello 1.0.0 1 4 power";
    const size_t n = std::strlen(s);
    for (size_t cut = 0; cut <= n; ++cut) {
        CHECK_EQ(crc8(s + cut, n - cut, crc8(s, cut)), crc8(s, n));
    }
}

TEST(crc8_detects_every_single_bit_error_in_a_line) {
    char line[] = "65535 tag 7 04112233445566778899";
    const size_t n = std::strlen(line);
    const uint8_t good = crc8(line, n);
    for (size_t i = 0; i < n; ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            line[i] = static_cast<char>(line[i] ^ (1 << bit));
            CHECK(crc8(line, n) != good);
            line[i] = static_cast<char>(line[i] ^ (1 << bit));
        }
    }
}

TEST(uid_hex_round_trip_for_every_length) {
    for (const char* h : {"DEADBEEF", "04A1B2C3D4E5F6", "04112233445566778899"}) {
        const Uid u = support::uid(h);
        CHECK_EQ(static_cast<size_t>(u.len) * 2, std::strlen(h));
        CHECK_EQ(support::hex(u), std::string(h));
    }
}

TEST(uid_hex_rejects_bad_input) {
    Uid u;
    CHECK(!uidFromHex("deadbeef", 8, u));        // lowercase
    CHECK(!uidFromHex("DEADBEE", 7, u));         // odd
    CHECK(!uidFromHex("DEADBEEF00", 10, u));     // 5 bytes
    CHECK(!uidFromHex("", 0, u));
    CHECK(!uidFromHex("DEADBEEG", 8, u));
    CHECK(!uidFromHex("0411223344556677889900", 22, u));  // 11 bytes
}

TEST(uid_to_hex_needs_room_and_a_valid_length) {
    Uid u = support::uid("04A1B2C3D4E5F6");
    char buf[14];
    CHECK_EQ(uidToHex(u, buf, 13), 0u);
    CHECK_EQ(uidToHex(u, buf, 14), 14u);
    u.len = 5;
    CHECK_EQ(uidToHex(u, buf, sizeof buf), 0u);
}

TEST(uid_plausibility_filters_half_read_and_null_uids) {
    CHECK(uidPlausible(support::uid("04A1B2C3D4E5F6")));
    CHECK(uidPlausible(support::uid("DEADBEEF")));
    CHECK(!uidPlausible(support::uid("88A1B2C3")));  // cascade tag: a 7-byte UID cut short
    CHECK(!uidPlausible(support::uid("00000000")));
    CHECK(!uidPlausible(support::uid("00000000000000")));
    Uid bad;
    bad.len = 5;
    bad.bytes[0] = 1;
    CHECK(!uidPlausible(bad));
    CHECK(uidPlausible(support::uid("88A1B2C3D4E5F6")));  // 0x88 is fine as a 7-byte UID's first byte
}
