// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The layer kinds of GPT-2's training pass, one forward and one backward function each, in
// double over contiguous row-major arrays (N = B * T rows; B sequences of T tokens). Every
// backward function ADDS into the gradients it is given (parameters and inputs alike), so a
// tensor read twice (the residual stream, the tied wte) collects both contributions; the
// caller zeroes the buffers once per pass. None allocates: scratch comes from the caller.
//
// Conventions are GPT-2's (Hugging Face layout): a dense layer is y = x W + b with W stored
// [in, out] (Conv1D); LayerNorm has eps 1e-5 and the biased variance; gelu is the tanh
// approximation ("gelu_new"); attention is causal, scores divided by sqrt(head size).

#include <cstddef>
#include <cstdint>

namespace attn::gpt2 {

inline constexpr double kLayerNormEps = 1e-5;

// out[b,t,:] = wte[tokens[b,t], :] + wpe[t, :]                      (out: N x C)
void encoderForward(double* out, const int* tokens, const double* wte, const double* wpe, long B,
                    long T, long C);
// dwte[token] += dout, dwpe[t] += dout (rows in order: deterministic).
void encoderBackward(double* dwte, double* dwpe, const double* dout, const int* tokens, long B,
                     long T, long C);

// out = (x - mean) * rstd * weight + bias, per row; keeps mean and rstd (N each).
void layernormForward(double* out, double* mean, double* rstd, const double* inp,
                      const double* weight, const double* bias, long N, long C);
void layernormBackward(double* dinp, double* dweight, double* dbias, const double* dout,
                       const double* inp, const double* weight, const double* mean,
                       const double* rstd, long N, long C);

// out (N x OC) = inp (N x C) W (C x OC) + bias (OC; may be null). On up to `threads`
// threads, over a fixed partition of the rows (the result does not depend on `threads`).
void matmulForward(double* out, const double* inp, const double* weight, const double* bias, long N,
                   long C, long OC, int threads);
// dinp += dout W^T, dweight += inp^T dout, dbias += column sums of dout (dbias may be null);
// threads as for the forward (fixed parts: rows of dinp, columns of dweight).
void matmulBackward(double* dinp, double* dweight, double* dbias, const double* dout,
                    const double* inp, const double* weight, long N, long C, long OC, int threads);

// Doubles of attention scratch per thread: T * T, rounded up to 64 bytes so that every
// thread's products see the same alignment.
inline std::size_t scratchStride(long T)
{
    return (static_cast<std::size_t>(T * T) + 7) / 8 * 8;
}

// Multi-head causal self-attention over qkv (N x 3C: [Q | K | V], heads side by side in each).
// att (B x H x T x T) keeps the softmax weights, exactly 0 above the diagonal; out is N x C.
// The B * H (sequence, head) pairs are independent: they run on `threads` threads, a fixed
// partition, each pair writing only its own slices, so the result does not depend on the
// thread count. `scratch` holds threads * scratchStride(T) doubles, 64-byte aligned.
void attentionForward(double* out, double* att, const double* qkv, long B, long T, long C, long H,
                      double* scratch, int threads);
// dqkv += the gradient through the heads (same partition and scratch as the forward).
void attentionBackward(double* dqkv, const double* dout, const double* qkv, const double* att,
                       long B, long T, long C, long H, double* scratch, int threads);

// out = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), element-wise over `count`.
void geluForward(double* out, const double* inp, long count);
void geluBackward(double* dinp, const double* inp, const double* dout, long count);

// out = a + b; backward: da += dout, db += dout.
void residualForward(double* out, const double* a, const double* b, long count);
void residualBackward(double* da, double* db, const double* dout, long count);

// logits (N x V) = inp (N x C) wte^T (wte: V x C, the tied unembedding).
void unembedForward(double* logits, const double* inp, const double* wte, long N, long C, long V);
// dinp += dlogits wte, dwte += dlogits^T inp.
void unembedBackward(double* dinp, double* dwte, const double* dlogits, const double* inp,
                     const double* wte, long N, long C, long V);

// probs = softmax(logits) per row; returns the mean of -log probs[target] over the N rows.
double crossEntropyForward(double* probs, const double* logits, const int* targets, long N, long V);
// dlogits = (probs - onehot(target)) / N (written, not added: nothing else reaches logits).
void crossEntropyBackward(double* dlogits, const double* probs, const int* targets, long N, long V);

}  // namespace attn::gpt2
