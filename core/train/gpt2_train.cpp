// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's training pass, written as llm.c's train_gpt2.c writes it: one buffer of parameters,
// one of their gradients, one of activations and one of the activations' gradients, and the
// layer kinds of gpt2_layers.h called in order.
//
// Shapes (B sequences, T tokens, N = B T rows; V vocabulary, C channels, H heads, L layers):
//   parameters  wte [V, C], wpe [maxT, C]; per layer ln_1 [C] x2, c_attn [C, 3C] + [3C],
//               attn.c_proj [C, C] + [C], ln_2 [C] x2, c_fc [C, 4C] + [4C],
//               mlp.c_proj [4C, C] + [C]; ln_f [C] x2
//   activations encoded [N, C]; per layer ln1 [N, C] (+ mean, rstd [N]), qkv [N, 3C],
//               att [B, H, T, T], atty [N, C], attproj [N, C], res2 [N, C], ln2 [N, C]
//               (+ mean, rstd), fch [N, 4C], fchGelu [N, 4C], fcproj [N, C], res3 [N, C];
//               lnf [N, C] (+ mean, rstd), logits [N, V], probs [N, V]
//
// Forward, per batch:
//   1. encoded = wte[tokens] + wpe[0..T)
//   2. per layer l, x = encoded or the previous layer's output:
//        ln1 = LN(x); qkv = ln1 W_attn + b; atty = attention(qkv); attproj = atty W_proj + b;
//        res2 = x + attproj;
//        (full) ln2 = LN(res2); fch = ln2 W_fc + b; fchGelu = gelu(fch);
//               fcproj = fchGelu W_fcproj + b; res3 = res2 + fcproj
//      the layer's output is res3, or res2 in an attention-only model
//   3. lnf = LN(output of layer L-1); logits = lnf wte^T; probs = softmax(logits)
//   4. loss = mean over the N rows of -log probs[target]
// Backward: the same steps in reverse, each layer kind's backward function adding into the
// gradient buffers, zeroed once at the start: 4, 3 (wte's second contribution), 2 from layer
// L-1 down, 1 (wte's first and wpe).
// Update: AdamW (gradient clipped to a global norm when asked), in buffer order.
//
// Precision::Float runs the same passes (the layer kinds are templates) on a float copy of the
// parameters, into float gradients that are then widened into the double gradient buffer: the
// update, the clipping and the finiteness check are the double path's, on the master weights.
#include "core/train/gpt2_train.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <Eigen/Core>

#include "core/random_init.h"
#include "core/train/checks.h"
#include "core/train/gpt2_layers.h"

