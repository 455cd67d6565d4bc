// SPDX-License-Identifier: GPL-3.0-or-later
// The Avx2Fma path of kernels::sgemm (shapes in gemm.h), compiled with -mavx2 -mfma. It is
// Goto's algorithm as BLIS writes it: A and B are copied ("packed") into the order the register
// kernel reads them, in blocks that stay in one cache level while they are reused (Zen 3: L1d 32
// KiB, L2 512 KiB per core).
//
//   tile     MR x NR = 6 x 16 of C in 12 ymm accumulators; per step p of k: 2 loads of B,
//            6 broadcasts of A, 12 FMAs (2 FMAs a cycle: 6 cycles a step)
//   blocks   KC = 256: a kc x NR panel of B is 16 KiB (L1); MC = 144: an MC x kc block of A is
//            144 KiB (L2); NC = 256: a kc x NC slice of B is 256 KiB (L2, beside A's block)
//
//   0. pack all of A once: for each KC slice of k, for each MR rows, a kc x MR panel
//      (step-major, zero rows past n)             the calling thread, or all for A > 2 MiB
//   1. for each chunk of at most NC columns of C             threads take chunks in turn
//   2.   for each KC slice of k: pack B[slice, chunk] into kc x NR panels (zero columns past m)
//   3.     for each MC block of rows                         A block  -> L2
//   4.       for each NR columns of the chunk                B panel  -> L1
//   5.         for each MR rows of the block: the kernel adds the slice's A panel x B panel
//              to C's tile (the first slice writes bias + product instead)
//
// Edge tiles: a block's last rows run a kernel instantiated for 1..5 rows; a chunk's last
// columns are computed in full against zero-padded B and only the valid ones are stored.
// Threads: loop 0 on the calling thread for a small A, else shared with a barrier after it;
// chunks are small (at least 4 a thread) so that a thread slowed by other load takes fewer.
// Single-thread speed on the model's shapes: 85-92 GFLOP/s of the 103 this core's FMA units reach
// (bench: attnlab_model_bench --gemm).

// Nothing from the standard library's templates is used here (see gemm_paths.h): min, the
// scratch buffer and its growth are written out.

#include <cstdint>
#include <cstdlib>
#include <omp.h>

#include "core/kernels/gemm_paths.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace attn::kernels::detail {

#if defined(__AVX2__) && defined(__FMA__)

namespace {

constexpr int MR = 6;
constexpr int NR = 16;
constexpr long KC = 256;
constexpr long MC = 144;  // a multiple of MR
constexpr long NC = 256;
// Products below this many multiply-adds stay on one thread.
constexpr double kParallelWork = 1 << 20;
constexpr long kChunksPerThread = 4;
// Up to 2 MiB of A (128 x 3072, 512 x 768) is packed by the calling thread alone (0.15 ms).
constexpr std::size_t kPackFirstFloats = std::size_t{1} << 19;

long ceilDiv(long a, long b)
{
    return (a + b - 1) / b;
}

long smaller(long a, long b)
{
    return a < b ? a : b;
}

long larger(long a, long b)
{
    return a > b ? a : b;
}

// The calling thread's scratch, grown, never shrunk (up to 7 MiB for the model's shapes), on
// 64-byte boundaries.
struct Scratch {
    float* data = nullptr;
    std::size_t floats = 0;
    Scratch() = default;
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch() { std::free(data); }
    float* reserve(std::size_t want)
    {
        if (floats < want) {
            const std::size_t bytes = (want * sizeof(float) + 63) / 64 * 64;
            void* fresh = std::aligned_alloc(64, bytes);
            if (fresh == nullptr) throwOutOfMemory();
            std::free(data);
            data = static_cast<float*>(fresh);
            floats = want;
        }
        return data;
    }
};

// One tile: C[0..M) x [0..cols) = (first ? bias or 0 : C) + sum_p a[p MR + i] b[p NR + j].
template <int M>
void kernel(long kc, const float* a, const float* b, float* c, long ldc, long cols,
            const float* bias, bool first)
{
    // Named accumulators, not an array: GCC keeps an array of __m256 on the stack and stores it
    // back every step (half the speed). Rows past M are never used and compile away.
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
    __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int i = 0; i < M; ++i)
        _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
#pragma GCC unroll 4
    for (long p = 0; p < kc; ++p) {
        const __m256 b0 = _mm256_load_ps(b);
        const __m256 b1 = _mm256_load_ps(b + 8);
        const auto row = [&](int i, __m256& lo, __m256& hi) {
            const __m256 ai = _mm256_broadcast_ss(a + i);
            lo = _mm256_fmadd_ps(ai, b0, lo);
            hi = _mm256_fmadd_ps(ai, b1, hi);
        };
        row(0, c00, c01);
        if constexpr (M > 1) row(1, c10, c11);
        if constexpr (M > 2) row(2, c20, c21);
        if constexpr (M > 3) row(3, c30, c31);
        if constexpr (M > 4) row(4, c40, c41);
        if constexpr (M > 5) row(5, c50, c51);
        a += MR;
        b += NR;
    }
    const __m256 acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                               {c30, c31}, {c40, c41}, {c50, c51}};
    if (cols == NR) {
        const bool withBias = first && bias != nullptr;
        const __m256 base0 = withBias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
        const __m256 base1 = withBias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
        for (int i = 0; i < M; ++i) {
            float* row = c + i * ldc;
            const __m256 c0 = first ? base0 : _mm256_loadu_ps(row);
            const __m256 c1 = first ? base1 : _mm256_loadu_ps(row + 8);
            _mm256_storeu_ps(row, _mm256_add_ps(c0, acc[i][0]));
            _mm256_storeu_ps(row + 8, _mm256_add_ps(c1, acc[i][1]));
        }
        return;
    }
    alignas(32) float tile[M][NR];
    for (int i = 0; i < M; ++i) {
        _mm256_store_ps(tile[i], acc[i][0]);
        _mm256_store_ps(tile[i] + 8, acc[i][1]);
    }
    for (int i = 0; i < M; ++i) {
        float* row = c + i * ldc;
        for (long j = 0; j < cols; ++j) {
            const float base = !first ? row[j] : bias != nullptr ? bias[j] : 0.0f;
            row[j] = base + tile[i][j];
        }
    }
}

