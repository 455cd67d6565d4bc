// SPDX-License-Identifier: GPL-3.0-or-later
// Opening an encoder-decoder checkpoint: its config, its weights' files, and each tensor bound by
// its Hugging Face name and checked against its shape.
#include "core/model/seq2seq_model.h"

#include <cmath>
#include <exception>
#include <filesystem>
#include <new>

#include "core/kernels/gemm.h"
#include "core/model/model_binder.h"

namespace attn::model {

namespace {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

attn::Status bindAttention(const Binder& b, const std::string& base, const Seq2SeqConfig& c,
                           const char* const names[4], Seq2SeqAttention& a)
{
    const long d = c.width;
    const long inner = c.innerWidth();
    const bool bias = !c.isT5();
    ATTN_TRY(b.dense(base + names[0], d, inner, true, a.q, bias));
    ATTN_TRY(b.dense(base + names[1], d, inner, true, a.k, bias));
    ATTN_TRY(b.dense(base + names[2], d, inner, true, a.v, bias));
    return b.dense(base + names[3], inner, d, true, a.out, bias);
}

// BART and Marian: "model.{encoder,decoder}.layers.{i}." with post-LN LayerNorms.
attn::Status bindBartStack(const Binder& b, const Seq2SeqConfig& c, bool decoder,
                           Seq2SeqStack& stack)
{
    static const char* const kProj[4] = {"q_proj", "k_proj", "v_proj", "out_proj"};
    const std::string s = decoder ? "decoder." : "encoder.";
    const long d = c.width;
    const long ffn = decoder ? c.decoderFfn : c.encoderFfn;
    if (c.family == Seq2SeqFamily::Bart) {
        // BartLearnedPositionalEmbedding: rows 0 and 1 are never used (the offset of 2).
        ATTN_TRY(b.bind(s + "embed_positions.weight", {c.positions + 2, d}, stack.positions));
        ATTN_TRY(b.norm(s + "layernorm_embedding", d, stack.embeddingNorm));
    }
    stack.layers.clear();
    const long count = decoder ? c.decoderLayers : c.encoderLayers;
    for (long i = 0; i < count; ++i) {
        const std::string p = s + "layers." + std::to_string(i) + ".";
        Seq2SeqLayer& L = stack.layers.emplace_back();
        ATTN_TRY(bindAttention(b, p + "self_attn.", c, kProj, L.self));
        ATTN_TRY(b.norm(p + "self_attn_layer_norm", d, L.selfNorm));
        if (decoder) {
            ATTN_TRY(bindAttention(b, p + "encoder_attn.", c, kProj, L.cross));
            ATTN_TRY(b.norm(p + "encoder_attn_layer_norm", d, L.crossNorm));
        }
        ATTN_TRY(b.dense(p + "fc1", d, ffn, true, L.ffnIn));
        ATTN_TRY(b.dense(p + "fc2", ffn, d, true, L.ffnOut));
        ATTN_TRY(b.norm(p + "final_layer_norm", d, L.ffnNorm));
    }
    return {};
}

// T5: "{encoder,decoder}.block.{i}.layer.{0,1,2}." with RMSNorms before each part.
attn::Status bindT5Stack(const Binder& b, const Seq2SeqConfig& c, bool decoder, Seq2SeqStack& stack)
{
    static const char* const kProj[4] = {"q", "k", "v", "o"};
    const std::string s = decoder ? "decoder." : "encoder.";
    const long d = c.width;
    const long ffn = c.encoderFfn;
    ATTN_TRY(b.bind(s + "block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                    {c.relativeBuckets, c.heads}, stack.relativeBias));
    ATTN_TRY(b.rmsNorm(s + "final_layer_norm", d, stack.finalNorm));
    stack.layers.clear();
    const long count = decoder ? c.decoderLayers : c.encoderLayers;
    for (long i = 0; i < count; ++i) {
        const std::string p = s + "block." + std::to_string(i) + ".layer.";
        Seq2SeqLayer& L = stack.layers.emplace_back();
        ATTN_TRY(bindAttention(b, p + "0.SelfAttention.", c, kProj, L.self));
        ATTN_TRY(b.rmsNorm(p + "0.layer_norm", d, L.selfNorm));
        if (decoder) {
            ATTN_TRY(bindAttention(b, p + "1.EncDecAttention.", c, kProj, L.cross));
            ATTN_TRY(b.rmsNorm(p + "1.layer_norm", d, L.crossNorm));
        }
        const std::string f = p + (decoder ? "2." : "1.");
        if (c.gatedFfn) {
            ATTN_TRY(b.dense(f + "DenseReluDense.wi_0", d, ffn, true, L.ffnGate, false));
            ATTN_TRY(b.dense(f + "DenseReluDense.wi_1", d, ffn, true, L.ffnIn, false));
        } else {
            ATTN_TRY(b.dense(f + "DenseReluDense.wi", d, ffn, true, L.ffnIn, false));
        }
        ATTN_TRY(b.dense(f + "DenseReluDense.wo", ffn, d, true, L.ffnOut, false));
        ATTN_TRY(b.rmsNorm(f + "layer_norm", d, L.ffnNorm));
    }
    return {};
}

Dense table(const Seq2SeqConfig& c)
{
    Dense d;
    d.in = c.width;
    d.out = c.vocab;
    d.outByIn = true;
    return d;
}

}  // namespace

double sinusoid(long position, long channel, long width)
{
    const long half = (width + 1) / 2;
    const long c = channel < half ? channel : channel - half;
    const double angle = static_cast<double>(position) /
                         std::pow(10000.0, static_cast<double>(2 * c) / static_cast<double>(width));
    return channel < half ? std::sin(angle) : std::cos(angle);
}

FloatMatrix sinusoidalPositions(long positions, long width)
{
    FloatMatrix out(positions, width);
    for (long p = 0; p < positions; ++p)
        for (long c = 0; c < width; ++c) out(p, c) = static_cast<float>(sinusoid(p, c, width));
    return out;
}

long relativeBucket(long relative, bool bidirectional, long buckets, long maxDistance)
{
    long bucket = 0;
    long n = buckets;
    long distance = 0;
    if (bidirectional) {
        n /= 2;
        if (relative > 0) bucket += n;
        distance = relative < 0 ? -relative : relative;
    } else {
        distance = relative < 0 ? -relative : 0;
    }
    const long exact = n / 2;
    if (distance < exact) return bucket + distance;
    // torch: float32 tensors divided and multiplied by Python numbers, then truncated.
    const float ratio = static_cast<float>(distance) / static_cast<float>(exact);
    const auto span =
        static_cast<float>(std::log(static_cast<double>(maxDistance) / static_cast<double>(exact)));
    const float scaled = std::log(ratio) / span * static_cast<float>(n - exact);
    const long large = std::min(exact + static_cast<long>(scaled), n - 1);
    return bucket + large;
}

void Seq2SeqModel::embeddingRow(long id, float* out) const
{
    const long d = config_.width;
    if (embedding_.raw == nullptr) {
        std::copy_n(embedding_.weight + id * d, d, out);
        return;
    }
    const auto* base = static_cast<const unsigned char*>(embedding_.raw);
    kernels::widenWeights(embedding_.format, base + id * d * 2, d, 1, d, out);
}

attn::Status Seq2SeqModel::load(const std::string& folder, Seq2SeqModel& out)
{
    out = Seq2SeqModel();
    try {
        Seq2SeqModel m;
        m.folder_ = folder;
        const std::filesystem::path dir(folder);
        ATTN_TRY(readSeq2SeqConfig((dir / "config.json").string(), m.config_));
        const Seq2SeqConfig& c = m.config_;
        ATTN_TRY(openShards(folder, m.shards_));
        std::vector<const SafetensorsFile*> files;
        for (const SafetensorsFile& f : m.shards_) {
            files.push_back(&f);
            askForSmallTensors(f);
        }
        const bool t5 = c.isT5();
        const Binder b(files, t5 ? "" : "model.", &m.widened_);
        m.embedding_ = table(c);
        ATTN_TRY(b.bindMatrix(
            b.has("shared.weight") || t5 ? "shared.weight" : "encoder.embed_tokens.weight",
            {c.vocab, c.width}, m.embedding_));
        m.output_ = m.embedding_;
        if (b.has("lm_head.weight") || !c.tieWordEmbeddings)
            ATTN_TRY(b.bindMatrix("lm_head.weight", {c.vocab, c.width}, m.output_));
        if (!t5) {
            if (b.has("final_logits_bias")) {
                ATTN_TRY(b.bind("final_logits_bias", {1, c.vocab}, m.finalLogitsBias_));
            } else {
                m.zeroBias_.assign(static_cast<std::size_t>(c.vocab), 0.0f);
                m.finalLogitsBias_ = m.zeroBias_.data();
            }
            ATTN_TRY(bindBartStack(b, c, false, m.encoder_));
            ATTN_TRY(bindBartStack(b, c, true, m.decoder_));
            if (c.family == Seq2SeqFamily::Marian)
                m.sinusoids_ = sinusoidalPositions(c.positions, c.width);
        } else {
            ATTN_TRY(bindT5Stack(b, c, false, m.encoder_));
            ATTN_TRY(bindT5Stack(b, c, true, m.decoder_));
        }
        out = std::move(m);
        return {};
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::TooLarge, folder, "",
                             "not enough memory to open the model");
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::FileOpen, folder, "", e.what());
    }
}

}  // namespace attn::model
