// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a forward pass (GPT-2 or a Llama-family decoder) spends its time:
// attnlab_model_bench FOLDER --parts.
#include "core/model/model.h"

namespace attn::bench {

// Runs the forward pass's stages on `model` at `tokens` tokens `reps` times, each stage timed
// apart, and prints one "RESULT {"what": "parts", ...}" line per token count.
void printParts(const model::Model& model, long tokens, int reps);

}  // namespace attn::bench
