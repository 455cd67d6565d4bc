// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernels behind kernels::sgemm (gemm.h) and geluTanh (activation.h), one translation
// unit per instruction set, so that each can be compiled for its own instruction set. Nothing
// here is inline or a template shared with other translation units: an inline function
// instantiated in the AVX2 or AVX-512 unit could otherwise be the copy the linker keeps for every
// caller, and fault on a CPU without those instructions. The code the packed units do share
// (gemm_goto.h) is in an anonymous namespace: each unit compiles and keeps its own copy.

#include "core/kernels/weight_format.h"

namespace attn::kernels::detail {

// Whether gemm_avx2.cpp was compiled with AVX2, FMA and F16C (false on other architectures).
bool avx2FmaCompiledIn();

void sgemmAvx2Fma(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc);
// kernels::gemmWeights for F16 and BF16 (F32 goes to sgemm).
void gemmWeightsAvx2Fma(long n, long k, long m, const float* a, long lda, const void* b,
                        WeightFormat format, long ldb, bool bTransposed, const float* bias,
                        float* c, long ldc);

// Whether gemm_avx512.cpp was compiled with AVX-512 F/VL/BW/DQ, FMA and F16C (false elsewhere).
bool avx512CompiledIn();

void sgemmAvx512(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                 bool bTransposed, const float* bias, float* c, long ldc);
void gemmWeightsAvx512(long n, long k, long m, const float* a, long lda, const void* b,
                       WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                       long ldc);

void sgemmPortable(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                   bool bTransposed, const float* bias, float* c, long ldc);
void gemmWeightsPortable(long n, long k, long m, const float* a, long lda, const void* b,
                         WeightFormat format, long ldb, bool bTransposed, const float* bias,
                         float* c, long ldc);

void geluTanhAvx2Fma(float* x, long count);
void geluTanhPortable(float* x, long count);
void expShiftedAvx2Fma(const float* x, float shift, float* out, long count);
void expShiftedPortable(const float* x, float shift, float* out, long count);
void siluAvx2Fma(float* x, const float* times, long count);
void siluPortable(float* x, const float* times, long count);

// Throws std::bad_alloc; out of line so that the AVX2 unit instantiates nothing of <new>.
[[noreturn]] void throwOutOfMemory();

}  // namespace attn::kernels::detail
