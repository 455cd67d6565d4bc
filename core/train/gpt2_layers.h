// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The layer kinds of GPT-2's training pass, one forward and one backward function each, over
// contiguous row-major arrays of scalar S (N = B * T rows; B sequences of T tokens). S is
// double (the gradient checks, the reference) or float (training at speed); gpt2_layers.cpp
// instantiates both, and the double ones compute exactly what they did before they were
// templates. Every backward function ADDS into the gradients it is given (parameters and
// inputs alike), so a tensor read twice (the residual stream, the tied wte) collects both
// contributions; the caller zeroes the buffers once per pass. None allocates: scratch comes
// from the caller.
//
// Conventions are GPT-2's (Hugging Face layout): a dense layer is y = x W + b with W stored
// [in, out] (Conv1D); LayerNorm has eps 1e-5 and the biased variance; gelu is the tanh
// approximation ("gelu_new"); attention is causal, scores divided by sqrt(head size).
//
// Alignment: results are reproducible bit for bit when every array starts where it started on
// the previous run (Eigen's vectorised loops peel differently at different alignments); the
// trainer keeps its buffers 64-byte aligned and its offsets fixed.

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace attn::gpt2 {

inline constexpr double kLayerNormEps = 1e-5;

// A pointer that may be null (a missing bias): not used to deduce S, so nullptr is accepted.
template <typename S>
using Optional = std::type_identity_t<S>*;

// out[b,t,:] = wte[tokens[b,t], :] scale + wpe[t, :]                (out: N x C)
// (scale 1 for GPT-2; Marian scales its embeddings by sqrt(C) and adds fixed sinusoids.)
template <typename S>
void encoderForward(S* out, const int* tokens, const S* wte, const S* wpe, long B, long T, long C,
                    std::type_identity_t<S> scale = 1);
// dwte[token] += dout scale, dwpe[t] += dout (rows in order: deterministic); dwpe may be null
// (fixed positions).
template <typename S>
void encoderBackward(S* dwte, Optional<S> dwpe, const S* dout, const int* tokens, long B, long T,
                     long C, std::type_identity_t<S> scale = 1);

// out = (x - mean) * rstd * weight + bias, per row; keeps mean and rstd (N each).
template <typename S>
void layernormForward(S* out, S* mean, S* rstd, const S* inp, const S* weight, const S* bias,
                      long N, long C);
template <typename S>
void layernormBackward(S* dinp, S* dweight, S* dbias, const S* dout, const S* inp, const S* weight,
                       const S* mean, const S* rstd, long N, long C);

// out (N x OC) = inp (N x C) W (C x OC) + bias (OC; may be null). On up to `threads`
// threads, over a fixed partition of the rows (the result does not depend on `threads`).
template <typename S>
void matmulForward(S* out, const S* inp, const S* weight, Optional<const S> bias, long N, long C,
                   long OC, int threads);
// dinp += dout W^T, dweight += inp^T dout, dbias += column sums of dout (dbias may be null);
// threads as for the forward (fixed parts: rows of dinp, columns of dweight).
template <typename S>
void matmulBackward(S* dinp, S* dweight, Optional<S> dbias, const S* dout, const S* inp,
                    const S* weight, long N, long C, long OC, int threads);

// The same two in float on core/kernels' product (gemm.h: AVX-512 or AVX2 chosen when the program
// runs), on omp_get_max_threads() threads; the result does not depend on the thread count, and
// agrees with the Eigen versions to float rounding (dense_kernels.cpp).
void matmulForwardKernels(float* out, const float* inp, const float* weight, const float* bias,
                          long N, long C, long OC);
void matmulBackwardKernels(float* dinp, float* dweight, float* dbias, const float* dout,
                           const float* inp, const float* weight, long N, long C, long OC);

// Scalars of attention scratch per thread: Tq * Tk, rounded up to 64 bytes so that every
// thread's products see the same alignment.
template <typename S>
std::size_t scratchStride(long Tq, long Tk)
{
    constexpr std::size_t perLine = 64 / sizeof(S);
    return (static_cast<std::size_t>(Tq * Tk) + perLine - 1) / perLine * perLine;
}
template <typename S>
std::size_t scratchStride(long T)
{
    return scratchStride<S>(T, T);
}

// One attention call of B sequences: Tq query rows (each qStride scalars apart) over Tk key and
// value rows (kvStride apart), C channels in H heads side by side. Causal: row i sees keys
// j <= i. keyLengths (B entries, or null for all Tk): the keys of each sequence, the rest
// padding that no row sees (the rows of padded queries are computed all the same).
struct AttentionDims {
    long B = 0, Tq = 0, Tk = 0, C = 0, H = 0;
    long qStride = 0, kvStride = 0;
    bool causal = false;
    const int* keyLengths = nullptr;
};

// att (B x H x Tq x Tk) keeps the softmax weights, exactly 0 where masked; out is Tq rows of C
// per sequence. Scores are divided by sqrt(C / H). `scratch` holds threads *
// scratchStride<S>(Tq, Tk) scalars, 64-byte aligned. The (sequence, head) pairs run on
// `threads` threads over a fixed partition: the result does not depend on the thread count.
template <typename S>
void attentionForward(S* out, S* att, const S* q, const S* k, const S* v, const AttentionDims& d,
                      S* scratch, int threads);
// dq, dk, dv += the gradient through the heads (laid out as q, k and v).
template <typename S>
void attentionBackward(S* dq, S* dk, S* dv, const S* dout, const S* q, const S* k, const S* v,
                       const S* att, const AttentionDims& d, S* scratch, int threads);

// GPT-2's call: multi-head causal self-attention over qkv (N x 3C: [Q | K | V], heads side by side
// in each). att (B x H x T x T) keeps the softmax weights, exactly 0 above the diagonal; out is N x
// C. The B * H (sequence, head) pairs are independent: they run on `threads` threads, a fixed
// partition, each pair writing only its own slices, so the result does not depend on the
// thread count. `scratch` holds threads * scratchStride<S>(T) scalars, 64-byte aligned.
template <typename S>
void attentionForward(S* out, S* att, const S* qkv, long B, long T, long C, long H, S* scratch,
                      int threads);
// dqkv += the gradient through the heads (same partition and scratch as the forward).
template <typename S>
void attentionBackward(S* dqkv, const S* dout, const S* qkv, const S* att, long B, long T, long C,
                       long H, S* scratch, int threads);

// out = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), element-wise over `count`.
template <typename S>
void geluForward(S* out, const S* inp, long count);
template <typename S>
void geluBackward(S* dinp, const S* inp, const S* dout, long count);

// out = x sigmoid(x) (SiLU, Marian's "swish"), element-wise.
template <typename S>
void siluForward(S* out, const S* inp, long count);
template <typename S>
void siluBackward(S* dinp, const S* inp, const S* dout, long count);

// out = a + b; backward: da += dout, db += dout.
template <typename S>
void residualForward(S* out, const S* a, const S* b, long count);
template <typename S>
void residualBackward(S* da, S* db, const S* dout, long count);

// logits (N x V) = inp (N x C) wte^T + bias (wte: V x C, the tied unembedding; bias: V, or null).
template <typename S>
void unembedForward(S* logits, const S* inp, const S* wte, long N, long C, long V,
                    Optional<const S> bias = nullptr);
// dinp += dlogits wte, dwte += dlogits^T inp, dbias += column sums of dlogits (if not null).
template <typename S>
void unembedBackward(S* dinp, S* dwte, const S* dlogits, const S* inp, const S* wte, long N, long C,
                     long V, Optional<S> dbias = nullptr);

// probs = softmax(logits) per row; returns the mean of -log probs[target] over the rows whose
// target is not negative (a negative target is padding, as PyTorch's ignore_index; summed in
// double whatever S is: the loss is reported and compared in double).
template <typename S>
double crossEntropyForward(S* probs, const S* logits, const int* targets, long N, long V);
// dlogits = (probs - onehot(target)) / (rows with a target), 0 on padded rows (written, not
// added: nothing else reaches logits).
template <typename S>
void crossEntropyBackward(S* dlogits, const S* probs, const int* targets, long N, long V);

}  // namespace attn::gpt2
