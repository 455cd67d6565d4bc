// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/head_detect.h"

#include <algorithm>
#include <string>

#include "core/random_init.h"

namespace attn::model {

std::vector<int> repeatedSequence(const DetectSpec& spec, long vocab, long index)
{
    // One stream per sequence, so that sequence k is the same whatever the count.
    Rng rng(spec.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(index) + 1);
    const bool all = spec.candidates.empty();
    const auto pool = all ? vocab : static_cast<long>(spec.candidates.size());
    std::vector<int> ids(static_cast<std::size_t>(2 * spec.m));
    for (long i = 0; i < spec.m; ++i) {
        const long k =
            std::min(pool - 1, static_cast<long>(rng.uniform() * static_cast<double>(pool)));
        ids[static_cast<std::size_t>(i)] =
            all ? static_cast<int>(k) : spec.candidates[static_cast<std::size_t>(k)];
    }
    std::copy_n(ids.begin(), spec.m, ids.begin() + spec.m);
    return ids;
}

attn::Status scoreSequences(const Model& model, long m,
                            const std::vector<std::vector<int>>& sequences, HeadScoreTable& out,
                            const ProgressCallback& progress)
{
    if (m < kMinDetectHalf || sequences.empty())
        return failure(StatusCode::EmptyInput, "", "m",
                       "m must be at least " + std::to_string(kMinDetectHalf) +
                           " (below, the induction offset i-m+1 is the previous token) and the "
                           "count at least 1; m is " +
                           std::to_string(m));
    if (2 * m > model.config().positions) {
        Status s =
            failure(StatusCode::TooLong, "", "m",
                    "2m = " + std::to_string(2 * m) + " tokens are more than the model's " +
                        std::to_string(model.config().positions) + " positions; m may be at most " +
                        std::to_string(model.config().positions / 2));
        s.value = 2 * m;
        s.limit = model.config().positions;
        return s;
    }
    HeadScoreTable sum;
    ForwardOptions options;
    options.topK = 1;
    const auto count = static_cast<long>(sequences.size());
    for (long k = 0; k < count; ++k) {
        if (progress && !progress(static_cast<int>(k), static_cast<int>(count)))
            return failure(StatusCode::Cancelled, "", "", "cancelled");
        const std::vector<int>& ids = sequences[static_cast<std::size_t>(k)];
        if (static_cast<long>(ids.size()) != 2 * m) {
            Status s = failure(StatusCode::ShapeMismatch, "", "ids", "a sequence is not 2m ids");
            s.value = static_cast<long>(ids.size());
            s.limit = 2 * m;
            return s;
        }
        ForwardResult r;
        if (Status s = forward(model, ids, options, r); !s.ok()) return s;
        HeadScoreTable one(r.layers.size());
        for (std::size_t l = 0; l < r.layers.size(); ++l) {
            for (const FloatMatrix& w : r.layers[l].attention)
                one[l].push_back(scoreRepeated(w.data(), m));  // row-major, 2m x 2m
        }
        addScores(sum, one);
    }
    divideScores(sum, static_cast<double>(count));
    out = std::move(sum);
    return Status::success();
}

attn::Status detectHeads(const Model& model, const DetectSpec& spec, HeadScoreTable& out,
                         const ProgressCallback& progress)
{
    // Random tokens repeat by chance as often as 1 in the pool's size: with one token, every
    // head would score as a duplicate-token head.
    const long pool =
        spec.candidates.empty() ? model.config().vocab : static_cast<long>(spec.candidates.size());
    if (pool < 2) {
        Status s = failure(StatusCode::EmptyInput, "", "vocab",
                           "the scores need at least 2 different tokens to draw from; there are " +
                               std::to_string(pool));
        s.value = pool;
        s.limit = 2;
        return s;
    }
    if (spec.count < 1)
        return failure(StatusCode::EmptyInput, "", "count", "the count must be at least 1");
    std::vector<std::vector<int>> sequences;
    for (long k = 0; k < spec.count; ++k)
        sequences.push_back(repeatedSequence(spec, model.config().vocab, k));
    return scoreSequences(model, spec.m, sequences, out, progress);
}

}  // namespace attn::model
