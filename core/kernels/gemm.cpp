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

GemmPath choosePath()
{
    const char* wanted = std::getenv("ATTNLAB_KERNELS");
    if (wanted != nullptr && std::strcmp(wanted, "portable") == 0) return GemmPath::Portable;
    return detail::avx2FmaCompiledIn() && cpuHasAvx2Fma() ? GemmPath::Avx2Fma : GemmPath::Portable;
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
    }
    return "unknown";
}

std::vector<GemmPath> supportedGemmPaths()
{
    std::vector<GemmPath> paths{GemmPath::Portable};
    if (detail::avx2FmaCompiledIn() && cpuHasAvx2Fma()) paths.push_back(GemmPath::Avx2Fma);
    return paths;
}

GemmPath gemmPath()
{
    static const GemmPath path = choosePath();
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
    if (path == GemmPath::Avx2Fma)
        detail::sgemmAvx2Fma(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
    else
        detail::sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

}  // namespace attn::kernels
