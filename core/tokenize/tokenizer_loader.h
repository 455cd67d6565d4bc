// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opens the tokenizer of a model folder (a Hugging Face checkpoint directory).
//
// "gpt2": vocab.json + merges.txt, else tokenizer.json (model.vocab / model.merges).
// "bert": vocab.txt, with tokenizer_config.json for the options when present.
// Any other type (Llama, Mistral, Qwen2/3, ...): tokenizer.json, with tokenizer_config.json when
// present (hf_tokenizer.h); the file itself says what its pipeline is.
// A folder lacking the files is refused with a message naming the missing file.
//
// Given the model's vocabulary size (config.json's vocab_size), the tokenizer must fit it: no
// token may have an id the model has no row for, and the tokenizer must give ids to all but at
// most an eighth of the model's (or 128, whichever is more). Models are often a little larger
// than their tokenizers (rows padded to a multiple of 64 or 128, ids reserved for later: Qwen3
// has 267 rows without a token, Phi-2 905, DeepSeek-V2 2,385 of 102,400); a vocabulary far
// smaller than the model is the wrong file, whose every missing word would become [UNK].

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/tokenize/bert_tokenizer.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/loaded.h"
#include "core/tokenize/token_display.h"

namespace attn::tok {

// One token of an encoded text, ready for display.
struct Token {
    int id = 0;
    std::string piece;  // the vocabulary string ("Ġthe", "##ing", "[CLS]")
    std::string text;   // what it stands for, valid UTF-8 (GPT-2: its bytes decoded, with U+FFFD
                        // repairs; BERT: the piece as in the vocabulary)
    std::string label;  // on-screen label (GPT-2 and tokenizer.json: "␣the", see
                        // gpt2_tokenizer.h; BERT: piece)
};

// A text's tokens and what of it no token stands for in full (dropped.h).
struct Encoded {
    std::vector<Token> tokens;
    std::vector<Dropped> dropped;  // in the order of the text
    // Not ok when a tokenizer.json stage refused the text (StatusCode::TokenizerGrowth, naming
    // the stage, the size it would reach and the limit): tokens and dropped are then empty.
    Status status;
};

class Tokenizer {
public:
    explicit Tokenizer(Gpt2Tokenizer t) : impl_(std::move(t)) {}
    explicit Tokenizer(BertTokenizer t) : impl_(std::move(t)) {}
    // A tokenizer.json tokenizer of the model type `modelType` ("llama", "qwen3", ...).
    Tokenizer(HfTokenizer t, std::string modelType)
        : impl_(std::move(t)), modelType_(std::move(modelType))
    {
    }

    // The text's ids as the model reads them: BERT's with [CLS] and [SEP], a tokenizer.json's
    // with the special tokens its post-processor adds (Llama's BOS; Qwen adds none).
    [[nodiscard]] std::vector<int> encode(std::string_view utf8) const;
    [[nodiscard]] std::vector<Token> encodeTokens(std::string_view utf8) const;
    // The tokens of encodeTokens(), with what became the unknown token or was left out: each
    // character (BERT: each word WordPiece could not split) with its byte offset in `utf8`.
    // encode() and encodeTokens() give the same tokens, and none when a stage refuses.
    [[nodiscard]] Encoded encodeReported(std::string_view utf8) const;
    [[nodiscard]] Token token(int id) const;
    // Readable labels of consecutive tokens (token_display.h): GPT-2's pieces of one character
    // named by that character; BERT's pieces as in the vocabulary (no bytes).
    [[nodiscard]] std::vector<TokenDisplay> display(const std::vector<int>& ids) const;
    // One past the largest id the tokenizer gives (added tokens included).
    [[nodiscard]] std::size_t vocabSize() const;
    // "gpt2", "bert", or the model type a tokenizer.json tokenizer was loaded for.
    [[nodiscard]] std::string_view modelType() const;

    [[nodiscard]] const Gpt2Tokenizer* gpt2() const { return std::get_if<Gpt2Tokenizer>(&impl_); }
    [[nodiscard]] const BertTokenizer* bert() const { return std::get_if<BertTokenizer>(&impl_); }
    [[nodiscard]] const HfTokenizer* hf() const { return std::get_if<HfTokenizer>(&impl_); }

private:
    std::variant<Gpt2Tokenizer, BertTokenizer, HfTokenizer> impl_;
    std::string modelType_;  // for a tokenizer.json tokenizer
};

// The ids below `vocab` that stand for ordinary text: a GPT-2 token whose bytes are whole
// UTF-8 characters (not a piece of one), a BERT token that is not bracketed ("[CLS]",
// "[unused0]"), neither a special "<|...|>" token; for a tokenizer.json, neither an added
// token nor a "<0xNN>" byte token. The head detectors draw from these.
std::vector<int> ordinaryTokenIds(const Tokenizer& tokenizer, long vocab);

// The least share of a model's ids a tokenizer must give tokens to (see above): all but
// max(kMinUnusedModelIds, modelVocab / kUnusedModelIdsDivisor).
inline constexpr long kMinUnusedModelIds = 128;
inline constexpr long kUnusedModelIdsDivisor = 8;

// modelType is config.json's "model_type": "gpt2", "bert", or another with a tokenizer.json;
// modelVocab its vocab_size (<= 0: not checked). A tokenizer that does not fit the model is
// refused with StatusCode::TokenizerMismatch, naming its vocabulary file.
Loaded<Tokenizer> loadTokenizer(const std::filesystem::path& folder, std::string_view modelType,
                                long modelVocab = -1);

}  // namespace attn::tok
