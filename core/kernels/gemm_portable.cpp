// SPDX-License-Identifier: GPL-3.0-or-later
// The portable path of kernels::sgemm and gemmWeights (gemm.h): Eigen's product for whatever
// instruction set the build targets, split over the OpenMP threads by blocks of output columns.
// Half-precision weights are widened a block of output columns at a time into each thread's
// scratch (at most kWidenColumns x k floats), never the whole matrix.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <omp.h>
#include <vector>

#include <Eigen/Core>

#include "core/kernels/gemm.h"
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

// Output columns (rows of B^T) gemmWeightsPortable widens at a time.
constexpr long kWidenColumns = 256;

// IEEE half to float, exactly: no subnormal float is formed on the way, so a DAZ or FTZ mode
// set by someone else changes nothing.
float widenHalf(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    const std::uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24, a normal float
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign != 0 ? -magnitude : magnitude;
    }
    const std::uint32_t bits = exponent == 0x1f
                                   ? sign | 0x7f800000u | (mantissa << 13)  // Inf, NaN
                                   : sign | ((exponent + 112) << 23) | (mantissa << 13);
    return std::bit_cast<float>(bits);
}

float widenBf16(std::uint16_t h)
{
    return std::bit_cast<float>(std::uint32_t{h} << 16);
}

// rows x cols elements of a half-precision matrix (row stride ld elements) as dense floats.
void widen(WeightFormat format, const std::uint16_t* src, long ld, long rows, long cols, float* dst)
{
    for (long r = 0; r < rows; ++r) {
        const std::uint16_t* row = src + r * ld;
        float* out = dst + r * cols;
        if (format == WeightFormat::BF16)
            for (long j = 0; j < cols; ++j) out[j] = widenBf16(row[j]);
        else
            for (long j = 0; j < cols; ++j) out[j] = widenHalf(row[j]);
    }
}

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

void gemmWeightsPortable(long n, long k, long m, const float* a, long lda, const void* b,
                         WeightFormat format, long ldb, bool bTransposed, const float* bias,
                         float* c, long ldc)
{
    if (format == WeightFormat::F32) {
        sgemmPortable(n, k, m, a, lda, static_cast<const float*>(b), ldb, bTransposed, bias, c,
                      ldc);
        return;
    }
    const auto* elements = static_cast<const std::uint16_t*>(b);
    const ConstMap A(a, n, k, Stride(lda));
    Map C(c, n, m, Stride(ldc));
    const double work = static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(m);
    const long blocks = (m + kWidenColumns - 1) / kWidenColumns;
    const int threads =
        !omp_in_parallel() && work >= kParallelWork && blocks > 1
            ? static_cast<int>(std::min<long>(std::max(1, omp_get_max_threads()), blocks))
            : 1;
    // Each thread's block of widened B, allocated before the threads start so that
    // std::bad_alloc reaches the caller.
    const long blockFloats = std::min(kWidenColumns, m) * k;
    std::vector<float> scratch(static_cast<std::size_t>(threads * blockFloats));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1)
    for (long block = 0; block < blocks; ++block) {
        const long c0 = block * kWidenColumns;
        const long w = std::min(kWidenColumns, m - c0);
        float* const widened = scratch.data() + omp_get_thread_num() * blockFloats;
        auto target = C.middleCols(c0, w);
        if (bTransposed) {
            widen(format, elements + c0 * ldb, ldb, w, k, widened);
            target.noalias() = A * ConstMap(widened, w, k, Stride(k)).transpose();
        } else {
            widen(format, elements + c0, ldb, k, w, widened);
            target.noalias() = A * ConstMap(widened, k, w, Stride(w));
        }
        if (bias != nullptr) target.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias + c0, w);
    }
}

}  // namespace attn::kernels::detail

namespace attn::kernels {

void widenWeights(WeightFormat format, const void* src, long ld, long rows, long cols, float* dst)
{
    if (format == WeightFormat::F32) {
        const auto* f = static_cast<const float*>(src);
        for (long r = 0; r < rows; ++r) std::copy_n(f + r * ld, cols, dst + r * cols);
        return;
    }
    detail::widen(format, static_cast<const std::uint16_t*>(src), ld, rows, cols, dst);
}

bool weightsFinite(WeightFormat format, const void* src, long count)
{
    if (format == WeightFormat::F32)
        return Eigen::Map<const Eigen::VectorXf>(static_cast<const float*>(src), count).allFinite();
    // The exponent field all ones is Inf or NaN: 5 bits in IEEE half, 8 in bfloat16.
    const std::uint16_t exponent = format == WeightFormat::BF16 ? 0x7f80u : 0x7c00u;
    const auto* e = static_cast<const std::uint16_t*>(src);
    bool finite = true;
    for (long i = 0; i < count; ++i) finite &= (e[i] & exponent) != exponent;
    return finite;
}

}  // namespace attn::kernels
