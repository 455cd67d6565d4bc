// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Binding a checkpoint's tensors to a Model's weights by their Hugging Face names (model.cpp
// for GPT-2 and BERT, model_decoder.cpp for the Llama family). Internal to core/model.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/model/model.h"

namespace attn::model {

inline std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// Looks tensors up by name in one file or in every shard of a sharded checkpoint, and checks
// their dtype and shape.
class Binder {
public:
    Binder(const SafetensorsFile& file, std::string prefix)
        : files_{&file}, prefix_(std::move(prefix))
    {
    }
    // `widened` (if given) receives float copies of the F16 / BF16 tensors bound with bind(),
    // for files opened with widenHalf = false: norms and biases, small beside the matrices that
    // bindMatrix() leaves in the mapping.
    Binder(std::vector<const SafetensorsFile*> files, std::string prefix,
           std::vector<std::unique_ptr<float[]>>* widened = nullptr)
        : files_(std::move(files)), prefix_(std::move(prefix)), widened_(widened)
    {
    }

    // The tensor `name` (tried with the family prefix first, then bare) of shape `shape`.
    // `alternative` (if not empty) is tried when `name` is absent.
    attn::Status bind(const std::string& name, const std::vector<std::int64_t>& want,
                      const float*& out, const std::string& alternative = {}) const
    {
        const SafetensorsFile* in = nullptr;
        const TensorInfo* t = nullptr;
        if (attn::Status s = locate(name, alternative, want, in, t); !s.ok()) return s;
        if (t->data != nullptr) {
            out = t->data;
            return {};
        }
        kernels::WeightFormat format{};
        if (widened_ == nullptr || !halfFormat(*t, format)) return unsupported(*in, *t);
        const long count = static_cast<long>(t->elementCount());
        auto copy = std::make_unique<float[]>(static_cast<std::size_t>(count));
        kernels::widenWeights(format, t->raw, count, 1, count, copy.get());
        out = copy.get();
        widened_->push_back(std::move(copy));
        return {};
    }

    // A weight matrix of shape `want`: F32 as `weight`, F16 / BF16 left as stored (raw, format).
    attn::Status bindMatrix(const std::string& name, const std::vector<std::int64_t>& want,
                            Dense& d) const
    {
        const SafetensorsFile* in = nullptr;
        const TensorInfo* t = nullptr;
        if (attn::Status s = locate(name, {}, want, in, t); !s.ok()) return s;
        d.weight = t->data;
        d.raw = nullptr;
        d.format = kernels::WeightFormat::F32;
        if (t->data != nullptr) return {};
        if (!halfFormat(*t, d.format)) return unsupported(*in, *t);
        d.raw = t->raw;
        return {};
    }

    [[nodiscard]] bool has(const std::string& name) const
    {
        const SafetensorsFile* in = nullptr;
        return lookup(name, in) != nullptr;
    }

    attn::Status norm(const std::string& base, long width, Norm& n) const
    {
        n.width = width;
        if (attn::Status s = bind(base + ".weight", {width}, n.gamma, base + ".gamma"); !s.ok())
            return s;
        return bind(base + ".bias", {width}, n.beta, base + ".beta");
    }

    // RMSNorm: a weight, no bias.
    attn::Status rmsNorm(const std::string& base, long width, Norm& n) const
    {
        n.width = width;
        n.beta = nullptr;
        return bind(base + ".weight", {width}, n.gamma);
    }

    // Conv1D (weight [in, out]) or nn.Linear (weight [out, in]) with a bias (or none, when
    // `withBias` is false).
    attn::Status dense(const std::string& base, long in, long out, bool outByIn, Dense& d,
                       bool withBias = true) const
    {
        d.in = in;
        d.out = out;
        d.outByIn = outByIn;
        d.bias = nullptr;
        const std::vector<std::int64_t> shape =
            outByIn ? std::vector<std::int64_t>{out, in} : std::vector<std::int64_t>{in, out};
        if (attn::Status s = bindMatrix(base + ".weight", shape, d); !s.ok()) return s;
        if (!withBias) return {};
        return bind(base + ".bias", {out}, d.bias);
    }

    // The file named in messages about a tensor that is nowhere.
    [[nodiscard]] std::string path() const
    {
        return files_.empty() ? std::string() : files_.front()->path();
    }

private:
    static bool halfFormat(const TensorInfo& t, kernels::WeightFormat& format)
    {
        if (t.raw == nullptr) return false;
        if (t.dtype == "F16")
            format = kernels::WeightFormat::F16;
        else if (t.dtype == "BF16")
            format = kernels::WeightFormat::BF16;
        else
            return false;
        return true;
    }

    static attn::Status unsupported(const SafetensorsFile& in, const TensorInfo& t)
    {
        return attn::failure(attn::StatusCode::UnsupportedDtype, in.path(), t.name,
                             "dtype " + t.dtype + " cannot be used as weights (F32, F16, BF16)");
    }

    // The tensor `name` (or `alternative` when it is absent) in `in`, checked against `want`.
    attn::Status locate(const std::string& name, const std::string& alternative,
                        const std::vector<std::int64_t>& want, const SafetensorsFile*& in,
                        const TensorInfo*& t) const
    {
        t = lookup(name, in);
        if (t == nullptr && !alternative.empty()) t = lookup(alternative, in);
        if (t == nullptr)
            return attn::failure(attn::StatusCode::MissingTensor, path(), prefix_ + name,
                                 "missing from the checkpoint");
        if (t->shape != want)
            return attn::failure(attn::StatusCode::TensorShape, in->path(), t->name,
                                 "shape " + shapeText(t->shape) + ", expected " + shapeText(want));
        return {};
    }

    [[nodiscard]] const TensorInfo* lookup(const std::string& name,
                                           const SafetensorsFile*& in) const
    {
        for (const SafetensorsFile* f : files_)
            if (const TensorInfo* t = f->find(prefix_ + name)) {
                in = f;
                return t;
            }
        for (const SafetensorsFile* f : files_)
            if (const TensorInfo* t = f->find(name)) {
                in = f;
                return t;
            }
        return nullptr;
    }

    std::vector<const SafetensorsFile*> files_;
    std::string prefix_;
    std::vector<std::unique_ptr<float[]>>* widened_ = nullptr;
};

// Opens a folder's weights (model.safetensors, its index's shards, or pytorch_model.bin and its
// index: findWeights) into `shards`, with F16 and BF16 matrices left in the mapping. Every
// tensor an index maps must be in the shard it names.
attn::Status openShards(const std::string& folder, std::vector<SafetensorsFile>& shards);

// Asks the system for the pages of a file's small tensors (norms, biases) at once, so that
// reading them from a cold page cache overlaps instead of going one tensor at a time.
void askForSmallTensors(const SafetensorsFile& f);

// What loadDecoder fills in.
struct DecoderWeights {
    std::vector<SafetensorsFile>& shards;
    std::vector<std::unique_ptr<float[]>>& widened;  // norms and biases stored F16 / BF16
    Dense& embedding;                                // [V, d], outByIn
    Dense& output;                                   // lm_head, or the embedding when tied
    Norm& finalNorm;
    std::vector<LayerWeights>& layers;
};

// Opens the decoder's weights (model.safetensors, or the shards that
// model.safetensors.index.json lists) into `shards` and binds them into the model's fields.
// F16 and BF16 matrices stay in the mapping, read by kernels::gemmWeights as they are stored.
attn::Status loadDecoder(const std::string& folder, const ModelConfig& c, DecoderWeights out);

}  // namespace attn::model
