#include "crc8.h"

namespace tenace {

// Bitwise on purpose: lines are under 100 bytes, so the 256-byte table buys nothing measurable
// on a 133 MHz RP2040, and the bitwise form is easy to check against the catalogue definition.
uint8_t crc8(const void* data, size_t len, uint8_t crc) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < len; ++i) {
        crc = static_cast<uint8_t>(crc ^ p[i]);
        for (int bit = 0; bit < 8; ++bit) {
            const unsigned shifted = static_cast<unsigned>(crc) << 1;
            crc = static_cast<uint8_t>((crc & 0x80u) != 0 ? (shifted ^ 0x07u) : shifted);
        }
    }
    return crc;
}

}  // namespace tenace
