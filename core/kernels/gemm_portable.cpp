// SPDX-License-Identifier: GPL-3.0-or-later
// The portable path of kernels::sgemm (gemm.h): Eigen's product for whatever instruction set the
// build targets, split over the OpenMP threads by blocks of output columns.
#include <algorithm>
#include <omp.h>

#include <Eigen/Core>

#include "core/kernels/gemm_paths.h"

namespace attn::kernels::detail {

namespace {

// Products below this many multiply-adds stay on one thread.
constexpr double kParallelWork = 1 << 20;
// Column blocks are multiples of this many floats (one cache line is 16).
constexpr long kColumnGranule = 64;

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;
using ConstMap = Eigen::Map<const Matrix, 0, Stride>;
using Map = Eigen::Map<Matrix, 0, Stride>;

}  // namespace

void sgemmPortable(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                   bool bTransposed, const float* bias, float* c, long ldc)
{
    const ConstMap A(a, n, k, Stride(lda));
    Map C(c, n, m, Stride(ldc));
    const int threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    const double work = static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(m);
    // Column blocks of whole granules, the larger ones first: handed out in order, they leave
    // the threads even (GPT-2's c_attn is 2304 = 36 granules wide; equal blocks of 64 columns
    // would leave one thread waiting for the last a tenth of the product).
    const long granules = (m + kColumnGranule - 1) / kColumnGranule;
    long blocks = 1;
    if (threads > 1 && work >= kParallelWork)
        blocks = std::max(1L, std::min<long>(4L * threads, granules));
    const long base = granules / blocks;
    const long extra = granules % blocks;
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
    for (long block = 0; block < blocks; ++block) {
        const long g0 = block * base + std::min(block, extra);
        const long c0 = g0 * kColumnGranule;
        const long w = std::min((base + (block < extra ? 1 : 0)) * kColumnGranule, m - c0);
        auto target = C.middleCols(c0, w);
        if (bTransposed)
            target.noalias() = A * ConstMap(b + c0 * ldb, w, k, Stride(ldb)).transpose();
        else
            target.noalias() = A * ConstMap(b + c0, k, w, Stride(ldb));
        if (bias != nullptr) target.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias + c0, w);
    }
}

}  // namespace attn::kernels::detail
