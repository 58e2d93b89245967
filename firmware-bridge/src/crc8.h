// CRC-8/SMBUS: width 8, poly 0x07, init 0x00, refin false, refout false, xorout 0x00.
// check("123456789") = 0xF4. It covers every byte of a line before the final '*'.
//
// Why this CRC: it is the most widely catalogued 8-bit CRC (so any host language has a reference),
// it needs no table, and it detects every single-bit and double-bit error and every burst up to
// 8 bits in lines of our length. USB already has its own CRC; this one guards against the things
// USB does not see: a host opening the port mid-line, buffer overruns, and bugs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tenace {

uint8_t crc8(const void* data, size_t len, uint8_t crc = 0x00);

}  // namespace tenace