namespace attn::gpt2 {

namespace {

using detail::ActLayout;
using detail::LayerActs;
using train_detail::shapeError;

// The activations' layout, or (`gradients`) that of their gradients: the same tensors
// without those no gradient flows into (the softmax weights, whose gradient lives in the
// attention's scratch, LayerNorm's statistics and the probabilities), which would only be
// zeroed every step. Every array starts at a multiple of `line` scalars (64 bytes).
ActLayout actLayout(const Config& c, long B, long T, bool gradients, std::size_t line)
{
    const auto N = static_cast<std::size_t>(B * T);
    const auto C = static_cast<std::size_t>(c.channels);
    const auto att = gradients ? 0 : static_cast<std::size_t>(B * c.heads * T * T);
    const std::size_t stats = gradients ? 0 : N;
    const bool mlp = !c.attentionOnly;
    ActLayout a;
    std::size_t at = 0;
    const auto take = [&](std::size_t count) {
        const std::size_t offset = at;
        at = (at + count + line - 1) / line * line;
        return offset;
    };
    a.encoded = take(N * C);
    a.layers.resize(static_cast<std::size_t>(c.layers));
    for (LayerActs& l : a.layers) {
        l.ln1 = take(N * C);
        l.ln1Mean = take(stats);
        l.ln1Rstd = take(stats);
        l.qkv = take(N * 3 * C);
        l.att = take(att);
        l.atty = take(N * C);
        l.attproj = take(N * C);
        l.res2 = take(N * C);
        l.ln2 = take(mlp ? N * C : 0);
        l.ln2Mean = take(mlp ? stats : 0);
        l.ln2Rstd = take(mlp ? stats : 0);
        l.fch = take(mlp ? N * 4 * C : 0);
        l.fchGelu = take(mlp ? N * 4 * C : 0);
        l.fcproj = take(mlp ? N * C : 0);
        l.res3 = take(mlp ? N * C : 0);
        l.output = mlp ? l.res3 : l.res2;
    }
    a.lnf = take(N * C);
    a.lnfMean = take(stats);
    a.lnfRstd = take(stats);
    a.logits = take(N * static_cast<std::size_t>(c.vocab));
    a.probs = take(gradients ? 0 : N * static_cast<std::size_t>(c.vocab));
    a.total = at;
    return a;
}

Status configError(const char* field, const std::string& detail)
{
    return failure(StatusCode::ConfigField, "", field, detail);
}

}  // namespace

Status validate(const Config& c)
{
    if (Status s = train_detail::positiveSizes({{"vocab", c.vocab},
                                                {"maxT", c.maxT},
                                                {"layers", c.layers},
                                                {"heads", c.heads},
                                                {"channels", c.channels}});
        !s.ok())
        return s;
    if (c.channels % c.heads != 0)
        return configError("channels", std::to_string(c.channels) + " channels do not split into " +
                                           std::to_string(c.heads) + " heads");
    return {};
}

const Tensor* Parameters::find(const std::string& name) const
{
    for (const Tensor& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

Status makeParameters(const Config& c, Parameters& out)
{
    if (Status s = validate(c); !s.ok()) return s;
    Parameters p;
    p.config = c;
    const long C = c.channels;
    std::size_t at = 0;
    const auto add = [&](std::string name, std::vector<long> shape) {
        std::size_t count = 1;
        for (long d : shape) count *= static_cast<std::size_t>(d);
        p.tensors.push_back({std::move(name), std::move(shape), at, count});
        at = alignedOffset(at + count);
        return p.tensors.back().offset;
    };
    p.wte = add("wte.weight", {c.vocab, C});
    p.wpe = add("wpe.weight", {c.maxT, C});
    for (long l = 0; l < c.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        LayerOffsets o;
        o.ln1w = add(h + "ln_1.weight", {C});
        o.ln1b = add(h + "ln_1.bias", {C});
        o.qkvw = add(h + "attn.c_attn.weight", {C, 3 * C});
        o.qkvb = add(h + "attn.c_attn.bias", {3 * C});
        o.projw = add(h + "attn.c_proj.weight", {C, C});
        o.projb = add(h + "attn.c_proj.bias", {C});
        if (!c.attentionOnly) {
            o.ln2w = add(h + "ln_2.weight", {C});
            o.ln2b = add(h + "ln_2.bias", {C});
            o.fcw = add(h + "mlp.c_fc.weight", {C, 4 * C});
            o.fcb = add(h + "mlp.c_fc.bias", {4 * C});
            o.fcprojw = add(h + "mlp.c_proj.weight", {4 * C, C});
            o.fcprojb = add(h + "mlp.c_proj.bias", {C});
        }
        p.layers.push_back(o);
    }
    p.lnfw = add("ln_f.weight", {C});
    p.lnfb = add("ln_f.bias", {C});
    p.values.assign(at, 0.0);
    out = std::move(p);
    return {};
}

std::size_t trainerBytes(const Config& c, long B, long T, Precision precision, int threads)
{
    const auto C = static_cast<double>(c.channels);
    const double perLayer = 3 * C * C + C * C + 8 * C + (c.attentionOnly ? 0 : 8 * C * C + 7 * C);
    // Each tensor starts on a 64-byte line: at most 8 doubles of padding each.
    const double params = static_cast<double>(c.vocab + c.maxT) * C + 2 * C +
                          static_cast<double>(c.layers) * (perLayer + 12 * 8) + 4 * 8;
    const bool isFloat = precision == Precision::Float;
    const double scalar = isFloat ? 4.0 : 8.0;
    const std::size_t line = isFloat ? 16 : 8;
    const double acts = static_cast<double>(actLayout(c, B, T, false, line).total +
                                            actLayout(c, B, T, true, line).total);
    const double scratch = static_cast<double>(threads) * static_cast<double>(T) * T;
    double bytes = params * (4 * 8 + (isFloat ? 2 * 4 : 0)) + (acts + scratch) * scalar;
    if (isFloat) {
        const double att = static_cast<double>(c.layers) * B * c.heads * T * T;
        bytes += (att + static_cast<double>(B) * T * c.vocab) * 8;
    }
    return static_cast<std::size_t>(bytes);
}

void initialise(Parameters& p, std::uint64_t seed, double stddev)
{
    Rng rng(seed);
    const double residualStd = stddev / std::sqrt(2.0 * static_cast<double>(p.config.layers));
    for (const Tensor& t : p.tensors) {
        double* v = p.values.data() + t.offset;
        const bool layerNormWeight =
            t.name.find("ln_") != std::string::npos && t.name.ends_with(".weight");
        const bool residualProjection = t.name.ends_with("c_proj.weight");
        if (layerNormWeight) {
            std::fill(v, v + t.count, 1.0);
        } else if (t.shape.size() == 1) {
            std::fill(v, v + t.count, 0.0);
        } else {
            const double s = residualProjection ? residualStd : stddev;
            for (std::size_t i = 0; i < t.count; ++i) v[i] = s * rng.normal();
        }
    }
}

// Eigen blocks its products by the cache sizes it reads from the CPU, so the same products sum
// in another order, and round differently, on a CPU with another L1 (a 32 KiB L1d gave the
// Tang and induction models' second losses 2e-10 apart from the 48 KiB one they were trained
// on). Fixed sizes make a run repeat bit for bit on every machine of one kernel path; these
// are those of the machine the built-in models were trained on (Zen 5).
void fixEigenBlocking()
{
    static std::once_flag once;
    std::call_once(once, [] {
        Eigen::setCpuCacheSizes(std::ptrdiff_t{48} << 10, std::ptrdiff_t{1} << 20,
                                std::ptrdiff_t{32} << 20);
    });
}

Status checkTokenIds(const char* field, std::span<const int> ids, long vocab)
{
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] < 0 || ids[i] >= vocab) {
            Status s = failure(StatusCode::TokenOutOfRange, "", field,
                               "entry " + std::to_string(i + 1) + " is " + std::to_string(ids[i]) +
                                   ", outside the vocabulary of " + std::to_string(vocab));
            s.position = static_cast<long>(i);
            s.value = ids[i];
            s.limit = vocab;
            return s;
        }
    }
    return {};
}