using Kernel = void (*)(long, const float*, const float*, float*, long, long, const float*, bool);
constexpr Kernel kKernels[MR + 1] = {nullptr,   kernel<1>, kernel<2>, kernel<3>,
                                     kernel<4>, kernel<5>, kernel<6>};

// Rows [0, rows) x columns [0, kc) of A (from its element (i0, pc)) as a kc x MR panel.
void packA(const float* a, long lda, long rows, long kc, float* dst)
{
    if (rows == MR) {
        for (long p = 0; p < kc; ++p)
            for (int i = 0; i < MR; ++i) dst[p * MR + i] = a[i * lda + p];
        return;
    }
    for (long p = 0; p < kc; ++p)
        for (int i = 0; i < MR; ++i) dst[p * MR + i] = i < rows ? a[i * lda + p] : 0.0f;
}

// Rows [0, kc) x columns [0, w) of B (k x m, from its element (pc, j0)) as w / NR panels of
// kc x NR, row by row: each row of the slice is read once, front to back (a panel at a time,
// 64 bytes from each of kc rows 12 KiB apart, 2 x 768 x 3072 took 1.15 ms instead of 0.75).
void packB(const float* b, long ldb, long kc, long w, float* dst)
{
    const long full = w / NR * NR;
    for (long p = 0; p < kc; ++p) {
        const float* row = b + p * ldb;
        float* out = dst + p * NR;
        for (long j = 0; j < full; j += NR) {
            _mm256_store_ps(out + j * kc, _mm256_loadu_ps(row + j));
            _mm256_store_ps(out + j * kc + 8, _mm256_loadu_ps(row + j + 8));
        }
        for (long j = full; j < w; ++j) out[full * kc + j - full] = row[j];
        if (full < w)
            for (long j = w; j < full + NR; ++j) out[full * kc + j - full] = 0.0f;
    }
}

