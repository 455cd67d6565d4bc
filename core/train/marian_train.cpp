// SPDX-License-Identifier: GPL-3.0-or-later
// The Marian-layout translator's training pass (marian_train.h), in llm.c's way: one buffer of
// parameters, one of their gradients, one of activations and one of the activations' gradients.
//
// Shapes (B pairs; S source and T target tokens, Ns = B S and Nt = B T rows; V, C, F, H):
//   parameters  shared [V, C]; per encoder layer self_attn (qkv [C, 3C] + [3C], out [C, C] +
//               [C], LN [C] x2), FFN (fc1 [C, F] + [F], fc2 [F, C] + [C], LN [C] x2); per
//               decoder layer self_attn, encoder_attn (q [C, C] + [C], kv [C, 2C] + [2C], out,
//               LN), FFN; final_logits_bias [V]
//   activations source [Ns, C], target [Nt, C]; per sub-layer its projections, weights
//               ([B, H, Tq, Tk]), heads' output, residual sum and LayerNorm (marian_layers.h);
//               logits [Nt, V], probs [Nt, V]
//
// Forward:
//   1. source = shared[src] sqrt(C) + sinusoids[0..S); target likewise from the decoder input
//   2. encoder layers: self-attention over the source's own tokens (padded keys masked), FFN
//   3. decoder layers: masked self-attention, cross-attention over the encoder's output, FFN
//   4. logits = out shared^T + final_logits_bias; loss = mean -log softmax[target] (not padding)
// Backward: the same steps in reverse into gradients zeroed once; the encoder's output collects
// the cross-attention gradient of every decoder layer before the encoder's backward runs, and
// the shared embedding collects the unembedding's and both embeddings' contributions.
#include "core/train/marian_train.h"

#include <algorithm>
#include <cmath>
#include <omp.h>

#include "core/model/seq2seq_model.h"
#include "core/train/checks.h"
#include "core/train/gpt2_layers.h"
#include "core/train/marian_layers.h"