Trainer::Trainer(Parameters params, const AdamSettings& settings, Precision precision)
    : params_(std::move(params)),
      settings_(settings),
      precision_(precision),
      grads_(params_.values.size(), 0.0),
      m_(params_.values.size(), 0.0),
      v_(params_.values.size(), 0.0)
{
    fixEigenBlocking();
}

template <typename S>
void Trainer::prepareWorkspace(Workspace<S>& ws, long B, long T)
{
    constexpr std::size_t line = 64 / sizeof(S);
    layout_ = actLayout(params_.config, B, T, false, line);
    gradLayout_ = actLayout(params_.config, B, T, true, line);
    ws.acts.assign(layout_.total, S(0));
    ws.dacts.assign(gradLayout_.total, S(0));
    ws.scratch.assign(static_cast<std::size_t>(threads_) * scratchStride<S>(T), S(0));
}

void Trainer::prepare(long B, long T)
{
    if (B == B_ && T == T_ && threads_ <= scratchThreads_) return;
    if (precision_ == Precision::Double) {
        prepareWorkspace(double_, B, T);
    } else {
        prepareWorkspace(float_, B, T);
        floatParams_.assign(params_.values.size(), 0.0F);
        floatGrads_.assign(params_.values.size(), 0.0F);
        views_.assign(1 + layout_.layers.size(), Buffer());
    }
    scratchThreads_ = threads_;
    tokens_.assign(static_cast<std::size_t>(B * T), 0);
    targets_.assign(static_cast<std::size_t>(B * T), 0);
    B_ = B;
    T_ = T;
}

Status Trainer::forward(const Batch& batch, double& loss)
{
    const Config& c = params_.config;
    const long N = batch.B * batch.T;
    if (batch.B <= 0 || batch.T <= 0)
        return shapeError("batch", batch.B, batch.T, std::max(1L, batch.B), std::max(1L, batch.T));
    if (static_cast<long>(batch.tokens.size()) != N)
        return shapeError("tokens", static_cast<long>(batch.tokens.size()), 1, N, 1);
    if (static_cast<long>(batch.targets.size()) != N)
        return shapeError("targets", static_cast<long>(batch.targets.size()), 1, N, 1);
    if (batch.T > c.maxT) {
        Status s = failure(StatusCode::TooLong, "", "tokens",
                           std::to_string(batch.T) + " tokens per sequence exceed the model's " +
                               std::to_string(c.maxT) + " positions");
        s.value = batch.T;
        s.limit = c.maxT;
        return s;
    }
    if (Status s = checkTokenIds("tokens", batch.tokens, c.vocab); !s.ok()) return s;
    if (Status s = checkTokenIds("targets", batch.targets, c.vocab); !s.ok()) return s;
    prepare(batch.B, batch.T);
    std::copy(batch.tokens.begin(), batch.tokens.end(), tokens_.begin());
    std::copy(batch.targets.begin(), batch.targets.end(), targets_.begin());
    if (precision_ == Precision::Double) {
        loss = forwardPass(params_.values.data(), double_);
    } else {
        std::copy(params_.values.begin(), params_.values.end(), floatParams_.begin());
        loss = forwardPass(floatParams_.data(), float_);
        viewsFresh_.assign(views_.size(), false);
    }
    return {};
}

