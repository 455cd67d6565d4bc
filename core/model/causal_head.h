// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One causal head's attention a block of query rows at a time, for texts too long to keep every
// head's n x n map: at 8,192 tokens one map is 256 MiB, and Qwen3-0.6B has 448 of them. The
// caller asks for what it keeps:
//   pooled     the map at screen resolution: each cell the largest weight of a block x block
//              square of the map (the workbench's pyramid pools the same way, so a single
//              strong cell, a first-token sink or a diagonal stays visible at any zoom)
//   output     P V, what the layer goes on with
//   firstShare the mean weight that queries 1 .. n-1 put on the first token (attention sinks)
//   weights    the whole map: an exact map on demand, from queries and keys made again
//
// Scores, scaling and softmax are those of the core's head pass (core/head_pass.h): raw
// scores by kernels::sgemm, ScoreScaler, softmaxRow with exact zeros, so a map made here equals
// attendProjected's to float rounding. Only keys a row may see are scored: under the causal
// mask, and a sliding window, that is at most half the square.

#include "core/model/forward.h"

namespace attn::model {

// The smallest power of two that pools n cells into at most `side` (>= 1). Powers of two, so
// that a map pooled by one block is pooled by the next exactly by merging 2 x 2 cells (the
// largest of the largest): a growing text (decode.h) keeps its pooled maps as a whole run of
// the same length pools them.
long poolBlock(long n, long side);

// Pooled row `cells` takes the largest of p[start .. end) block by block.
void poolRow(const float* p, long start, long end, long block, float* cells);

// `p` made ready for a map of n rows: its block raised to poolBlock(n, side) by merging cells,
// and room for the new rows (zero until pooled).
void growPooled(PooledMap& p, long n, long side);

// `map` (n x n) pooled by `block`.
PooledMap poolMap(const FloatMatrix& map, long block);

// The mean weight that queries 1 .. n-1 of `map` (n x n) put on the first token (0 for n < 2):
// LayerTrace::firstShare, how much of a sink a head is.
float firstShareOf(const FloatMatrix& map);

struct CausalHeadInput {
    const float* q = nullptr;  // n x dh, row stride ldq: the queries as scored (turned)
    long ldq = 0;
    const float* k = nullptr;  // n x dh, row stride ldk
    long ldk = 0;
    const float* v = nullptr;  // n x dv, row stride ldv; null when no output is asked for
    long ldv = 0;
    long n = 0;
    long dh = 0;
    long dv = 0;
    long window = 0;       // > 0: query i sees keys i - window + 1 .. i
    float divisor = 1.0f;  // scores are divided by it (sqrt(dh))
};

struct CausalHeadOutput {
    FloatMatrix* weights = nullptr;  // n x n
    PooledMap* pooled = nullptr;     // pooled to `side` cells a side
    long side = 512;
    FloatMatrix* output = nullptr;  // n x dv
    float* firstShare = nullptr;
};

// Fills what `out` asks for. Blocks of rows run on the OpenMP threads when called outside a
// parallel region (one head on demand), on the calling thread inside one (a layer's heads side
// by side). NonFinite with field "scores" or "scaled" when a raw or scaled score is not finite
// (what was asked for is then partly written).
attn::Status attendCausal(const CausalHeadInput& in, const CausalHeadOutput& out);

}  // namespace attn::model
