// SPDX-License-Identifier: GPL-3.0-or-later
// What enters a forward pass (forward.cpp): the ids checked against the model, the positions
// it predicts at, and the embedding of the ids.
#include <algorithm>
#include <string>

#include "core/model/forward_internal.h"

namespace attn::model::detail {

attn::Status checkIds(const Model& model, std::span<const int> ids)
{
    const ModelConfig& c = model.config();
    if (ids.empty())
        return attn::failure(attn::StatusCode::EmptyInput, "", "ids", "no tokens to run");
    if (static_cast<long>(ids.size()) > c.positions) {
        attn::Status s =
            attn::failure(attn::StatusCode::TooLong, "", "ids",
                          std::to_string(ids.size()) + " tokens exceed the model's " +
                              std::to_string(c.positions) + " positions (text is not truncated)");
        s.value = static_cast<long>(ids.size());
        s.limit = c.positions;
        return s;
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] < 0 || ids[i] >= c.vocab) {
            attn::Status s = attn::failure(
                attn::StatusCode::TokenOutOfRange, "", "ids",
                "token " + std::to_string(i + 1) + " has the id " + std::to_string(ids[i]) +
                    ", outside the vocabulary of " + std::to_string(c.vocab));
            s.position = static_cast<long>(i);
            s.value = ids[i];
            s.limit = c.vocab;
            return s;
        }
    }
    return {};
}

// Positions to predict at (ascending, unique).
attn::Status predictionPositions(const Model& model, const std::vector<int>& ids,
                                 const ForwardOptions& options, std::vector<long>& out)
{
    const long n = static_cast<long>(ids.size());
    out.clear();
    if (!options.predictAt.empty()) {
        if (!model.hasLanguageHead())
            return attn::failure(attn::StatusCode::MissingTensor, model.file().path(),
                                 "cls.predictions.transform.dense.weight",
                                 "predictions need the MLM head, which this checkpoint lacks");
        for (long p : options.predictAt) {
            if (p < 0 || p >= n) {
                attn::Status s =
                    attn::failure(attn::StatusCode::BadPosition, "", "predictAt",
                                  "position " + std::to_string(p + 1) + " is outside the " +
                                      std::to_string(n) + " tokens");
                s.position = p;
                s.limit = n;
                return s;
            }
            out.push_back(p);
        }
    } else if (model.config().family != Family::Bert) {
        out.push_back(n - 1);
    } else if (model.hasLanguageHead() && options.maskTokenId >= 0) {
        for (long i = 0; i < n; ++i) {
            if (ids[static_cast<std::size_t>(i)] == options.maskTokenId) out.push_back(i);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return {};
}

void embed(const Model& model, const std::vector<int>& ids, FloatMatrix& x)
{
    const ModelConfig& c = model.config();
    const long n = static_cast<long>(ids.size());
    x.resize(n, c.width);
    if (c.family == Family::Decoder) {
        for (long i = 0; i < n; ++i) model.embeddingRow(ids[static_cast<std::size_t>(i)], &x(i, 0));
        return;
    }
    const ConstRowMap word = model.wordEmbeddings();
    const ConstRowMap position = model.positionEmbeddings();
    for (long i = 0; i < n; ++i)
        x.row(i) = word.row(ids[static_cast<std::size_t>(i)]) + position.row(i);
    if (c.family == Family::Bert) {
        x.rowwise() += model.tokenTypeEmbeddings().row(0);  // every token has type 0
        const FloatMatrix sum = x;
        layerNorm(sum, model.embeddingOrFinalNorm(), c.layerNormEps, x);
    }
}

}  // namespace attn::model::detail
