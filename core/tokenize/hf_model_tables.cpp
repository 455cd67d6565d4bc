// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_model_tables.h"

#include <algorithm>
#include <string_view>

namespace attn::tok::hf {

using nlohmann::json;

std::string listPath(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i + 1) + "]";
}

std::array<io::JsonStream, 2> ModelTables::streams()
{
    io::JsonStream vocab{
        "model.vocab", [this](std::string* piece, std::size_t, json& id, std::string& message) {
            // A list is another model's vocabulary (Unigram's [piece, score] pairs): model.type
            // names the problem once the file is read.
            if (piece == nullptr) return true;
            const auto path = [piece] { return "model.vocab[\"" + *piece + "\"]"; };
            if (!id.is_number_integer() || id.get<long long>() < 0 ||
                id.get<long long>() >= kMaxTokenId) {
                message = path() + ": the id must be an integer from 0 to " +
                          std::to_string(kMaxTokenId - 1);
                return false;
            }
            const long long value = id.get<long long>();
            if (!vocab_.insert(*piece, static_cast<int>(value))) {
                message = path() + ": appears twice; each token may appear only once";
                return false;
            }
            maxId_ = std::max(maxId_, value);
            return true;
        }};
    io::JsonStream merges{
        "model.merges", [this](std::string*, std::size_t k, json& m, std::string& message) {
            std::string text;
            std::size_t split = 0;
            if (m.is_string()) {
                text = std::move(m.get_ref<std::string&>());
                const std::size_t space = text.find(' ');
                if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos) {
                    message = listPath("model.merges", k) + ": \"" + text +
                              "\" is not two tokens separated by one space";
                    return false;
                }
                split = space + 1;
            } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
                text = std::move(m[0].get_ref<std::string&>());
                text += ' ';
                split = text.size();
                text += m[1].get_ref<const std::string&>();
            } else {
                message = listPath("model.merges", k) + ": must be \"a b\" or [\"a\", \"b\"]";
                return false;
            }
            mergeTexts_.push_back(std::move(text));
            mergeSplits_.push_back(static_cast<std::uint32_t>(split));
            return true;
        }};
    return {std::move(vocab), std::move(merges)};
}

bool ModelTables::mergeIds(std::vector<MergeIds>& out, std::string& error) const
{
    out.clear();
    out.reserve(mergeTexts_.size());
    std::string joined;  // left + right, one buffer for all 150,000 merges
    for (std::size_t k = 0; k < mergeTexts_.size(); ++k) {
        const std::string_view text = mergeTexts_[k];
        const std::string_view left = text.substr(0, mergeSplits_[k] - 1);
        const std::string_view right = text.substr(mergeSplits_[k]);
        joined.assign(left);
        joined += right;
        const int l = vocab_.find(left);
        const int r = vocab_.find(right);
        const int both = vocab_.find(joined);
        if (l < 0 || r < 0 || both < 0) {
            error = listPath("model.merges", k) + ": \"" + std::string(left) + "\", \"" +
                    std::string(right) + "\" or their merge is not in model.vocab";
            return false;
        }
        out.push_back({l, r, both});
    }
    return true;
}

}  // namespace attn::tok::hf
