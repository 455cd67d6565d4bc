// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernels/gemm.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/kernels/gemm_paths.h"

namespace attn::kernels {

namespace {

#if defined(__x86_64__) || defined(__i386__)
// F16C from CPUID leaf 1: clang 14's __builtin_cpu_supports does not know "f16c".
bool cpuHasF16c()
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_F16C) != 0;
}
#endif

bool cpuHasAvx2Fma()
{
#if defined(__x86_64__) || defined(__i386__)
    // libgcc's check includes the operating system's support for the YMM state (XGETBV). F16C
    // widens half-precision weights in the same units; every CPU with AVX2 has it.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpuHasF16c();
#else
    return false;
#endif
}

bool cpuHasAvx512()
{
#if defined(__x86_64__) || defined(__i386__)
    // Every extension gemm_avx512.cpp is compiled for (F16C and FMA through cpuHasAvx2Fma);
    // libgcc also checks that the operating system saves the ZMM and mask registers.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           cpuHasAvx2Fma();
#else
    return false;
#endif
}

bool runs(GemmPath path)
{
    switch (path) {
    case GemmPath::Portable: return true;
    case GemmPath::Avx2Fma: return detail::avx2FmaCompiledIn() && cpuHasAvx2Fma();
    case GemmPath::Avx512: return detail::avx512CompiledIn() && cpuHasAvx512();
    }
    return false;
}

// C = bias on every row (or 0): the product of an empty inner dimension.
void fillWithBias(long n, long m, const float* bias, float* c, long ldc)
{
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < m; ++j) c[i * ldc + j] = bias != nullptr ? bias[j] : 0.0f;
}

}  // namespace

namespace detail {

void throwOutOfMemory()
{
    throw std::bad_alloc();
}

}  // namespace detail

const char* gemmPathName(GemmPath path)
{
    switch (path) {
    case GemmPath::Portable: return "portable";
    case GemmPath::Avx2Fma: return "avx2+fma";
    case GemmPath::Avx512: return "avx512";
    }
    return "unknown";
}

std::vector<GemmPath> supportedGemmPaths()
{
    std::vector<GemmPath> paths;
    for (const GemmPath path : {GemmPath::Portable, GemmPath::Avx2Fma, GemmPath::Avx512})
        if (runs(path)) paths.push_back(path);
    return paths;
}

GemmPath gemmPathFor(const char* request)
{
    if (request != nullptr && std::strcmp(request, "portable") == 0) return GemmPath::Portable;
    if (request != nullptr && std::strcmp(request, "avx2") == 0 && runs(GemmPath::Avx2Fma))
        return GemmPath::Avx2Fma;
    return supportedGemmPaths().back();
}

GemmPath gemmPath()
{
    static const GemmPath path = gemmPathFor(std::getenv("ATTNLAB_KERNELS"));
    return path;
}

void sgemm(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
           bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemm(gemmPath(), n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void sgemm(GemmPath path, long n, long k, long m, const float* a, long lda, const float* b,
           long ldb, bool bTransposed, const float* bias, float* c, long ldc)
{
    if (n <= 0 || m <= 0) return;
    if (k <= 0) {
        fillWithBias(n, m, bias, c, ldc);
        return;
    }
    if (path == GemmPath::Avx512)
        detail::sgemmAvx512(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
    else if (path == GemmPath::Avx2Fma)
        detail::sgemmAvx2Fma(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
    else
        detail::sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void gemmWeights(long n, long k, long m, const float* a, long lda, const void* b,
                 WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                 long ldc)
{
    gemmWeights(gemmPath(), n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

void gemmWeights(GemmPath path, long n, long k, long m, const float* a, long lda, const void* b,
                 WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                 long ldc)
{
    if (format == WeightFormat::F32) {
        sgemm(path, n, k, m, a, lda, static_cast<const float*>(b), ldb, bTransposed, bias, c, ldc);
        return;
    }
    if (n <= 0 || m <= 0) return;
    if (k <= 0) {
        fillWithBias(n, m, bias, c, ldc);
        return;
    }
    if (path == GemmPath::Avx512)
        detail::gemmWeightsAvx512(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
    else if (path == GemmPath::Avx2Fma)
        detail::gemmWeightsAvx2Fma(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
    else
        detail::gemmWeightsPortable(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

}  // namespace attn::kernels
