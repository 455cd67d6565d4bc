// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/tokenizer_loader.h"

#include <algorithm>
#include <optional>
#include <system_error>

#include "core/tokenize/unicode.h"

namespace attn::tok {

std::vector<int> Tokenizer::encode(std::string_view utf8) const
{
    // A tokenizer.json adds what its post-processor adds (Llama's BOS), as Hugging Face's
    // tokenizer(text) does: the model is fed, and shows, the tokens it was trained to see first.
    if (const HfTokenizer* h = hf()) return h->encode(utf8, true);
    return std::visit([&](const auto& t) { return t.encode(utf8); }, impl_);
}

std::vector<int> ordinaryTokenIds(const Tokenizer& tokenizer, long vocab)
{
    const auto special = [](const std::string& p) {
        return (p.starts_with("[") && p.ends_with("]")) ||
               (p.starts_with("<|") && p.ends_with("|>"));
    };
    std::vector<int> out;
    for (int id = 0; id < vocab; ++id) {
        if (const auto* g = tokenizer.gpt2()) {
            const std::string bytes = g->tokenBytes(id);
            if (bytes.empty() || special(g->piece(id))) continue;
            bool whole = true;
            for (std::size_t i = 0; i < bytes.size() && whole;) {
                const std::size_t n = unicode::validSequenceLength(bytes, i);
                whole = n > 0;
                i += n;
            }
            if (whole) out.push_back(id);
        } else if (const auto* b = tokenizer.bert()) {
            const std::string& p = b->piece(id);
            if (!p.empty() && !special(p)) out.push_back(id);
        } else if (const auto* h = tokenizer.hf()) {
            const std::string& p = h->piece(id);
            const bool byteToken = p.size() == 6 && p.starts_with("<0x") && p.ends_with(">");
            const bool added = std::any_of(h->addedTokens().begin(), h->addedTokens().end(),
                                           [id](const HfAddedToken& a) { return a.id == id; });
            const std::string bytes = h->tokenBytes(id);
            if (p.empty() || byteToken || added || bytes.empty()) continue;
            bool whole = true;
            for (std::size_t i = 0; i < bytes.size() && whole;) {
                const std::size_t n = unicode::validSequenceLength(bytes, i);
                whole = n > 0;
                i += n;
            }
            if (whole) out.push_back(id);
        }
    }
    return out;
}

Token Tokenizer::token(int id) const
{
    if (const auto* g = gpt2()) return {id, g->piece(id), g->tokenText(id), g->tokenLabel(id)};
    if (const auto* h = hf()) {
        const std::string bytes = h->tokenBytes(id);
        return {id, h->piece(id), replaceBrokenUtf8(bytes), displayLabelForBytes(bytes)};
    }
    const auto& b = std::get<BertTokenizer>(impl_);
    return {id, b.piece(id), b.piece(id), b.piece(id)};
}

std::vector<TokenDisplay> Tokenizer::display(const std::vector<int>& ids) const
{
    if (const auto* g = gpt2()) {
        std::vector<std::string> bytes;
        bytes.reserve(ids.size());
        for (const int id : ids) bytes.push_back(g->tokenBytes(id));
        return displayTokens(bytes);
    }
    if (const auto* h = hf()) {
        std::vector<std::string> bytes;
        bytes.reserve(ids.size());
        for (const int id : ids) bytes.push_back(h->tokenBytes(id));
        return displayTokens(bytes);
    }
    std::vector<TokenDisplay> out;
    for (const int id : ids) {
        const std::string& piece = std::get<BertTokenizer>(impl_).piece(id);
        out.push_back({piece, piece, std::string(), false, false});
    }
    return out;
}

std::vector<Token> Tokenizer::encodeTokens(std::string_view utf8) const
{
    std::vector<Token> tokens;
    for (int id : encode(utf8)) tokens.push_back(token(id));
    return tokens;
}

Encoded Tokenizer::encodeReported(std::string_view utf8) const
{
    Encoded out;
    std::vector<int> ids;
    if (const HfTokenizer* h = hf())
        out.status = h->encode(utf8, true, ids, out.dropped);
    else if (const Gpt2Tokenizer* g = gpt2())
        ids = g->encode(utf8, out.dropped);
    else
        ids = std::get<BertTokenizer>(impl_).encode(utf8, out.dropped);
    out.tokens.reserve(ids.size());
    for (const int id : ids) out.tokens.push_back(token(id));
    return out;
}

std::size_t Tokenizer::vocabSize() const
{
    return std::visit([](const auto& t) { return t.vocabSize(); }, impl_);
}

std::string_view Tokenizer::modelType() const
{
    if (hf()) return modelType_;
    return gpt2() ? "gpt2" : "bert";
}

namespace {

template <class T>
Loaded<Tokenizer> wrap(Loaded<T> loaded)
{
    if (auto* err = std::get_if<attn::Status>(&loaded)) return *err;
    return Tokenizer(std::move(std::get<T>(loaded)));
}

// Whether the folder has something of this name. Whatever it is (a FIFO, a device, a folder),
// the reader names it: "file not found" is for names that are not there.
bool present(const std::filesystem::path& p)
{
    std::error_code ec;
    return std::filesystem::exists(p, ec);
}

}  // namespace

namespace {

// Refuses a tokenizer whose ids do not fit a model of `modelVocab` rows (the header says why).
std::optional<Status> checkFitsModel(const Tokenizer& t, long modelVocab, const std::string& file)
{
    const long count = static_cast<long>(t.vocabSize());
    const auto refuse = [&](long value, std::string detail) {
        Status s = failure(StatusCode::TokenizerMismatch, file, "", std::move(detail));
        s.value = value;
        s.limit = modelVocab;
        return s;
    };
    if (count > modelVocab) {
        const long id = count - 1;
        return refuse(id, "the token \"" + t.token(static_cast<int>(id)).piece + "\" has the id " +
                              std::to_string(id) + ", but the model (config.json's vocab_size) " +
                              "has ids 0 to " + std::to_string(modelVocab - 1) + " only");
    }
    const long unused = std::max(kMinUnusedModelIds, modelVocab / kUnusedModelIdsDivisor);
    if (modelVocab - count > unused) {
        return refuse(count, "has " + std::to_string(count) + " tokens, but the model " +
                                 "(config.json's vocab_size) has " + std::to_string(modelVocab) +
                                 " ids; a tokenizer may leave at most " + std::to_string(unused) +
                                 " of them without a token");
    }
    return std::nullopt;
}

Loaded<Tokenizer> loadFromFolder(const std::filesystem::path& folder, std::string_view modelType,
                                 std::string& vocabFile)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
        return failure(StatusCode::TokenizerFile, folder.string(), "",
                       "the model folder does not exist");
    }
    if (modelType == "gpt2") {
        const auto vocab = folder / "vocab.json";
        const auto merges = folder / "merges.txt";
        vocabFile = vocab.string();
        if (present(vocab) && present(merges)) return wrap(Gpt2Tokenizer::fromFiles(vocab, merges));
        const auto fast = folder / "tokenizer.json";
        vocabFile = fast.string();
        if (present(fast)) return wrap(Gpt2Tokenizer::fromTokenizerJson(fast));
        const auto missing = present(vocab) ? merges : vocab;
        return failure(StatusCode::TokenizerFile, missing.string(), "",
                       "file not found: a GPT-2 tokenizer needs vocab.json and merges.txt, "
                       "or tokenizer.json");
    }
    if (modelType == "bert") {
        const auto vocab = folder / "vocab.txt";
        vocabFile = vocab.string();
        if (!present(vocab)) {
            return failure(StatusCode::TokenizerFile, vocab.string(), "",
                           "file not found: a BERT tokenizer needs vocab.txt");
        }
        const auto config = folder / "tokenizer_config.json";
        return wrap(
            BertTokenizer::fromFiles(vocab, present(config) ? config : std::filesystem::path()));
    }
    // Llama, Mistral, Qwen and the rest: the tokenizer.json says what the tokenizer is.
    const auto fast = folder / "tokenizer.json";
    vocabFile = fast.string();
    if (!present(fast)) {
        return failure(StatusCode::TokenizerFile, fast.string(), "",
                       "file not found: the tokenizer of a \"" + std::string(modelType) +
                           "\" model needs tokenizer.json");
    }
    const auto config = folder / "tokenizer_config.json";
    auto loaded = HfTokenizer::fromFiles(fast, present(config) ? config : std::filesystem::path());
    if (auto* err = std::get_if<attn::Status>(&loaded)) return *err;
    return Tokenizer(std::move(std::get<HfTokenizer>(loaded)), std::string(modelType));
}

}  // namespace

Loaded<Tokenizer> loadTokenizer(const std::filesystem::path& folder, std::string_view modelType,
                                long modelVocab)
{
    std::string vocabFile;
    Loaded<Tokenizer> loaded = loadFromFolder(folder, modelType, vocabFile);
    const auto* t = std::get_if<Tokenizer>(&loaded);
    if (t == nullptr || modelVocab <= 0) return loaded;
    if (auto err = checkFitsModel(*t, modelVocab, vocabFile)) return *err;
    return loaded;
}

}  // namespace attn::tok
