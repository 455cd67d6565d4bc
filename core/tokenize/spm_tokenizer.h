// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A SentencePiece model (Marian's source.spm and target.spm, T5's spiece.model) through
// Google's own library (Debian's libsentencepiece), not a second implementation. The model's
// bytes are read through the bounded file layer and handed to the library, so a FIFO, a
// device, a huge file or a folder is refused by name before the library sees a byte.
//
// Ids: the model's own (T5), or, given a vocabulary (Marian's vocab.json, piece -> id), each
// piece's id there and the unknown token's for a piece it lacks, as transformers'
// MarianTokenizer converts them. The special tokens a model adds (T5's and Marian's </s>) are
// the Tokenizer's (tokenizer_loader.h), not this class's.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/tokenize/dropped.h"
#include "core/tokenize/loaded.h"

namespace attn::tok {

// A SentencePiece model file is a few hundred kB to a few MB (T5's spiece.model: 792 kB;
// opus-mt's source.spm: 800 kB); the cap is far above any in use.
inline constexpr std::uint64_t kMaxSpmFileBytes = 64u << 20;

struct SpmOptions {
    // piece -> id (Marian's vocab.json); empty: the model's own ids.
    std::unordered_map<std::string, int> vocab;
    std::string unknownPiece = "<unk>";  // the vocabulary's unknown token
    // Ids past the model's pieces (T5Tokenizer's extra_ids: "<extra_id_K>" is the id
    // vocabSize() - 1 - K), shown by name, never produced from text.
    int extraIds = 0;
};

class SpmTokenizer {
public:
    // The model's bytes; `name` names it in messages.
    static Loaded<SpmTokenizer> fromBytes(const std::string& bytes, const std::string& name,
                                          SpmOptions options = {});
    static Loaded<SpmTokenizer> fromFile(const std::filesystem::path& model,
                                         SpmOptions options = {});

    // The text's ids, without special tokens. `dropped` gets each character that became the
    // unknown token, with its byte offset in `utf8`.
    [[nodiscard]] std::vector<int> encode(std::string_view utf8) const;
    [[nodiscard]] std::vector<int> encode(std::string_view utf8,
                                          std::vector<Dropped>& dropped) const;
    // The piece of an id ("▁the"); "" outside the vocabulary.
    [[nodiscard]] std::string piece(int id) const;
    // What the piece stands for: "▁" as a space, a byte piece "<0xE4>" as its byte.
    [[nodiscard]] std::string tokenBytes(int id) const;
    // One past the largest id (the vocabulary's, or the model's pieces).
    [[nodiscard]] std::size_t vocabSize() const;
    // The id of a piece, -1 when there is none.
    [[nodiscard]] int idOf(const std::string& piece) const;
    [[nodiscard]] int unknownId() const;

    // A second model sharing this one's vocabulary (Marian's target.spm beside its source.spm).
    [[nodiscard]] bool usesVocabulary() const;

    struct Impl;

private:
    explicit SpmTokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

}  // namespace attn::tok
