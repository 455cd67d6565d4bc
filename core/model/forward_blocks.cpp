// SPDX-License-Identifier: GPL-3.0-or-later
// The forward pass's building blocks (forward.h, forward_internal.h): the dense layer on the
// run-time kernels, LayerNorm and RMSNorm, the heads' copies of Q, K and V, the activations, and
// the most probable tokens of a row of logits. forward.cpp puts them together into layers and
// runs.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <omp.h>

#include "core/kernels/activation.h"
#include "core/kernels/gemm.h"
#include "core/model/forward.h"
#include "core/model/forward_internal.h"

namespace attn::model {

void applyDense(const FloatMatrix& x, const Dense& dense, FloatMatrix& y)
{
    // One row is a matrix-vector product, bound by reading W: Eigen's GEMV streams it at the
    // memory's speed, where packing W first reads it twice (1 x 768 x 3072: 0.26 ms against
    // 0.71). From two rows on the packed product is faster: 1.1-1.7x on GPT-2's layers, 4.5x
    // on the 50257 x 768 decoder, where Eigen's small-n GEMM is slow (2 rows: 71 ms vs 16).
    // Half-precision W (a decoder's kept BF16) goes to gemmWeights at every n: its one-row path
    // is a matrix-vector product that widens W as it reads it.
    if (x.rows() == 1 && dense.raw == nullptr) {
        applyDenseEigen(x, dense, y);
        return;
    }
    const long n = x.rows();
    y.resize(n, dense.out);
    kernels::gemmWeights(n, dense.in, dense.out, x.data(), x.cols(), dense.elements(), dense.format,
                         dense.storedCols(), dense.outByIn, dense.bias, y.data(), dense.out);
}

void applyDenseEigen(const FloatMatrix& x, const Dense& dense, FloatMatrix& y)
{
    const long n = x.rows();
    y.resize(n, dense.out);
    kernels::gemmWeights(kernels::GemmPath::Portable, n, dense.in, dense.out, x.data(), x.cols(),
                         dense.elements(), dense.format, dense.storedCols(), dense.outByIn,
                         dense.bias, y.data(), dense.out);
}

double detail::rowSum(const float* row, long d, double shift, bool squares)
{
    double lanes[8] = {};
    long j = 0;
    for (; j + 8 <= d; j += 8)
        for (int q = 0; q < 8; ++q) {
            const double v = static_cast<double>(row[j + q]) - shift;
            lanes[q] += squares ? v * v : v;
        }
    for (; j < d; ++j) {
        const double v = static_cast<double>(row[j]) - shift;
        lanes[0] += squares ? v * v : v;
    }
    return ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) +
           ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
}

void detail::copyHeads(const ModelConfig& c, const FloatMatrix* const from[3], const long offset[3],
                       std::vector<HeadResultT<float>>& heads)
{
    const long n = from[0]->rows();
    const long dh = c.headDim();
    heads.resize(static_cast<std::size_t>(c.heads));
    // Sized on this thread, so that the heads' buffers come from its glibc arena as the rest of
    // the run's do, and the parallel copies allocate nothing (the peak RSS of a 512-token decoder
    // run measured the same either way).
    for (HeadResultT<float>& hr : heads) {
        hr.Q.resize(n, dh);
        hr.K.resize(n, dh);
        hr.V.resize(n, dh);
    }
    // Side by side: made on one thread, the copies kept the other waiting (about 3 % of a
    // 128-token SmolLM2 pass).
#pragma omp parallel for schedule(static) if (n * c.heads * dh >= 65536)
    for (long j = 0; j < c.heads; ++j) {
        HeadResultT<float>& hr = heads[static_cast<std::size_t>(j)];
        const long g = c.kvHeadOf(j);
        hr.Q = from[0]->middleCols(offset[0] + j * dh, dh);
        hr.K = from[1]->middleCols(offset[1] + g * dh, dh);
        hr.V = from[2]->middleCols(offset[2] + g * dh, dh);
    }
}

