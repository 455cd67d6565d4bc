// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model writes: a causal model's prompt runs once (decode.h), or an encoder-decoder encodes its
// source and starts its target at decoder_start_token_id (seq2seq_decode.h); then token after
// token is chosen from the last position's logits (sampling.h) and appended, until max new
// tokens or an end-of-text id (which is kept). Each step records the model's own probability of the
// chosen token and its most probable tokens, both at temperature 1 before any cut (what the model
// said, not what the sampler did).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/model/decode.h"
#include "core/model/sampling.h"
#include "core/model/seq2seq_decode.h"

namespace attn::model {

struct GenerateOptions {
    int maxNewTokens = 0;
    SamplingSettings sampling;
    std::uint64_t seed = 0;
    std::vector<int> eos;  // generation stops after any of these
    std::vector<HeadEdit> edits;
    int topK = 10;  // how many of the model's most probable tokens a step records
    // A decoder's maps past this many tokens are kept pooled to poolSide cells a side
    // (Decoding::start); 0: always whole.
    long poolAbove = 0;
    long poolSide = 512;
};

struct GeneratedStep {
    int id = 0;
    float probability = 0.0f;  // the model's, at temperature 1 before any cut
    std::vector<TokenProbability> top;
    TokenDraw draw;
};

// D: Decoding (causal models) or Seq2SeqDecoding (encoder-decoders).
template <class D>
struct GenerationOf {
    // Tokens before the first written one: the prompt, or an encoder-decoder's start token.
    long promptLength = 0;
    std::vector<GeneratedStep> steps;
    D decoding;  // the prompt (or start token) and every generated token
    TokenRng rng;
    bool endedAtEos = false;
    [[nodiscard]] std::vector<int> generated() const
    {
        std::vector<int> ids;
        ids.reserve(steps.size());
        for (const GeneratedStep& s : steps) ids.push_back(s.id);
        return ids;
    }
};
using Generation = GenerationOf<Decoding>;
using Seq2SeqGeneration = GenerationOf<Seq2SeqDecoding>;

// Refuses max new tokens below 1 (field "max_new_tokens"), and sampling settings
// checkSampling() refuses.
attn::Status checkGenerate(const GenerateOptions& options);

// Starts `out` on `prompt`: the prompt's run (Decoding::start with the edits) and the generator
// seeded. Nothing is generated yet.
attn::Status startGeneration(const Model& model, std::span<const int> prompt,
                             const GenerateOptions& options, Generation& out);
// The same for an encoder-decoder: `source` encoded, the target at its start token.
attn::Status startGeneration(const Seq2SeqModel& model, std::span<const int> source,
                             const GenerateOptions& options, Seq2SeqGeneration& out);

// One token: chosen from the last logits, recorded, appended. Refuses a text as long as the
// model's positions. On failure `g` is as it was.
template <class D>
attn::Status generateStep(GenerationOf<D>& g, const GenerateOptions& options);

// Whether `g` has ended: max new tokens reached, an end-of-text id written, or no position left.
template <class D>
bool generationDone(const GenerationOf<D>& g, const GenerateOptions& options);

// Called after each token with the generation so far; returning false stops it there.
template <class D>
using GenerationProgressOf = std::function<bool(const GenerationOf<D>&)>;
using GenerationProgress = GenerationProgressOf<Decoding>;

// startGeneration, then generateStep until generationDone or `progress` says stop.
attn::Status generate(const Model& model, std::span<const int> prompt,
                      const GenerateOptions& options, Generation& out,
                      const GenerationProgress& progress = {});
attn::Status generate(const Seq2SeqModel& model, std::span<const int> source,
                      const GenerateOptions& options, Seq2SeqGeneration& out,
                      const GenerationProgressOf<Seq2SeqDecoding>& progress = {});

extern template attn::Status generateStep(Generation&, const GenerateOptions&);
extern template attn::Status generateStep(Seq2SeqGeneration&, const GenerateOptions&);
extern template bool generationDone(const Generation&, const GenerateOptions&);
extern template bool generationDone(const Seq2SeqGeneration&, const GenerateOptions&);

}  // namespace attn::model
