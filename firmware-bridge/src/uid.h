// An ISO 14443A UID (4, 7 or 10 bytes) and its wire form: uppercase hex, two digits a byte.
#pragma once

#include <cstddef>
#include <cstdint>

#include "protocol.h"

namespace tenace {

struct Uid {
    uint8_t len = 0;
    uint8_t bytes[kMaxUidBytes] = {};

    bool operator==(const Uid& o) const;
    bool operator!=(const Uid& o) const { return !(*this == o); }
};

// Length is one the standard allows.
bool uidLengthValid(uint8_t len);

// A UID the reader could really have read. Besides the length, this rejects a 4-byte UID that starts
// with the cascade tag 0x88 (what a 7- or 10-byte tag looks like when it leaves the field halfway
// through anticollision) and the all-zero UID some clone chips return after a failed select.
// The protocol itself accepts any UID of valid length; this is a device-side filter.
bool uidPlausible(const Uid& uid);

// Writes 2*len uppercase hex digits (no terminator). Returns the count, or 0 if cap is too small.
size_t uidToHex(const Uid& uid, char* out, size_t cap);

// Parses exactly 8, 14 or 20 uppercase hex digits. Lowercase is rejected: the wire form is canonical.
bool uidFromHex(const char* s, size_t n, Uid& out);

}  // namespace tenace
