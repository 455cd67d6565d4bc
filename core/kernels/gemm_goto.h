// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The driver of the packed SGEMM paths (gemm_avx2.cpp, gemm_avx512.cpp; shapes in gemm.h):
// Goto's algorithm as BLIS writes it. A and B are copied ("packed") into the order the register
// kernel reads them, in blocks that stay in one cache level while they are reused. Each path
// supplies its tile (MR x NR), its blocks (KC, MC, NC) and its kernels as a traits type:
//
//   struct Isa {
//       static constexpr int MR, NR;        // the tile; NR a multiple of 8
//       static constexpr long KC, MC, NC;   // MC a multiple of MR
//       static Kernel kernelFor(long rows, long cols);   // for the tile's first rows, cols
//   };
//
//   0. pack all of A once: for each KC slice of k, for each MR rows, a kc x MR panel
//      (step-major, zero rows past n)                   threads take panels in turn
//   1. for each chunk of at most NC columns of C             threads take chunks in turn
//   2.   for each KC slice of k: pack B[slice, chunk] into kc x NR panels (zero columns past m)
//   3.     for each MC block of rows                         A block  -> L2
//   4.       for each NR columns of the chunk                B panel  -> L1
//   5.         for each MR rows of the block: the kernel adds the slice's A panel x B panel
//              to C's tile (the first slice writes bias + product instead)
//
// Edge tiles: a block's last rows run the kernel instantiated for fewer rows; a chunk's last
// columns are computed in full against zero-padded B and only the valid ones are stored.
// Threads: loop 0's panels and loop 1's chunks are claimed one at a time from shared counters,
// with no barrier between the loops: a thread waits only for a panel of A another is packing.
// Chunks are small (at least 4 a thread, their widths as even as whole panels allow) so that a
// thread slowed by other load takes fewer. A is packed once for all threads, so a product of few
// rows (128 tokens) is split by columns only. While the kernels run one slice, they touch the
// next slice's B (NextSlice), the next chunk's first slice during a chunk's last.
//
// Linkage: everything here is in an anonymous namespace, so every unit that includes this header
// compiles its own private copy for its own instruction set and shares no symbol with any other
// unit (gemm_paths.h says why sharing would fault on older CPUs;
// core_tests.kernel_units_are_isolated checks the objects). For the same reason nothing from the
// standard library's templates is used: min, the scratch buffer and its growth are written out.
// Include it only from a unit compiled for AVX2, FMA and F16C or more, after <immintrin.h>.
//
// B's elements: float, or half-precision weights as a checkpoint stores them (WeightFormat),
// which step 2 widens to float as it packs them. The packed panels are then the same floats a
// widened copy of B would give, so the product is the same bit for bit, and no copy of B is made.

#include <cstddef>
#include <cstdlib>
#include <omp.h>

#include "core/kernels/gemm_paths.h"

