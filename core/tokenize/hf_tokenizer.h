// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Hugging Face tokenizer.json with a BPE model: the tokenizers of Llama 3, Qwen2/3 (byte-level
// BPE after a Split regex) and of Llama 2, Mistral and TinyLlama (SentencePiece-style BPE: "▁"
// for a space, byte_fallback for characters outside the vocabulary).
//
// encode(), as Hugging Face's tokenizers does it:
//   1. added tokens that are not "normalized" are found in the raw text (leftmost, longest
//      first), honouring lstrip / rstrip (the match takes the white space beside it) and
//      single_word (only where no letter, digit or "_" touches it);
//   2. each stretch between them is normalized (hf_pipeline.h), then "normalized" added tokens
//      are found in the result the same way;
//   3. each remaining stretch is pre-tokenized into pieces, and each piece goes through BPE:
//      its characters (or, with byte_fallback, "<0xNN>" byte tokens for characters outside the
//      vocabulary; else the unknown token) merged pair by pair, lowest merge rank first, the
//      leftmost of equal ranks first; with ignore_merges a piece found whole in the vocabulary
//      is one token;
//   4. the post-processor adds its special tokens (TemplateProcessing's "<s>") when asked to.
// What the vocabulary cannot represent is reported (dropped.h): a character that becomes the
// unknown token, or, without one, is left out; a character whose bytes the vocabulary holds
// only in part (a byte-level vocabulary without some bytes) is left out whole. Every stage's
// output is held to the text's StageBudget (aligned_text.h): a text a stage would grow beyond
// it is refused, never encoded in part.
//
// tokenizer_config.json is read only for what tokenizer.json leaves out of the encoding:
// for a Llama tokenizer class, add_bos_token / add_eos_token decide the special tokens of
// step 4 (transformers' LlamaTokenizerFast rebuilds the template from them).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/tokenize/dropped.h"
#include "core/tokenize/hf_pipeline.h"
#include "core/tokenize/hf_post_processor.h"
#include "core/tokenize/loaded.h"
#include "core/tokenize/piece_index.h"

namespace attn::tok {

struct HfAddedToken {
    int id = 0;
    std::string content;
    bool singleWord = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = false;
    bool special = false;
};

class HfTokenizer {
public:
    // tokenizer.json, and tokenizer_config.json when the path is not empty.
    static Loaded<HfTokenizer> fromFiles(const std::filesystem::path& tokenizerJson,
                                         const std::filesystem::path& configJson = {});
    // The same from memory (configJson may be empty); the names appear in error messages.
    static Loaded<HfTokenizer> fromStrings(std::string_view tokenizerJson,
                                           std::string_view configJson = {},
                                           const std::string& name = "tokenizer.json",
                                           const std::string& configName = "tokenizer_config.json");

    // Token ids of a UTF-8 text; ill-formed UTF-8 is first repaired (each maximal ill-formed
    // sequence becomes U+FFFD). With addSpecialTokens the post-processor's tokens are added.
    // `dropped` says what of the text no token stands for in full. A stage that would grow the
    // text beyond its bound refuses it (StatusCode::TokenizerGrowth): `ids` and `dropped` are
    // then empty.
    Status encode(std::string_view utf8, bool addSpecialTokens, std::vector<int>& ids,
                  std::vector<Dropped>& dropped) const;
    // The same without the report: empty when refused.
    [[nodiscard]] std::vector<int> encode(std::string_view utf8,
                                          bool addSpecialTokens = false) const;
    // The text for display, through the file's decoder (ids out of range are skipped).
    [[nodiscard]] std::string decode(const std::vector<int>& ids) const;

    // The vocabulary string of an id ("Ġthe", "▁the", "<0x0A>", "<|im_start|>"), empty if none.
    [[nodiscard]] const std::string& piece(int id) const;
    // The raw bytes a token stands for (may be part of a UTF-8 sequence); an added token's
    // content as it is.
    [[nodiscard]] std::string tokenBytes(int id) const;
    [[nodiscard]] int idOf(std::string_view piece) const;
    [[nodiscard]] std::size_t vocabSize() const { return pieces_.size(); }
    [[nodiscard]] bool isSpecial(int id) const;
    [[nodiscard]] const std::vector<HfAddedToken>& addedTokens() const { return added_; }

private:
    HfTokenizer() = default;
    struct Split {
        std::size_t begin = 0;  // bytes [begin, end) of the text split
        std::size_t end = 0;
        int addedId = -1;  // an added token, or -1 for text still to tokenize
    };
    // The added tokens searched for in the raw text (normalized = false) or in the normalized
    // text (their content normalized too), longest first, and the bytes they can start with.
    struct Candidates {
        std::vector<std::pair<std::string, int>> tokens;
        bool startsWith[256] = {};
    };
    // Loading (hf_tokenizer.cpp); each returns the error's "<path>: what".
    std::optional<std::string> readModelOptions(const nlohmann::json& model);
    std::optional<std::string> readAddedTokens(const nlohmann::json& root, long long& maxId);
    std::optional<std::string> placeTokens(long long maxId);
    std::optional<std::string> readPipeline(const nlohmann::json& root);
    std::optional<std::string> buildCandidates();
    // Encoding (hf_encode.cpp).
    void splitOnAdded(std::string_view text, const Candidates& candidates,
                      std::vector<Split>& out) const;
    bool encodeSection(const AlignedText& section, bool& first, std::vector<int>& ids, DropLog& log,
                       StageBudget& budget) const;
    void bpe(const AlignedText& all, std::size_t begin, std::size_t end, std::vector<int>& ids,
             DropLog& log) const;
    // A piece's first symbols: one per character (or its fallback bytes, or the unknown
    // token); a character the vocabulary cannot stand for, in part or in whole, is logged.
    [[nodiscard]] std::vector<int> symbolsOf(const AlignedText& all, std::size_t begin,
                                             std::size_t end, DropLog& log) const;
    // BPE's merges on `symbols`, lowest rank first, the leftmost of equal ranks first.
    void merge(std::vector<int>& symbols) const;
    Status growthRefusal(const StageBudget& budget) const;

    std::string name_;  // the file, for messages
    // The model.
    PieceIndex vocab_;
    std::vector<std::string> pieces_;  // id -> string (added tokens included)
    struct Merge {
        int rank;
        int result;
    };
    std::unordered_map<std::uint64_t, Merge> merges_;  // (left << 32 | right) -> merge
    int unkId_ = -1;
    bool byteFallback_ = false;
    bool fuseUnk_ = false;
    bool ignoreMerges_ = false;
    int byteIds_[256] = {};  // "<0xNN>" ids when byteFallback_

    std::vector<HfAddedToken> added_;
    std::vector<int> addedIndexOfId_;  // id -> index in added_, or -1
    Candidates rawCandidates_;
    Candidates normalizedCandidates_;

    std::optional<hf::Normalizer> normalizer_;
    std::optional<hf::PreTokenizer> preTokenizer_;
    std::optional<hf::Decoder> decoder_;
    hf::SpecialIds specialIds_;  // what the post-processor puts before and after the text
};

}  // namespace attn::tok