namespace attn::marian {

namespace {

using detail::ActLayout;
using detail::AttentionActs;
using detail::FfnActs;
using detail::LayerActs;
using detail::PassArrays;
using gpt2::AttentionDims;
using train_detail::shapeError;

// Hands out 64-byte aligned offsets into one buffer.
struct Allocator {
    std::size_t line = 8;
    std::size_t at = 0;
    std::size_t operator()(std::size_t count)
    {
        const std::size_t offset = at;
        at = (at + count + line - 1) / line * line;
        return offset;
    }
};

// Without `full`, the arrays no gradient flows into (weights, LayerNorm statistics,
// probabilities) take no room: the gradient buffer's layout.
AttentionActs attentionActs(Allocator& take, std::size_t Nq, std::size_t Nk, std::size_t C,
                            std::size_t weights, bool cross, bool full)
{
    AttentionActs a;
    a.q = take(Nq * C * (cross ? 1 : 3));
    a.kv = take(cross ? Nk * 2 * C : 0);
    a.att = take(full ? weights : 0);
    a.atty = take(Nq * C);
    a.proj = take(Nq * C);
    a.res = take(Nq * C);
    a.ln = take(Nq * C);
    a.mean = take(full ? Nq : 0);
    a.rstd = take(full ? Nq : 0);
    return a;
}

FfnActs ffnActs(Allocator& take, std::size_t N, std::size_t C, std::size_t F, bool full)
{
    FfnActs a;
    a.fc1 = take(N * F);
    a.act = take(N * F);
    a.fc2 = take(N * C);
    a.res = take(N * C);
    a.ln = take(N * C);
    a.mean = take(full ? N : 0);
    a.rstd = take(full ? N : 0);
    return a;
}

ActLayout actLayout(const Config& c, long B, long S, long T, bool full, std::size_t line)
{
    const auto Ns = static_cast<std::size_t>(B * S);
    const auto Nt = static_cast<std::size_t>(B * T);
    const auto C = static_cast<std::size_t>(c.channels);
    const auto F = static_cast<std::size_t>(c.ffn);
    const auto BH = static_cast<std::size_t>(B * c.heads);
    const auto s = static_cast<std::size_t>(S);
    const auto t = static_cast<std::size_t>(T);
    Allocator take{line};
    ActLayout a;
    a.source = take(Ns * C);
    a.target = take(Nt * C);
    for (long l = 0; l < c.encoderLayers; ++l) {
        LayerActs x;
        x.self = attentionActs(take, Ns, Ns, C, BH * s * s, false, full);
        x.ffn = ffnActs(take, Ns, C, F, full);
        a.encoder.push_back(x);
    }
    for (long l = 0; l < c.decoderLayers; ++l) {
        LayerActs x;
        x.self = attentionActs(take, Nt, Nt, C, BH * t * t, false, full);
        x.cross = attentionActs(take, Nt, Ns, C, BH * t * s, true, full);
        x.ffn = ffnActs(take, Nt, C, F, full);
        a.decoder.push_back(x);
    }
    a.logits = take(Nt * static_cast<std::size_t>(c.vocab));
    a.probs = take(full ? Nt * static_cast<std::size_t>(c.vocab) : 0);
    a.total = take.at;
    return a;
}

Status tooLong(const char* field, long value, long limit)
{
    Status s = failure(StatusCode::TooLong, "", field,
                       std::to_string(value) + " tokens per sequence exceed the model's " +
                           std::to_string(limit) + " positions");
    s.value = value;
    s.limit = limit;
    return s;
}

// The threads core/kernels' products may take (omp_get_max_threads() of this thread) while a
// pass runs: the trainer's own count, the caller's restored after.
class KernelThreads {
public:
    explicit KernelThreads(int threads) : previous_(omp_get_max_threads())
    {
        omp_set_num_threads(threads);
    }
    ~KernelThreads() { omp_set_num_threads(previous_); }
    KernelThreads(const KernelThreads&) = delete;
    KernelThreads& operator=(const KernelThreads&) = delete;

private:
    int previous_;
};

Status checkBatch(const Config& c, const Batch& b)
{
    if (b.B <= 0 || b.S <= 0 || b.T <= 0)
        return shapeError("batch", b.B, std::min(b.S, b.T), std::max(1L, b.B), 1);
    const struct {
        const char* name;
        std::size_t size;
        long want;
    } spans[] = {{"source", b.source.size(), b.B * b.S},
                 {"sourceLengths", b.sourceLengths.size(), b.B},
                 {"input", b.input.size(), b.B * b.T},
                 {"targets", b.targets.size(), b.B * b.T}};
    for (const auto& [name, size, want] : spans)
        if (static_cast<long>(size) != want)
            return shapeError(name, static_cast<long>(size), 1, want, 1);
    if (b.S > c.maxT) return tooLong("source", b.S, c.maxT);
    if (b.T > c.maxT) return tooLong("input", b.T, c.maxT);
    for (long i = 0; i < b.B; ++i) {
        const int n = b.sourceLengths[static_cast<std::size_t>(i)];
        if (n < 1 || n > b.S) return shapeError("sourceLengths", i, n, i, b.S);
    }
    if (Status s = gpt2::checkTokenIds("source", b.source, c.vocab); !s.ok()) return s;
    if (Status s = gpt2::checkTokenIds("input", b.input, c.vocab); !s.ok()) return s;
    bool anyTarget = false;
    for (std::size_t i = 0; i < b.targets.size(); ++i) {
        const int t = b.targets[i];
        anyTarget = anyTarget || t >= 0;
        if (t >= c.vocab || t < -1)
            return gpt2::checkTokenIds("targets", b.targets.subspan(i, 1), c.vocab);
    }
    if (!anyTarget)
        return failure(StatusCode::ShapeMismatch, "", "targets", "every target is padding");
    return {};
}

}  // namespace

Trainer::Trainer(Parameters params, const AdamSettings& settings, Precision precision)
    : params_(std::move(params)),
      settings_(settings),
      precision_(precision),
      grads_(params_.values.size(), 0.0),
      m_(params_.values.size(), 0.0),
      v_(params_.values.size(), 0.0)
{
    gpt2::fixEigenBlocking();
}

// Sized for the largest batch seen so far: batches of other shapes (the sources and targets of
// every batch are padded to their own longest) reuse the buffers without allocating or filling
// them again. Every activation is written before it is read, and backward() zeroes the gradients
// it uses.
template <typename S>
void Trainer::prepareWorkspace(Workspace<S>& ws, long B, long Ss, long T)
{
    const Config& c = params_.config;
    constexpr std::size_t line = 64 / sizeof(S);
    layout_ = actLayout(c, B, Ss, T, true, line);
    gradLayout_ = actLayout(c, B, Ss, T, false, line);
    const auto grow = [](auto& v, std::size_t n) {
        if (v.size() < n) v.resize(n, S(0));
    };
    grow(ws.acts, layout_.total);
    grow(ws.dacts, gradLayout_.total);
    const std::size_t stride =
        std::max({gpt2::scratchStride<S>(Ss, Ss), gpt2::scratchStride<S>(T, T),
                  gpt2::scratchStride<S>(T, Ss)});
    grow(ws.scratch, static_cast<std::size_t>(std::max(threads_, scratchThreads_)) * stride);
    const long C = c.channels;
    if (ws.positions.empty()) {
        ws.positions.resize(static_cast<std::size_t>(c.maxT * C));
        for (long p = 0; p < c.maxT; ++p)
            for (long k = 0; k < C; ++k)
                ws.positions[static_cast<std::size_t>(p * C + k)] =
                    static_cast<S>(model::sinusoid(p, k, C));
    }
}

void Trainer::prepare(long B, long S, long T)
{
    if (B == B_ && S == S_ && T == T_ && threads_ <= scratchThreads_) return;
    if (precision_ == Precision::Double) {
        prepareWorkspace(double_, B, S, T);
    } else {
        prepareWorkspace(float_, B, S, T);
        floatParams_.resize(params_.values.size(), 0.0F);
        floatGrads_.resize(params_.values.size(), 0.0F);
    }
    scratchThreads_ = std::max(scratchThreads_, threads_);
    B_ = B;
    S_ = S;
    T_ = T;
}

Status Trainer::forward(const Batch& batch, double& loss)
{
    if (Status s = checkBatch(params_.config, batch); !s.ok()) return s;
    prepare(batch.B, batch.S, batch.T);
    source_.assign(batch.source.begin(), batch.source.end());
    lengths_.assign(batch.sourceLengths.begin(), batch.sourceLengths.end());
    input_.assign(batch.input.begin(), batch.input.end());
    targets_.assign(batch.targets.begin(), batch.targets.end());
    const KernelThreads kernelThreads(threads_);
    if (precision_ == Precision::Double) {
        loss = forwardPass(params_.values.data(), double_);
    } else {
        std::copy(params_.values.begin(), params_.values.end(), floatParams_.begin());
        loss = forwardPass(floatParams_.data(), float_);
    }
    return {};
}

template <typename S>
double Trainer::forwardPass(const S* P, Workspace<S>& ws)
{
    const Config& c = params_.config;
    const ActLayout& a = layout_;
    const long C = c.channels, H = c.heads;
    const PassArrays<S> p{P, nullptr, ws.acts.data(), nullptr, ws.scratch.data(),
                          C, c.ffn,   c.activation,   threads_};
    S* A = p.A;
    const auto scale = static_cast<S>(std::sqrt(static_cast<double>(C)));
    gpt2::encoderForward(A + a.source, source_.data(), P + params_.shared, ws.positions.data(), B_,
                         S_, C, scale);
    gpt2::encoderForward(A + a.target, input_.data(), P + params_.shared, ws.positions.data(), B_,
                         T_, C, scale);
    const AttentionDims encoderSelf{B_, S_, S_, C, H, 3 * C, 3 * C, false, lengths_.data()};
    const S* x = A + a.source;
    for (std::size_t l = 0; l < a.encoder.size(); ++l) {
        const LayerActs& acts = a.encoder[l];
        detail::attentionSublayerForward(p, params_.encoder[l].self, acts.self, x, nullptr,
                                         encoderSelf);
        detail::ffnSublayerForward(p, params_.encoder[l].ffn, acts.ffn, A + acts.self.ln, B_ * S_);
        x = A + acts.ffn.ln;
    }
    const S* memory = x;
    const AttentionDims decoderSelf{B_, T_, T_, C, H, 3 * C, 3 * C, true, nullptr};
    const AttentionDims cross{B_, T_, S_, C, H, C, 2 * C, false, lengths_.data()};
    x = A + a.target;
    for (std::size_t l = 0; l < a.decoder.size(); ++l) {
        const LayerActs& acts = a.decoder[l];
        const LayerOffsets& w = params_.decoder[l];
        detail::attentionSublayerForward(p, w.self, acts.self, x, nullptr, decoderSelf);
        detail::attentionSublayerForward(p, w.cross, acts.cross, A + acts.self.ln, memory, cross);
        detail::ffnSublayerForward(p, w.ffn, acts.ffn, A + acts.cross.ln, B_ * T_);
        x = A + acts.ffn.ln;
    }
    const long Nt = B_ * T_, V = c.vocab;
    gpt2::unembedForward(A + a.logits, x, P + params_.shared, Nt, C, V, P + params_.logitsBias);
    return gpt2::crossEntropyForward(A + a.probs, A + a.logits, targets_.data(), Nt, V);
}

void Trainer::backward()
{
    if (B_ == 0) return;  // no forward() yet: nothing to differentiate
    const KernelThreads kernelThreads(threads_);
    if (precision_ == Precision::Double) {
        backwardPass(params_.values.data(), grads_.data(), double_);
    } else {
        backwardPass(floatParams_.data(), floatGrads_.data(), float_);
        std::copy(floatGrads_.begin(), floatGrads_.end(), grads_.begin());
    }
}

template <typename S>
void Trainer::backwardPass(const S* P, S* G, Workspace<S>& ws)
{
    const Config& c = params_.config;
    const ActLayout& a = layout_;
    const ActLayout& d = gradLayout_;
    const long C = c.channels, H = c.heads, Nt = B_ * T_, V = c.vocab;
    std::fill(G, G + params_.values.size(), S(0));
    std::fill(ws.dacts.begin(), ws.dacts.begin() + static_cast<long>(d.total), S(0));
    const PassArrays<S> p{P, G,     ws.acts.data(), ws.dacts.data(), ws.scratch.data(),
                          C, c.ffn, c.activation,   threads_};
    const S* A = p.A;
    S* D = p.D;
    gpt2::crossEntropyBackward(D + d.logits, A + a.probs, targets_.data(), Nt, V);
    gpt2::unembedBackward(D + d.decoder.back().ffn.ln, G + params_.shared, D + d.logits,
                          A + a.decoder.back().ffn.ln, P + params_.shared, Nt, C, V,
                          G + params_.logitsBias);
    const S* memory = A + a.encoder.back().ffn.ln;
    S* dmemory = D + d.encoder.back().ffn.ln;
    const AttentionDims decoderSelf{B_, T_, T_, C, H, 3 * C, 3 * C, true, nullptr};
    const AttentionDims cross{B_, T_, S_, C, H, C, 2 * C, false, lengths_.data()};
    for (std::size_t l = a.decoder.size(); l-- > 0;) {
        const LayerActs& x = a.decoder[l];
        const LayerActs& dx = d.decoder[l];
        const LayerOffsets& w = params_.decoder[l];
        detail::ffnSublayerBackward(p, w.ffn, x.ffn, dx.ffn, A + x.cross.ln, D + dx.cross.ln, Nt);
        detail::attentionSublayerBackward(p, w.cross, x.cross, dx.cross, A + x.self.ln,
                                          D + dx.self.ln, memory, dmemory, cross);
        const S* in = l == 0 ? A + a.target : A + a.decoder[l - 1].ffn.ln;
        S* din = l == 0 ? D + d.target : D + d.decoder[l - 1].ffn.ln;
        detail::attentionSublayerBackward(p, w.self, x.self, dx.self, in, din, nullptr, nullptr,
                                          decoderSelf);
    }
    const AttentionDims encoderSelf{B_, S_, S_, C, H, 3 * C, 3 * C, false, lengths_.data()};
    for (std::size_t l = a.encoder.size(); l-- > 0;) {
        const LayerActs& x = a.encoder[l];
        const LayerActs& dx = d.encoder[l];
        const LayerOffsets& w = params_.encoder[l];
        detail::ffnSublayerBackward(p, w.ffn, x.ffn, dx.ffn, A + x.self.ln, D + dx.self.ln,
                                    B_ * S_);
        const S* in = l == 0 ? A + a.source : A + a.encoder[l - 1].ffn.ln;
        S* din = l == 0 ? D + d.source : D + d.encoder[l - 1].ffn.ln;
        detail::attentionSublayerBackward(p, w.self, x.self, dx.self, in, din, nullptr, nullptr,
                                          encoderSelf);
    }
    const auto scale = static_cast<S>(std::sqrt(static_cast<double>(C)));
    gpt2::encoderBackward<S>(G + params_.shared, nullptr, D + d.target, input_.data(), B_, T_, C,
                             scale);
    gpt2::encoderBackward<S>(G + params_.shared, nullptr, D + d.source, source_.data(), B_, S_, C,
                             scale);
}

Status Trainer::step(const Batch& batch, double& loss)
{
    if (Status s = forward(batch, loss); !s.ok()) return s;
    backward();
    return gpt2::adamWStep(params_.tensors, params_.values, grads_, m_, v_, settings_, steps_,
                           loss);
}

std::vector<double> Trainer::widened(std::size_t offset, std::size_t count) const
{
    if (precision_ == Precision::Double) {
        const double* from = double_.acts.data() + offset;
        return {from, from + count};
    }
    const float* from = float_.acts.data() + offset;
    return {from, from + count};
}

std::vector<double> Trainer::logits() const
{
    if (B_ == 0) return {};
    return widened(layout_.logits, static_cast<std::size_t>(B_ * T_ * params_.config.vocab));
}

std::vector<double> Trainer::crossAttention(int layer) const
{
    if (B_ == 0 || layer < 0 || layer >= static_cast<int>(layout_.decoder.size())) return {};
    const auto count = static_cast<std::size_t>(B_ * params_.config.heads * T_ * S_);
    return widened(layout_.decoder[static_cast<std::size_t>(layer)].cross.att, count);
}

}  // namespace attn::marian