namespace {

// LayerNorm (`centred`: less the row's mean, plus beta) or RMSNorm of every row: one loop, so
// that the two cannot drift apart (with a mean of 0, RMSNorm's arithmetic is LayerNorm's).
void normRows(const FloatMatrix& x, const Norm& norm, float eps, bool centred, FloatMatrix& y)
{
    const long n = x.rows();
    const long d = x.cols();
    y.resize(n, d);
#pragma omp parallel for schedule(static) if (n * d >= 65536)
    for (long i = 0; i < n; ++i) {
        const float* row = x.data() + i * d;
        const double mean =
            centred ? detail::rowSum(row, d, 0.0, false) / static_cast<double>(d) : 0.0;
        const double var = detail::rowSum(row, d, mean, true) / static_cast<double>(d);
        const double inv = 1.0 / std::sqrt(var + static_cast<double>(eps));
        float* out = y.data() + i * d;
        for (long j = 0; j < d; ++j)
            out[j] = static_cast<float>((static_cast<double>(row[j]) - mean) * inv) * norm.gamma[j];
        if (centred)
            for (long j = 0; j < d; ++j) out[j] += norm.beta[j];
    }
}

}  // namespace

void layerNorm(const FloatMatrix& x, const Norm& norm, float eps, FloatMatrix& y)
{
    normRows(x, norm, eps, true, y);
}

void detail::rmsNormRows(const FloatMatrix& x, const Norm& norm, float eps, FloatMatrix& y)
{
    normRows(x, norm, eps, false, y);
}

namespace {

// `kernel(offset, count)` over [0, count) in blocks shared by the threads, each block on
// the kernel path chosen for the CPU.
template <typename Kernel>
void inBlocks(long count, const Kernel& kernel)
{
    constexpr long kBlock = 16384;
    const long blocks = (count + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) if (count >= 65536)
    for (long b = 0; b < blocks; ++b) kernel(b * kBlock, std::min(kBlock, count - b * kBlock));
}

}  // namespace

void activate(Activation activation, FloatMatrix& x)
{
    float* v = x.data();
    const long count = x.size();
    switch (activation) {
    case Activation::GeluTanh:
        // gelu_new: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        inBlocks(count, [v](long at, long n) { kernels::geluTanh(v + at, n); });
        break;
    case Activation::GeluErf:
#pragma omp parallel for schedule(static) if (count >= 65536)
        for (long k = 0; k < count; ++k)
            v[k] = 0.5f * v[k] * (1.0f + std::erf(v[k] * static_cast<float>(M_SQRT1_2)));
        break;
    case Activation::Relu: x = x.cwiseMax(0.0f); break;
    case Activation::Silu:
        // silu(x) = x sigmoid(x) = x / (1 + e^-x)
        inBlocks(count, [v](long at, long n) { kernels::silu(v + at, nullptr, n); });
        break;
    }
}

void swiglu(FloatMatrix& gate, const FloatMatrix& up)
{
    float* g = gate.data();
    const float* u = up.data();
    inBlocks(gate.size(), [g, u](long at, long n) { kernels::silu(g + at, u + at, n); });
}

std::vector<TokenProbability> topTokens(const Eigen::Ref<const Eigen::VectorXf>& logits, int k)
{
    const long v = logits.size();
    if (v == 0 || k <= 0) return {};
    const double max = logits.maxCoeff();
    double sum = 0.0;
    for (long i = 0; i < v; ++i) sum += std::exp(static_cast<double>(logits[i]) - max);
    std::vector<int> order(static_cast<std::size_t>(v));
    std::iota(order.begin(), order.end(), 0);
    const long take = std::min<long>(k, v);
    std::partial_sort(order.begin(), order.begin() + take, order.end(), [&](int a, int b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    std::vector<TokenProbability> top;
    for (long i = 0; i < take; ++i) {
        const int id = order[static_cast<std::size_t>(i)];
        top.push_back({id, static_cast<float>(std::exp(logits[id] - max) / sum)});
    }
    return top;
}

float tokenProbability(const Eigen::Ref<const Eigen::VectorXf>& logits, int id)
{
    if (id < 0 || id >= logits.size()) return 0.0f;
    const double max = logits.maxCoeff();
    double sum = 0.0;
    for (long i = 0; i < logits.size(); ++i) sum += std::exp(static_cast<double>(logits[i]) - max);
    return static_cast<float>(std::exp(static_cast<double>(logits[id]) - max) / sum);
}

}  // namespace attn::model
