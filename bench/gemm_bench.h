// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernels alone, without a checkpoint: attnlab_model_bench --gemm | --gemm-weights.
//
// --gemm needs no checkpoint: y = x W + b on the model's shapes with random weights, through
// applyDense (the packed SGEMM) and applyDenseEigen (Eigen's product, split by columns), on 1
// and 2 OpenMP threads; one "gemm" line each with GFLOP/s of the best and the median pass
// (2 n in out flops a pass), after one warm-up.
// --gemm-weights needs no checkpoint either: kernels::gemmWeights on BF16 and F16 weights against
// kernels::sgemm on the same weights in F32, on the Llama-family layout (nn.Linear, [out, in]) at
// in = 1024 (Qwen3-0.6B's width): n = 1, 128, 512 rows, out = 1024, 3072, and the lm_head of one
// row against a 151,936-token vocabulary. One-row products read every weight once, as the typing
// path does, so each pass cycles through enough distinct copies of W (at least 256 MiB of F32) that
// it comes from memory, not the cache; the time is per product. The formats take turns within
// each of `reps` rounds (after one warm-up round), so that other load meets them alike; the
// table gives ms best (median) and the time ratio of the best passes and the median of the
// rounds' ratios. One "gemm_weights" line each, on the threads OMP_NUM_THREADS gives.

namespace attn::bench {

int gemmBench(int reps);
int gemmWeightsBench(int reps);

}  // namespace attn::bench
