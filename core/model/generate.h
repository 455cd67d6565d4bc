// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A causal model writes: the prompt runs once (decode.h), then token after token is chosen from
// the last position's logits (sampling.h) and appended, until max new tokens or an end-of-text
// id (which is kept). Each step records the model's own probability of the chosen token and
// its most probable tokens, both at temperature 1 before any cut (what the model said, not what
// the sampler did).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/model/decode.h"
#include "core/model/sampling.h"

namespace attn::model {

struct GenerateOptions {
    int maxNewTokens = 0;
    SamplingSettings sampling;
    std::uint64_t seed = 0;
    std::vector<int> eos;  // generation stops after any of these
    std::vector<HeadEdit> edits;
    int topK = 10;  // how many of the model's most probable tokens a step records
};

struct GeneratedStep {
    int id = 0;
    float probability = 0.0f;  // the model's, at temperature 1 before any cut
    std::vector<TokenProbability> top;
    TokenDraw draw;
};

struct Generation {
    long promptLength = 0;
    std::vector<GeneratedStep> steps;
    Decoding decoding;  // the prompt and every generated token
    TokenRng rng;
    bool endedAtEos = false;
    [[nodiscard]] std::vector<int> generated() const;
};

// Refuses max new tokens below 1 (field "max_new_tokens"), and sampling settings
// checkSampling() refuses.
attn::Status checkGenerate(const GenerateOptions& options);

// Starts `out` on `prompt`: the prompt's run (Decoding::start with the edits) and the generator
// seeded. Nothing is generated yet.
attn::Status startGeneration(const Model& model, std::span<const int> prompt,
                             const GenerateOptions& options, Generation& out);

// One token: chosen from the last logits, recorded, appended. Refuses a text as long as the
// model's positions. On failure `g` is as it was.
attn::Status generateStep(Generation& g, const GenerateOptions& options);

// Whether `g` has ended: max new tokens reached, an end-of-text id written, or no position left.
bool generationDone(const Generation& g, const GenerateOptions& options);

// Called after each token with the generation so far; returning false stops it there.
using GenerationProgress = std::function<bool(const Generation&)>;

// startGeneration, then generateStep until generationDone or `progress` says stop.
attn::Status generate(const Model& model, std::span<const int> prompt,
                      const GenerateOptions& options, Generation& out,
                      const GenerationProgress& progress = {});

}  // namespace attn::model