template <typename S>
double Trainer::forwardPass(const S* P, Workspace<S>& ws)
{
    const Config& c = params_.config;
    const ActLayout& a = layout_;
    const long B = B_, T = T_, N = B_ * T_, C = c.channels, H = c.heads, V = c.vocab;
    const int* tokens = tokens_.data();
    S* A = ws.acts.data();
    S* scratch = ws.scratch.data();
    encoderForward(A + a.encoded, tokens, P + params_.wte, P + params_.wpe, B, T, C);
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        const LayerActs& x = a.layers[l];
        const LayerOffsets& w = params_.layers[l];
        const S* residual = A + (l == 0 ? a.encoded : a.layers[l - 1].output);
        layernormForward(A + x.ln1, A + x.ln1Mean, A + x.ln1Rstd, residual, P + w.ln1w, P + w.ln1b,
                         N, C);
        matmulForward(A + x.qkv, A + x.ln1, P + w.qkvw, P + w.qkvb, N, C, 3 * C, threads_);
        attentionForward(A + x.atty, A + x.att, A + x.qkv, B, T, C, H, scratch, threads_);
        matmulForward(A + x.attproj, A + x.atty, P + w.projw, P + w.projb, N, C, C, threads_);
        residualForward(A + x.res2, residual, A + x.attproj, N * C);
        if (c.attentionOnly) continue;
        layernormForward(A + x.ln2, A + x.ln2Mean, A + x.ln2Rstd, A + x.res2, P + w.ln2w,
                         P + w.ln2b, N, C);
        matmulForward(A + x.fch, A + x.ln2, P + w.fcw, P + w.fcb, N, C, 4 * C, threads_);
        geluForward(A + x.fchGelu, A + x.fch, N * 4 * C);
        matmulForward(A + x.fcproj, A + x.fchGelu, P + w.fcprojw, P + w.fcprojb, N, 4 * C, C,
                      threads_);
        residualForward(A + x.res3, A + x.res2, A + x.fcproj, N * C);
    }
    layernormForward(A + a.lnf, A + a.lnfMean, A + a.lnfRstd, A + a.layers.back().output,
                     P + params_.lnfw, P + params_.lnfb, N, C);
    unembedForward(A + a.logits, A + a.lnf, P + params_.wte, N, C, V);
    return crossEntropyForward(A + a.probs, A + a.logits, targets_.data(), N, V);
}

void Trainer::backward()
{
    if (layout_.layers.empty()) return;  // no forward() yet: nothing to differentiate
    if (precision_ == Precision::Double) {
        backwardPass(params_.values.data(), grads_.data(), double_);
    } else {
        backwardPass(floatParams_.data(), floatGrads_.data(), float_);
        std::copy(floatGrads_.begin(), floatGrads_.end(), grads_.begin());
    }
}