// dst[q * ldd + r] = src[r * lds + q] for an 8 x 8 block.
void transpose8(const float* src, long lds, float* dst, long ldd)
{
    __m256 r[8], t[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * lds);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        _mm256_store_ps(dst + i * ldd, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_store_ps(dst + (i + 4) * ldd, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
}

// The same panel from B stored transposed (m x k, from its element (j, pc)).
void packBTransposed(const float* b, long ldb, long kc, long cols, float* dst)
{
    long p = 0;
    if (cols == NR)
        for (; p + 8 <= kc; p += 8) {
            transpose8(b + p, ldb, dst + p * NR, NR);
            transpose8(b + 8 * ldb + p, ldb, dst + p * NR + 8, NR);
        }
    for (; p < kc; ++p)
        for (long j = 0; j < NR; ++j) dst[p * NR + j] = j < cols ? b[j * ldb + p] : 0.0f;
}

struct Problem {
    long n, k, m;
    const float* a;
    long lda;
    const float* b;
    long ldb;
    bool bTransposed;
    const float* bias;
    float* c;
    long ldc;
    long kcBlock;     // KC slices are this wide (the last one narrower)
    long rowsPadded;  // n rounded up to MR
};

// Loops 2-5 for columns [j0, j0 + w) of C, with A packed in `ap` and scratch `bp` for B.
void runChunk(const Problem& P, const float* ap, float* bp, long j0, long w)
{
    for (long pc = 0; pc < P.k; pc += P.kcBlock) {
        const long kc = smaller(P.kcBlock, P.k - pc);
        if (P.bTransposed)
            for (long jr = 0; jr < w; jr += NR)
                packBTransposed(P.b + (j0 + jr) * P.ldb + pc, P.ldb, kc, smaller(NR, w - jr),
                                bp + jr * kc);
        else
            packB(P.b + pc * P.ldb + j0, P.ldb, kc, w, bp);
        const float* aSlice = ap + pc * P.rowsPadded;
        for (long ic = 0; ic < P.n; ic += MC) {
            const long mc = smaller(MC, P.n - ic);
            for (long jr = 0; jr < w; jr += NR) {
                const long cols = smaller(NR, w - jr);
                const float* bias = P.bias != nullptr ? P.bias + j0 + jr : nullptr;
                for (long ir = 0; ir < mc; ir += MR) {
                    const long rows = smaller(MR, mc - ir);
                    float* c = P.c + (ic + ir) * P.ldc + j0 + jr;
                    kKernels[rows](kc, aSlice + (ic + ir) * kc, bp + jr * kc, c, P.ldc, cols, bias,
                                   pc == 0);
                }
            }
        }
    }
}

}  // namespace

bool avx2FmaCompiledIn()
{
    return true;
}

void sgemmAvx2Fma(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc)
{
    const long panels = ceilDiv(n, MR);
    const long kcBlock = ceilDiv(k, ceilDiv(k, KC));  // even slices: 768 = 3 x 256, 300 = 2 x 150
    const Problem P{n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc, kcBlock, panels * MR};

    const double work = static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(m);
    // Inside a parallel region (the long path's row blocks) the calling thread does it all.
    const int threads = work >= kParallelWork && !omp_in_parallel()
                            ? static_cast<int>(larger(1, omp_get_max_threads()))
                            : 1;
    const long nrPanels = ceilDiv(m, NR);
    // At least kChunksPerThread per thread and a multiple of the threads, at most NC wide.
    const long wanted = ceilDiv(larger(ceilDiv(m, NC), kChunksPerThread * threads), threads);
    const long chunkWidth = ceilDiv(nrPanels, wanted * threads) * NR;
    const long chunks = ceilDiv(m, chunkWidth);
    // Whole cache lines each, so that every thread's B starts aligned.
    const std::size_t aFloats = static_cast<std::size_t>(ceilDiv(P.rowsPadded * k, 16) * 16);
    const std::size_t bFloats = static_cast<std::size_t>(kcBlock * chunkWidth);

    // Packed A, then each thread's B, from a 64-byte boundary; allocated before the threads
    // start, so that std::bad_alloc reaches the caller.
    thread_local Scratch scratch;
    float* const ap = scratch.reserve(aFloats + static_cast<std::size_t>(threads) * bFloats);
    const long slices = ceilDiv(k, kcBlock);
    const auto packPanel = [&](long t) {  // loop 0, one panel of one slice
        const long pc = (t / panels) * kcBlock;
        const long r = t % panels;
        const long kc = smaller(kcBlock, k - pc);
        packA(a + r * MR * lda + pc, lda, smaller(MR, n - r * MR), kc,
              ap + pc * P.rowsPadded + r * MR * kc);
    };
    // A small A is packed here, before the threads start: its threads would meet at a barrier
    // after it, and a thread that waits there spinning stalls the product on a loaded machine.
    const bool packFirst = threads == 1 || aFloats <= kPackFirstFloats;
    if (packFirst)
        for (long t = 0; t < slices * panels; ++t) packPanel(t);
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        if (!packFirst) {
#pragma omp for schedule(dynamic, 16)
            for (long t = 0; t < slices * panels; ++t) packPanel(t);
        }
        float* const bp = ap + aFloats + static_cast<std::size_t>(omp_get_thread_num()) * bFloats;
        // nowait: the region's end is the barrier.
#pragma omp for schedule(dynamic, 1) nowait
        for (long chunk = 0; chunk < chunks; ++chunk) {  // loop 1
            const long j0 = chunk * chunkWidth;
            runChunk(P, ap, bp, j0, smaller(chunkWidth, m - j0));
        }
    }
}

#else  // not an x86 compiler that can target AVX2 and FMA

bool avx2FmaCompiledIn()
{
    return false;
}

void sgemmAvx2Fma(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

#endif

}  // namespace attn::kernels::detail
