// SPDX-License-Identifier: GPL-3.0-or-later
// F16 and BF16 to float, bit by bit, for checkpoints stored in half precision
// (declared in core/model/safetensors.h, whose reader converts them).
#include <cstdint>
#include <cstring>

#include "core/model/safetensors.h"

namespace attn::model {

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0x1f) {  // Inf / NaN
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {  // normal
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {  // subnormal: normalise
        exponent = 113;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    } else {
        bits = sign;
    }
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float bfloat16ToFloat(std::uint16_t b)
{
    const std::uint32_t bits = std::uint32_t{b} << 16;
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

}  // namespace attn::model
