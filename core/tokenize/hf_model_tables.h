// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a tokenizer.json's BPE tables, model.vocab and model.merges, as the JSON parser meets
// them (io::JsonStream): 150,000 entries each in today's files, which cost more as a tree of
// JSON values than in the tokenizer's own tables. Internal to core/tokenize (hf_tokenizer.cpp).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_read.h"
#include "core/tokenize/piece_index.h"

namespace attn::tok::hf {

// Ids above this are refused: the table of pieces is as long as the largest id, and the
// largest vocabularies in use (Gemma's) have about 262,000 entries.
inline constexpr long long kMaxTokenId = 1 << 24;

// The key of a merge's pair of symbols in HfTokenizer's table of merges.
inline std::uint64_t pairKey(int left, int right)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
           static_cast<std::uint32_t>(right);
}

// "path[i + 1]": lists are counted from 1 in messages.
std::string listPath(const std::string& path, std::size_t i);

struct MergeIds {
    int left, right, result;  // rank: the index in the list
};

class ModelTables {
public:
    explicit ModelTables(PieceIndex& vocab) : vocab_(vocab) {}
    ModelTables(const ModelTables&) = delete;
    ModelTables& operator=(const ModelTables&) = delete;

    // For parseJson: model.vocab goes into the PieceIndex, model.merges is kept as text until
    // the whole vocabulary is there (a file may give it after them).
    [[nodiscard]] std::array<io::JsonStream, 2> streams();
    [[nodiscard]] long long maxId() const { return maxId_; }
    // After the parse: each merge's ids in order; false with `error` naming a merge whose
    // halves or result are not in the vocabulary.
    bool mergeIds(std::vector<MergeIds>& out, std::string& error) const;

private:
    PieceIndex& vocab_;
    long long maxId_ = -1;
    std::vector<std::string> mergeTexts_;     // "left right"
    std::vector<std::uint32_t> mergeSplits_;  // where right starts in each
};

}  // namespace attn::tok::hf
