#include "uid.h"

#include <cstring>

namespace tenace {

namespace {

const char kHexDigits[] = "0123456789ABCDEF";

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

bool Uid::operator==(const Uid& o) const {
    return len == o.len && len <= kMaxUidBytes && std::memcmp(bytes, o.bytes, len) == 0;
}

bool uidLengthValid(uint8_t len) { return len == 4 || len == 7 || len == 10; }

bool uidPlausible(const Uid& uid) {
    if (!uidLengthValid(uid.len)) return false;
    if (uid.len == 4 && uid.bytes[0] == 0x88) return false;
    for (uint8_t i = 0; i < uid.len; ++i) {
        if (uid.bytes[i] != 0) return true;
    }
    return false;
}

size_t uidToHex(const Uid& uid, char* out, size_t cap) {
    if (!uidLengthValid(uid.len)) return 0;
    const size_t n = static_cast<size_t>(uid.len) * 2;
    if (cap < n) return 0;
    for (uint8_t i = 0; i < uid.len; ++i) {
        out[2 * i] = kHexDigits[uid.bytes[i] >> 4];
        out[2 * i + 1] = kHexDigits[uid.bytes[i] & 0x0F];
    }
    return n;
}

bool uidFromHex(const char* s, size_t n, Uid& out) {
    if (n % 2 != 0 || !uidLengthValid(static_cast<uint8_t>(n / 2)) || n / 2 > kMaxUidBytes) return false;
    Uid u;
    u.len = static_cast<uint8_t>(n / 2);
    for (size_t i = 0; i < u.len; ++i) {
        const int hi = hexValue(s[2 * i]);
        const int lo = hexValue(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        u.bytes[i] = static_cast<uint8_t>((hi << 4) | lo);
    }
    out = u;
    return true;
}

}  // namespace tenace
