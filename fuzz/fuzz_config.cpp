// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: config.json (attn::model::parseConfig). An accepted config must hold the
// sizes the forward pass relies on.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/model/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    attn::model::ModelConfig c;
    const attn::Status s = attn::model::parseConfig(text, "config.json", c);
    if (!s.ok()) return 0;
    if (c.layers <= 0 || c.heads <= 0 || c.width <= 0 || c.inner <= 0 || c.positions <= 0 ||
        c.vocab <= 0 || c.width % c.heads != 0 || c.headDim() <= 0)
        std::abort();
    return 0;
}
