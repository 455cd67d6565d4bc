// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Choosing the next token from a model's logits, in the order of Hugging Face's generate():
//
//   1. repetition penalty (optional, HF's definition): a token already in the text has its
//      logit divided by the penalty when positive, multiplied by it when negative
//   2. bad words: a sequence of bad_words_ids is never completed (its last id is closed when the
//      text ends with the rest of it; a single id is always closed)
//   3. temperature 0: the argmax (ties: the lower id), nothing drawn. Otherwise
//      p_i = softmax(l_i / T), in double
//   4. top-k (k > 0): the tokens whose probability is below the k-th largest are cut (ties at
//      the k-th are kept, as torch.topk's threshold keeps them)
//   5. top-p (p < 1): of the rest, most probable first (ties: lower id first), the shortest
//      prefix whose mass reaches p is kept, at least one token
//   6. the kept probabilities are renormalised and one is drawn: u in [0, 1) from the
//      generator, and the first kept token, in the order of 5, whose running sum exceeds u.
//
// The generator is xoshiro256** (Blackman and Vigna) seeded through splitmix64, and u is its top
// 53 bits times 2^-53: the same seed gives the same draws on any machine, and the same text
// wherever the model's logits agree to the bits that decide the order and the sums.

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "core/status.h"

namespace attn::model {

struct SamplingSettings {
    double temperature = 0.0;  // 0: greedy
    int topK = 0;              // 0: no cut
    double topP = 1.0;         // 1: no cut
    double repetitionPenalty = 1.0;
    std::vector<std::vector<int>> badWords;
};

// Refuses a temperature that is negative or not finite, a negative top-k, a top-p outside
// (0, 1], a repetition penalty that is not finite and > 0, and an empty bad-words sequence.
// `field` names the setting ("temperature", "top_k", "top_p", "repetition_penalty",
// "bad_words_ids").
attn::Status checkSampling(const SamplingSettings& settings);

class TokenRng {
public:
    TokenRng() : TokenRng(0) {}
    explicit TokenRng(std::uint64_t seed);
    std::uint64_t next();
    double uniform();  // [0, 1), 53 bits

private:
    std::uint64_t s_[4] = {};
};

struct Candidate {
    int id = 0;
    double probability = 0.0;
};

// What one choice saw and did: for a bar chart of the distribution and its cuts.
struct TokenDraw {
    int id = -1;
    bool greedy = true;
    double u = -1.0;  // the uniform number drawn (-1: greedy)
    // Every token with a probability after steps 1-3 (at temperature 0: at temperature 1), most
    // probable first; `kept` of them survived 4 and 5 (renormalised in keptProbability).
    std::vector<Candidate> ranked;
    long kept = 0;
    std::vector<double> keptProbability;
    std::vector<int> closed;  // ids the bad words closed
};

// Chooses the next token after `text` (the ids so far) from `logits` (V). `settings` must pass
// checkSampling. A draw reads the generator once; greedy never. `rankedLimit` bounds how many
// of the ranked tokens are returned (the kept ones are always all).
TokenDraw chooseToken(const Eigen::VectorXf& logits, std::span<const int> text,
                      const SamplingSettings& settings, TokenRng& rng, long rankedLimit = 64);

}  // namespace attn::model
