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
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/tokenize/bert_tokenizer.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/loaded.h"
#include "core/tokenize/spm_tokenizer.h"
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
    // A SentencePiece tokenizer of the model type `modelType` ("marian", "t5").
    Tokenizer(SpmTokenizer t, std::string modelType)
        : impl_(std::move(t)), modelType_(std::move(modelType))
    {
    }
    // A special token read as itself where the text spells it ("</s>" in BART's text), as a
    // Hugging Face added token; `lstrip`: it takes the whitespace before it (BART's <mask>).
    struct TextSpecial {
        std::string text;
        int id = 0;
        bool lstrip = false;
    };
    // The special tokens encode() puts around a text's own, as the model's Hugging Face
    // tokenizer adds them: BART's <s> ... </s>, T5's and Marian's ... </s>. `modelType` names
    // the tokenizer by its model ("bart" for a GPT-2-style BPE).
    void setSpecials(std::vector<int> prefix, std::vector<int> suffix, std::string modelType,
                     std::vector<TextSpecial> inText = {})
    {
        prefix_ = std::move(prefix);
        suffix_ = std::move(suffix);
        modelType_ = std::move(modelType);
        inText_ = std::move(inText);
    }
    // Marian: a text (or a stretch between special tokens) that starts with a language code
    // such as ">>fra<<" has the code as one token, as MarianTokenizer reads it; a code the
    // vocabulary lacks is its unknown token, reported as dropped.
    void setLanguageCodes(bool on) { languageCodes_ = on; }

    // The text's ids as the model reads them: BERT's with [CLS] and [SEP], a tokenizer.json's
    // with the special tokens its post-processor adds (Llama's BOS; Qwen adds none).
    [[nodiscard]] std::vector<int> encode(std::string_view utf8) const;
    [[nodiscard]] std::vector<Token> encodeTokens(std::string_view utf8) const;
    // The tokens of encodeTokens(), with what became the unknown token or was left out: each
    // character (BERT: each word WordPiece could not split) with its byte offset in `utf8`.
    // encode() and encodeTokens() give the same tokens, and none when a stage refuses.
    [[nodiscard]] Encoded encodeReported(std::string_view utf8) const;
    [[nodiscard]] Token token(int id) const;
    // The text of consecutive tokens, valid UTF-8 (a character split over tokens whole again;
    // bytes that form none replaced by U+FFFD): GPT-2's bytes, a tokenizer.json's decoder,
    // SentencePiece's pieces with their spaces, BERT's pieces joined as WordPiece splits them.
    [[nodiscard]] std::string decode(const std::vector<int>& ids) const;
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
    [[nodiscard]] const SpmTokenizer* spm() const { return std::get_if<SpmTokenizer>(&impl_); }

private:
    // The text's ids with the specials around them.
    [[nodiscard]] std::vector<int> withSpecials(std::vector<int> ids) const;
    // The ids of a GPT-2-style or SentencePiece text, cut at the special tokens it spells
    // (inText_), with what was dropped (offsets in the whole text).
    [[nodiscard]] std::vector<int> encodeCut(std::string_view utf8,
                                             std::vector<Dropped>& dropped) const;
    // The id of the language code that starts utf8[begin, end), if one does (pushed to `ids`),
    // and where the text after it begins.
    std::size_t languageCode(std::string_view utf8, std::size_t begin, std::size_t end,
                             std::vector<int>& ids, std::vector<Dropped>& dropped) const;

    std::variant<Gpt2Tokenizer, BertTokenizer, HfTokenizer, SpmTokenizer> impl_;
    std::string modelType_;  // set for a tokenizer.json or SentencePiece tokenizer, or by
                             // setSpecials()
    std::vector<int> prefix_, suffix_;
    std::vector<TextSpecial> inText_;
    bool languageCodes_ = false;
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

// Refuses a tokenizer whose ids do not fit a model of `modelVocab` rows (the rule above),
// naming `file`.
std::optional<Status> checkTokenizerFits(const Tokenizer& tokenizer, long modelVocab,
                                         const std::string& file);

// modelType is config.json's "model_type": "gpt2", "bert", or another with a tokenizer.json;
// modelVocab its vocab_size (<= 0: not checked). A tokenizer that does not fit the model is
// refused with StatusCode::TokenizerMismatch, naming its vocabulary file.
Loaded<Tokenizer> loadTokenizer(const std::filesystem::path& folder, std::string_view modelType,
                                long modelVocab = -1);

}  // namespace attn::tok
