// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model.h"

#include <algorithm>
#include <cassert>
#include <exception>
#include <filesystem>
#include <new>
#include <utility>

#include "core/model/model_binder.h"
#include "core/model/model_folder.h"

namespace attn::model {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

namespace {

attn::Status bindGpt2(const Binder& b, const ModelConfig& c, const float*& word,
                      const float*& position, const float*& output, Norm& finalNorm,
                      std::vector<LayerWeights>& layers)
{
    const long d = c.width;
    ATTN_TRY(b.bind("wte.weight", {c.vocab, d}, word));
    ATTN_TRY(b.bind("wpe.weight", {c.positions, d}, position));
    ATTN_TRY(b.norm("ln_f", d, finalNorm));
    output = word;
    if (b.has("lm_head.weight") || !c.tieWordEmbeddings)
        ATTN_TRY(b.bind("lm_head.weight", {c.vocab, d}, output));
    // Layer by layer as the checkpoint backs them: n_layer is only a number in config.json (2^24
    // layers must not be allocated before the first missing tensor is found).
    layers.clear();
    for (long i = 0; i < c.layers; ++i) {
        const std::string p = "h." + std::to_string(i) + ".";
        LayerWeights& L = layers.emplace_back();
        ATTN_TRY(b.norm(p + "ln_1", d, L.ln1));
        ATTN_TRY(b.dense(p + "attn.c_attn", d, 3 * d, false, L.qkv));
        ATTN_TRY(b.dense(p + "attn.c_proj", d, d, false, L.attnOut));
        ATTN_TRY(b.norm(p + "ln_2", d, L.ln2));
        ATTN_TRY(b.dense(p + "mlp.c_fc", d, c.inner, false, L.mlpIn));
        ATTN_TRY(b.dense(p + "mlp.c_proj", c.inner, d, false, L.mlpOut));
    }
    return {};
}

attn::Status bindBert(const Binder& b, const ModelConfig& c, const float*& word,
                      const float*& position, const float*& tokenType, Norm& embeddingNorm,
                      std::vector<LayerWeights>& layers)
{
    const long d = c.width;
    ATTN_TRY(b.bind("embeddings.word_embeddings.weight", {c.vocab, d}, word));
    ATTN_TRY(b.bind("embeddings.position_embeddings.weight", {c.positions, d}, position));
    ATTN_TRY(b.bind("embeddings.token_type_embeddings.weight", {c.typeVocab, d}, tokenType));
    ATTN_TRY(b.norm("embeddings.LayerNorm", d, embeddingNorm));
    // Layer by layer as the checkpoint backs them: n_layer is only a number in config.json (2^24
    // layers must not be allocated before the first missing tensor is found).
    layers.clear();
    for (long i = 0; i < c.layers; ++i) {
        const std::string p = "encoder.layer." + std::to_string(i) + ".";
        LayerWeights& L = layers.emplace_back();
        ATTN_TRY(b.dense(p + "attention.self.query", d, d, true, L.q));
        ATTN_TRY(b.dense(p + "attention.self.key", d, d, true, L.k));
        ATTN_TRY(b.dense(p + "attention.self.value", d, d, true, L.v));
        ATTN_TRY(b.dense(p + "attention.output.dense", d, d, true, L.attnOut));
        ATTN_TRY(b.norm(p + "attention.output.LayerNorm", d, L.ln1));
        ATTN_TRY(b.dense(p + "intermediate.dense", d, c.inner, true, L.mlpIn));
        ATTN_TRY(b.dense(p + "output.dense", c.inner, d, true, L.mlpOut));
        ATTN_TRY(b.norm(p + "output.LayerNorm", d, L.ln2));
    }
    return {};
}

attn::Status bindMlm(const SafetensorsFile& file, const ModelConfig& c, const float* word,
                     MlmHead& head)
{
    // The head's names carry no "bert." prefix.
    const Binder b(file, "");
    head.present = b.has("cls.predictions.transform.dense.weight");
    if (!head.present) return {};
    const long d = c.width;
    ATTN_TRY(b.dense("cls.predictions.transform.dense", d, d, true, head.transform));
    ATTN_TRY(b.norm("cls.predictions.transform.LayerNorm", d, head.norm));
    ATTN_TRY(b.bind("cls.predictions.bias", {c.vocab}, head.bias, "cls.predictions.decoder.bias"));
    head.decoder = word;
    if (b.has("cls.predictions.decoder.weight") || !c.tieWordEmbeddings)
        ATTN_TRY(b.bind("cls.predictions.decoder.weight", {c.vocab, d}, head.decoder));
    return {};
}

// A [V, d] float table as an nn.Linear without bias.
Dense floatTable(const float* table, const ModelConfig& c)
{
    Dense d;
    d.weight = table;
    d.in = c.width;
    d.out = c.vocab;
    d.outByIn = true;
    return d;
}

}  // namespace

void Model::embeddingRow(long id, float* out) const
{
    const long d = config_.width;
    if (embedding_.raw == nullptr) {
        std::copy_n(word_ + id * d, d, out);
        return;
    }
    const auto* base = static_cast<const unsigned char*>(embedding_.raw);
    kernels::widenWeights(embedding_.format, base + id * d * 2, d, 1, d, out);
}

namespace {

// Where stored row `r` of `d` starts.
const void* storedRow(const Dense& d, long r)
{
    const std::size_t size = d.format == kernels::WeightFormat::F32 ? sizeof(float) : 2;
    return static_cast<const unsigned char*>(d.elements()) +
           static_cast<std::size_t>(r * d.storedCols()) * size;
}

}  // namespace

FloatRows Dense::storedRowsWidened(long r0, long count) const
{
    const long cols = storedCols();
    FloatRows rows(count, cols);
    kernels::widenWeights(format, storedRow(*this, r0), cols, count, cols, rows.data());
    return rows;
}

Dense Dense::outputRange(long first, long count) const
{
    assert(outByIn && first >= 0 && count >= 0 && first + count <= out);
    Dense d = *this;
    if (raw != nullptr)
        d.raw = storedRow(*this, first);
    else
        d.weight = static_cast<const float*>(storedRow(*this, first));
    if (bias != nullptr) d.bias = bias + first;
    d.out = count;
    return d;
}

attn::Status Model::load(const std::string& folder, Model& out)
{
    out = Model();
    try {
        const std::filesystem::path dir(folder);
        Model m;
        m.folder_ = folder;
        // A folder AttnLab wrote is opened only as it was written (model_folder.h).
        ATTN_TRY(checkFolderDigests(folder));
        ATTN_TRY(readConfig((dir / "config.json").string(), m.config_));
        if (m.config_.family == Family::Decoder) {
            ATTN_TRY(loadDecoder(folder, m.config_,
                                 DecoderWeights{m.shards_, m.widened_, m.embedding_, m.outputLayer_,
                                                m.norm_, m.layers_}));
            m.word_ = m.embedding_.weight;
            out = std::move(m);
            return {};
        }
        // GPT-2 and BERT are read whole: model.safetensors, or the hub's older pytorch_model.bin.
        const WeightsFile weights = findWeights(dir);
        if (weights.path.empty() || weights.sharded)
            return attn::failure(attn::StatusCode::FileOpen, (dir / "model.safetensors").string(),
                                 "", "missing, and so is pytorch_model.bin");
        ATTN_TRY(SafetensorsFile::open(weights.path.string(), m.shards_.front()));
        const ModelConfig& c = m.config_;
        const float* output = nullptr;
        if (c.family == Family::Gpt2) {
            const Binder b(m.shards_.front(),
                           m.shards_.front().find("transformer.wte.weight") ? "transformer." : "");
            ATTN_TRY(bindGpt2(b, c, m.word_, m.position_, output, m.norm_, m.layers_));
        } else {
            const Binder b(
                m.shards_.front(),
                m.shards_.front().find("bert.embeddings.word_embeddings.weight") ? "bert." : "");
            ATTN_TRY(bindBert(b, c, m.word_, m.position_, m.tokenType_, m.norm_, m.layers_));
            ATTN_TRY(bindMlm(m.shards_.front(), c, m.word_, m.mlm_));
            output = m.mlm_.present ? m.mlm_.decoder : m.word_;
        }
        m.embedding_ = floatTable(m.word_, c);
        m.outputLayer_ = floatTable(output, c);
        out = std::move(m);
        return {};
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::FileOpen, folder, "", "out of memory while loading");
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::FileOpen, folder, "", e.what());
    }
}

}  // namespace attn::model
