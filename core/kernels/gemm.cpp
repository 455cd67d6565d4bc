// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernels/gemm.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "core/kernels/gemm_paths.h"

namespace attn::kernels {

namespace {

bool cpuHasAvx2Fma()
{
#if defined(__x86_64__) || defined(__i386__)
    // libgcc's check includes the operating system's support for the YMM state (XGETBV).
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

bool cpuHasAvx512()
{
#if defined(__x86_64__) || defined(__i386__)
    // Every extension gemm_avx512.cpp is compiled for; libgcc also checks that the operating
    // system saves the ZMM and mask registers.
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
        for (long i = 0; i < n; ++i)
            for (long j = 0; j < m; ++j) c[i * ldc + j] = bias != nullptr ? bias[j] : 0.0f;
        return;
    }
    if (path == GemmPath::Avx512)
        detail::sgemmAvx512(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
    else if (path == GemmPath::Avx2Fma)
        detail::sgemmAvx2Fma(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
    else
        detail::sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

}  // namespace attn::kernels