namespace attn::kernels::detail {
namespace {

// Products below this many multiply-adds stay on one thread.
constexpr double kParallelWork = 1 << 20;
constexpr long kChunksPerThread = 4;

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

// How B's elements of each WeightFormat are read: 8 consecutive ones as floats, and one.
struct F32Elements {
    using Type = float;
    static __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
    static float load1(const float* p) { return *p; }
};

// bfloat16 is the top half of a float: zero-extend to 32 bits, shift left by 16.
struct Bf16Elements {
    using Type = unsigned short;
    static __m256 load8(const unsigned short* p)
    {
        const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
    }
    static float load1(const unsigned short* p)
    {
        const unsigned int bits = static_cast<unsigned int>(*p) << 16;
        float f;
        __builtin_memcpy(&f, &bits, sizeof f);
        return f;
    }
};

// IEEE half: F16C's conversion (exact; subnormals, Inf and NaN included; MXCSR plays no part).
struct F16Elements {
    using Type = unsigned short;
    static __m256 load8(const unsigned short* p)
    {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static float load1(const unsigned short* p) { return _cvtsh_ss(*p); }
};

// Touches, a few cache lines at a time, the part of B that the next KC slice will pack (`rows`
// runs of `rowBytes` bytes, `stride` bytes apart), so that its reads from memory overlap the
// kernels of this slice: at 128 tokens packing B from memory, not the kernels, was a fifth of a
// product (without the touches, packing took four times as long). The kernels tell step() of
// their steps of k, and it touches `count` lines every `every` steps: spread thin, because a
// burst of dozens of prefetches fills the core's queue of misses and stalls the kernel behind it
// (touched a tile's share at once, the prefetches held 4 % of a 128-token GPT-2 pass).
struct NextSlice {
    const char* at = nullptr;
    long stride = 0;
    long rows = 0;
    long rowBytes = 0;
    long row = 0;
    long offset = 0;
    long every = 1;
    long count = 1;
    long wait = 0;
    void touch(long lines)
    {
        for (; lines > 0 && row < rows; --lines) {
            // The run's last byte too, wherever its first line starts.
            _mm_prefetch(at + row * stride + smaller(offset, rowBytes - 1), _MM_HINT_T1);
            offset += 64;
            if (offset >= rowBytes + 64) {
                offset = 0;
                ++row;
            }
        }
    }
    // `steps` more steps of k done.
    void step(long steps)
    {
        wait -= steps;
        if (wait > 0) return;
        long lines = count;
        wait += every;
        if (wait <= 0) {  // more than one period in these steps
            const long more = -wait / every + 1;
            wait += more * every;
            lines += more * count;
        }
        touch(lines);
    }
    // Spreads the slice's lines over `steps` calls of step().
    void spreadOver(long steps)
    {
        const long lines = rows * (rowBytes / 64 + 1);
        steps = larger(1, steps);
        every = larger(1, steps / larger(1, lines));
        count = ceilDiv(lines, steps);
        wait = 0;
    }
};

// One tile: C[0..rows) x [0..cols) = (first ? bias or 0 : C) + sum_p a[p MR + i] b[p NR + j],
// telling ahead.step() of every step of k.
using Kernel = void (*)(long kc, const float* a, const float* b, float* c, long ldc, long cols,
                        const float* bias, bool first, NextSlice& ahead);

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

// Rows [0, rows) x columns [0, kc) of A (from its element (i0, pc)) as a kc x MR panel.
template <int MR>
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
template <int NR, class E>
void packB(const typename E::Type* b, long ldb, long kc, long w, float* dst)
{
    const long full = w / NR * NR;
    for (long p = 0; p < kc; ++p) {
        const typename E::Type* row = b + p * ldb;
        float* out = dst + p * NR;
        for (long j = 0; j < full; j += NR)
            for (int q = 0; q < NR; q += 8)
                _mm256_store_ps(out + j * kc + q, E::load8(row + j + q));
        for (long j = full; j < w; ++j) out[full * kc + j - full] = E::load1(row + j);
        if (full < w)
            for (long j = w; j < full + NR; ++j) out[full * kc + j - full] = 0.0f;
    }
}

// dst[q * ldd + r] = src[r * lds + q] for an 8 x 8 block, widened to float.
template <class E>
void transpose8(const typename E::Type* src, long lds, float* dst, long ldd)
{
    __m256 r[8], t[8];
    for (int i = 0; i < 8; ++i) r[i] = E::load8(src + i * lds);
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

// packA for a full panel of 8 rows, 8 columns at a time through transpose8: the scalar copy
// reads each row with a stride, and was 3 % of a pass at 128 tokens on one thread.
template <int MR>
void packAPanel(const float* a, long lda, long rows, long kc, float* dst)
{
    if constexpr (MR == 8) {
        if (rows == MR) {
            long p = 0;
            for (; p + 8 <= kc; p += 8) transpose8<F32Elements>(a + p, lda, dst + p * MR, MR);
            for (; p < kc; ++p)
                for (int i = 0; i < MR; ++i) dst[p * MR + i] = a[i * lda + p];
            return;
        }
    }
    packA<MR>(a, lda, rows, kc, dst);
}

// The same panel from B stored transposed (m x k, from its element (j, pc)).
template <int NR, class E>
void packBTransposed(const typename E::Type* b, long ldb, long kc, long cols, float* dst)
{
    long p = 0;
    if (cols == NR)
        for (; p + 8 <= kc; p += 8)
            for (int q = 0; q < NR; q += 8)
                transpose8<E>(b + q * ldb + p, ldb, dst + p * NR + q, NR);
    for (; p < kc; ++p)
        for (long j = 0; j < NR; ++j) dst[p * NR + j] = j < cols ? E::load1(b + j * ldb + p) : 0.0f;
}

struct Problem {
    long n, k, m;
    const float* a;
    long lda;
    const void* b;  // elements of the driver's E::Type
    long ldb;
    bool bTransposed;
    const float* bias;
    float* c;
    long ldc;
    long kcBlock;     // KC slices are this wide (the last one narrower)
    long mcBlock;     // MC blocks are this tall (the last one shorter), a multiple of MR
    long rowsPadded;  // n rounded up to MR
};

// Columns [j0, j0 + width) of C: a chunk of loop 1.
struct Span {
    long j0 = 0;
    long width = 0;
};

// B's elements that the slice of rows [pc, pc + kc) of columns `s` packs, as NextSlice runs.
template <class E>
NextSlice sliceOfB(const Problem& P, Span s, long pc, long kc)
{
    constexpr long bytes = static_cast<long>(sizeof(typename E::Type));
    const char* from = static_cast<const char*>(P.b);
    NextSlice out;
    if (P.bTransposed) {
        out.at = from + (s.j0 * P.ldb + pc) * bytes;
        out.rows = s.width;
        out.rowBytes = kc * bytes;
    } else {
        out.at = from + (pc * P.ldb + s.j0) * bytes;
        out.rows = kc;
        out.rowBytes = s.width * bytes;
    }
    out.stride = P.ldb * bytes;
    return out;
}

// Loops 2-5 for the columns `s` of C, with A packed in `ap` and scratch `bp` for B. At its last
// slice it calls claimNext() (a Span, width 0 for none) and touches the first slice of the chunk
// it names: the first slice of every chunk was otherwise read from memory as it was packed.
template <class Isa, class E, class Claim>
void runChunk(const Problem& P, const float* ap, float* bp, Span s, Claim& claimNext)
{
    constexpr int MR = Isa::MR, NR = Isa::NR;
    const auto* b = static_cast<const typename E::Type*>(P.b);
    const long j0 = s.j0, w = s.width;
    for (long pc = 0; pc < P.k; pc += P.kcBlock) {
        const long kc = smaller(P.kcBlock, P.k - pc);
        if (P.bTransposed)
            for (long jr = 0; jr < w; jr += NR)
                packBTransposed<NR, E>(b + (j0 + jr) * P.ldb + pc, P.ldb, kc, smaller(NR, w - jr),
                                       bp + jr * kc);
        else
            packB<NR, E>(b + pc * P.ldb + j0, P.ldb, kc, w, bp);
        const float* aSlice = ap + pc * P.rowsPadded;
        const long next = smaller(P.kcBlock, P.k - pc - kc);
        NextSlice ahead;
        if (next > 0) {
            ahead = sliceOfB<E>(P, s, pc + kc, next);
        } else {
            const Span following = claimNext();
            if (following.width > 0) ahead = sliceOfB<E>(P, following, 0, smaller(P.kcBlock, P.k));
        }
        ahead.spreadOver(ceilDiv(P.n, MR) * ceilDiv(w, NR) * kc);
        for (long ic = 0; ic < P.n; ic += P.mcBlock) {
            const long mc = smaller(P.mcBlock, P.n - ic);
            for (long jr = 0; jr < w; jr += NR) {
                const long cols = smaller(NR, w - jr);
                const float* bias = P.bias != nullptr ? P.bias + j0 + jr : nullptr;
                for (long ir = 0; ir < mc; ir += MR) {
                    const long rows = smaller(MR, mc - ir);
                    float* c = P.c + (ic + ir) * P.ldc + j0 + jr;
                    Isa::kernelFor(rows, cols)(kc, aSlice + (ic + ir) * kc, bp + jr * kc, c, P.ldc,
                                               cols, bias, pc == 0, ahead);
                }
            }
        }
    }
}

// B's elements are E::Type (F32Elements: sgemm).
template <class Isa, class E = F32Elements>
void sgemmGoto(long n, long k, long m, const float* a, long lda, const typename E::Type* b,
               long ldb, bool bTransposed, const float* bias, float* c, long ldc)
{
    constexpr int MR = Isa::MR, NR = Isa::NR;
    const long panels = ceilDiv(n, MR);
    // Even slices and blocks: 768 = 3 x 256, 300 = 2 x 150; 600 rows = 2 x 300, not 512 + 88.
    const long kcBlock = ceilDiv(k, ceilDiv(k, Isa::KC));
    const long mcBlock = ceilDiv(ceilDiv(n, ceilDiv(n, Isa::MC)), MR) * MR;
    const Problem P{n,           k,    m, a,   lda,     b,       ldb,
                    bTransposed, bias, c, ldc, kcBlock, mcBlock, panels * MR};

    const double work = static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(m);
    // Inside a parallel region (the long path's row blocks) the calling thread does it all.
    const int threads = work >= kParallelWork && !omp_in_parallel()
                            ? static_cast<int>(larger(1, omp_get_max_threads()))
                            : 1;
    const long nrPanels = ceilDiv(m, NR);
    // At least kChunksPerThread per thread and a multiple of the threads, about NC wide at most,
    // as even as whole panels allow and the wider ones first, so that threads taking them in turn
    // end together. Equal widths with a short remainder left one thread an eighth more columns
    // than the other at out = 1024, 2048 and 3072 (its partner spinning at the barrier).
    const long chunks = smaller(
        nrPanels,
        ceilDiv(larger(ceilDiv(m, Isa::NC), kChunksPerThread * threads), threads) * threads);
    const long basePanels = nrPanels / chunks;
    const long widerChunks = nrPanels % chunks;  // the first ones hold one panel more
    const long chunkWidth = (basePanels + (widerChunks > 0 ? 1 : 0)) * NR;
    // Whole cache lines each, so that every thread's B starts aligned.
    const std::size_t aFloats = static_cast<std::size_t>(ceilDiv(P.rowsPadded * k, 16) * 16);
    const std::size_t bFloats = static_cast<std::size_t>(kcBlock * chunkWidth);

    // Packed A, then each thread's B, from a 64-byte boundary; allocated before the threads
    // start, so that std::bad_alloc reaches the caller.
    thread_local Scratch scratch;
    float* const ap = scratch.reserve(aFloats + static_cast<std::size_t>(threads) * bFloats);
    const long slices = ceilDiv(k, kcBlock);
    const auto spanOf = [&](long chunk) {
        const long j0 = (chunk * basePanels + smaller(chunk, widerChunks)) * NR;
        const long width = (basePanels + (chunk < widerChunks ? 1 : 0)) * NR;
        return Span{j0, smaller(width, m - j0)};
    };
    long taken = 0;                       // chunks claimed by the threads so far
    const auto packPanel = [&](long t) {  // loop 0, one panel of one slice
        const long pc = (t / panels) * kcBlock;
        const long r = t % panels;
        const long kc = smaller(kcBlock, k - pc);
        packAPanel<MR>(a + r * MR * lda + pc, lda, smaller(MR, n - r * MR), kc,
                       ap + pc * P.rowsPadded + r * MR * kc);
    };
    long packClaimed = 0;  // panels of A a thread has taken to pack
    long packDone = 0;     // and finished
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        // Loop 0: the threads take panels in turn, then wait for the last to be finished. No
        // barrier: a thread that starts late (other load on the machine) finds A packed and
        // waits for nobody; a thread waits only for a panel that another is packing. Packed
        // by the calling thread alone, A kept the other idle for a few percent of a product.
        for (;;) {
            const long t = __atomic_fetch_add(&packClaimed, 1, __ATOMIC_RELAXED);
            if (t >= slices * panels) break;
            packPanel(t);
            __atomic_fetch_add(&packDone, 1, __ATOMIC_RELEASE);
        }
        while (__atomic_load_n(&packDone, __ATOMIC_ACQUIRE) < slices * panels) _mm_pause();
        float* const bp = ap + aFloats + static_cast<std::size_t>(omp_get_thread_num()) * bFloats;
        // Loop 1: each thread takes the next chunk in turn, claimed during its last slice of the
        // one before (so that it can be touched ahead); the region's end is the barrier.
        long chunk = __atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
        while (chunk < chunks) {
            long following = chunks;
            auto claim = [&]() -> Span {
                following = __atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
                return following < chunks ? spanOf(following) : Span{};
            };
            runChunk<Isa, E>(P, ap, bp, spanOf(chunk), claim);
            chunk = following;
        }
    }
}

}  // namespace
}  // namespace attn::kernels::detail
