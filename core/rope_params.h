// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parameters of rotary position embeddings (core/rope.h), apart from the functions that
// apply them, so that the attention input (core/attention_input.h) can carry them without
// including the rotation code that itself works on the input's matrix types.

namespace attn {

enum class RopeScaling { None, Linear, Llama3 };

struct Rope {
    double theta = 10000.0;
    RopeScaling scaling = RopeScaling::None;
    double factor = 1.0;              // linear and llama3
    double lowFreqFactor = 1.0;       // llama3
    double highFreqFactor = 4.0;      // llama3
    double originalPositions = 8192;  // llama3: original_max_position_embeddings

    bool operator==(const Rope&) const = default;
};

}  // namespace attn
