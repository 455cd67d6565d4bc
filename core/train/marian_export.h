// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A trained translator (marian_train.h) as a Hugging Face Marian checkpoint that core/model
// (and transformers' MarianMTModel) opens: config.json and model.safetensors in float32 under
// Marian's names, the fused projections split into q_proj, k_proj and v_proj and every dense
// weight transposed to nn.Linear's [out, in]. The sinusoids are not stored: Marian computes them.

#include <string>
#include <vector>

#include "core/model/safetensors_write.h"
#include "core/train/marian_train.h"

namespace attn::marian {

// Every tensor of the checkpoint, in float32, in Hugging Face's order.
std::vector<model::TensorToWrite> checkpointTensors(const Parameters& params);
// config.json's text: model_type marian, the sizes, swish or gelu_new, scaled embeddings,
// shared and tied embeddings, the pad, eos and decoder start ids; `maxLength` is generation's
// default max_length.
std::string checkpointConfig(const Config& config, long maxLength);

}  // namespace attn::marian