// G: the parameters' gradients, as long as the parameter buffer (zeroed here).
template <typename S>
void Trainer::backwardPass(const S* P, S* G, Workspace<S>& ws)
{
    const Config& c = params_.config;
    const ActLayout& a = layout_;      // activations, in A
    const ActLayout& d = gradLayout_;  // their gradients, in D
    const long B = B_, T = T_, N = B_ * T_, C = c.channels, H = c.heads, V = c.vocab;
    const S* A = ws.acts.data();
    S* D = ws.dacts.data();
    S* scratch = ws.scratch.data();
    std::fill(G, G + params_.values.size(), S(0));
    std::fill(ws.dacts.begin(), ws.dacts.end(), S(0));

    crossEntropyBackward(D + d.logits, A + a.probs, targets_.data(), N, V);
    unembedBackward(D + d.lnf, G + params_.wte, D + d.logits, A + a.lnf, P + params_.wte, N, C, V);
    layernormBackward(D + d.layers.back().output, G + params_.lnfw, G + params_.lnfb, D + d.lnf,
                      A + a.layers.back().output, P + params_.lnfw, A + a.lnfMean, A + a.lnfRstd, N,
                      C);
    for (std::size_t l = a.layers.size(); l-- > 0;) {
        const LayerActs& x = a.layers[l];
        const LayerActs& dx = d.layers[l];
        const LayerOffsets& w = params_.layers[l];
        const S* in = A + (l == 0 ? a.encoded : a.layers[l - 1].output);
        S* din = D + (l == 0 ? d.encoded : d.layers[l - 1].output);
        if (!c.attentionOnly) {
            residualBackward(D + dx.res2, D + dx.fcproj, D + dx.res3, N * C);
            matmulBackward(D + dx.fchGelu, G + w.fcprojw, G + w.fcprojb, D + dx.fcproj,
                           A + x.fchGelu, P + w.fcprojw, N, 4 * C, C, threads_);
            geluBackward(D + dx.fch, A + x.fch, D + dx.fchGelu, N * 4 * C);
            matmulBackward(D + dx.ln2, G + w.fcw, G + w.fcb, D + dx.fch, A + x.ln2, P + w.fcw, N, C,
                           4 * C, threads_);
            layernormBackward(D + dx.res2, G + w.ln2w, G + w.ln2b, D + dx.ln2, A + x.res2,
                              P + w.ln2w, A + x.ln2Mean, A + x.ln2Rstd, N, C);
        }
        residualBackward(din, D + dx.attproj, D + dx.res2, N * C);
        matmulBackward(D + dx.atty, G + w.projw, G + w.projb, D + dx.attproj, A + x.atty,
                       P + w.projw, N, C, C, threads_);
        attentionBackward(D + dx.qkv, D + dx.atty, A + x.qkv, A + x.att, B, T, C, H, scratch,
                          threads_);
        matmulBackward(D + dx.ln1, G + w.qkvw, G + w.qkvb, D + dx.qkv, A + x.ln1, P + w.qkvw, N, C,
                       3 * C, threads_);
        layernormBackward(din, G + w.ln1w, G + w.ln1b, D + dx.ln1, in, P + w.ln1w, A + x.ln1Mean,
                          A + x.ln1Rstd, N, C);
    }
    encoderBackward(G + params_.wte, G + params_.wpe, D + d.encoded, tokens_.data(), B, T, C);
}

Status adamWStep(std::span<const Tensor> tensors, Buffer& values, const Buffer& grads, Buffer& m,
                 Buffer& v, const AdamSettings& settings, long& steps, double loss)
{
    double norm2 = 0.0;
    for (double g : grads) norm2 += g * g;
    if (!std::isfinite(loss) || !std::isfinite(norm2)) {
        Status s =
            failure(StatusCode::NonFinite, "", "loss",
                    std::isfinite(loss) ? "the gradient is not finite" : "the loss is not finite");
        return s;
    }
    const double norm = std::sqrt(norm2);
    const double scale =
        settings.clipNorm > 0.0 && norm > settings.clipNorm ? settings.clipNorm / norm : 1.0;
    ++steps;
    const double b1 = settings.beta1;
    const double b2 = settings.beta2;
    const double c1 = 1.0 - std::pow(b1, static_cast<double>(steps));
    const double c2 = 1.0 - std::pow(b2, static_cast<double>(steps));
    const double lr = settings.learningRate;
    double* p = values.data();
    for (const Tensor& t : tensors) {
        const double decay = t.shape.size() == 2 ? settings.weightDecay : 0.0;
        for (std::size_t i = t.offset; i < t.offset + t.count; ++i) {
            const double g = grads[i] * scale;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            const double mHat = m[i] / c1;
            const double vHat = v[i] / c2;
            p[i] -= lr * (mHat / (std::sqrt(vHat) + settings.epsilon) + decay * p[i]);
        }
    }
    return {};
}

Status Trainer::step(const Batch& batch, double& loss)
{
    if (Status s = forward(batch, loss); !s.ok()) return s;
    backward();
    return adamWStep(params_.tensors, params_.values, grads_, m_, v_, settings_, steps_, loss);
}

std::span<const double> Trainer::widened(std::size_t view, std::size_t offset,
                                         std::size_t count) const
{
    if (precision_ == Precision::Double) return {double_.acts.data() + offset, count};
    Buffer& out = views_[view];
    if (!viewsFresh_[view]) {
        const float* from = float_.acts.data() + offset;
        out.assign(from, from + count);
        viewsFresh_[view] = true;
    }
    return out;
}

std::span<const double> Trainer::logits() const
{
    if (B_ == 0) return {};
    return widened(0, layout_.logits, static_cast<std::size_t>(B_ * T_ * params_.config.vocab));
}

std::span<const double> Trainer::attention(int layer) const
{
    if (B_ == 0 || layer < 0 || layer >= static_cast<int>(layout_.layers.size())) return {};
    const Config& c = params_.config;
    const auto l = static_cast<std::size_t>(layer);
    return widened(1 + l, layout_.layers[l].att, static_cast<std::size_t>(B_ * c.heads * T_ * T_));
}

}  // namespace attn::gpt2
