// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/tokenizer_loader.h"

#include <algorithm>
#include <optional>
#include <system_error>

#include "core/tokenize/seq2seq_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace attn::tok {

std::vector<int> Tokenizer::withSpecials(std::vector<int> ids) const
{
    if (prefix_.empty() && suffix_.empty()) return ids;
    std::vector<int> out = prefix_;
    out.insert(out.end(), ids.begin(), ids.end());
    out.insert(out.end(), suffix_.begin(), suffix_.end());
    return out;
}

std::vector<int> Tokenizer::encodeCut(std::string_view utf8, std::vector<Dropped>& dropped) const
{
    const auto segment = [&](std::size_t begin, std::size_t end, std::vector<int>& ids) {
        if (end <= begin) return;
        if (languageCodes_ && spm()) begin = languageCode(utf8, begin, end, ids, dropped);
        std::vector<Dropped> lost;
        const std::string_view text = utf8.substr(begin, end - begin);
        const std::vector<int> part =
            spm() ? spm()->encode(text, lost) : std::get<Gpt2Tokenizer>(impl_).encode(text, lost);
        ids.insert(ids.end(), part.begin(), part.end());
        for (Dropped& d : lost) {
            d.offset += begin;
            dropped.push_back(std::move(d));
        }
    };
    // Each special's next place in the text, searched again only once the cut has passed it:
    // T5 has 103 specials, and a long text is not searched 103 times per special it spells.
    std::vector<std::size_t> next(inText_.size());
    for (std::size_t k = 0; k < inText_.size(); ++k) next[k] = utf8.find(inText_[k].text);
    std::vector<int> ids;
    std::size_t start = 0;
    while (true) {
        std::size_t at = std::string_view::npos;
        const TextSpecial* found = nullptr;
        for (std::size_t k = 0; k < inText_.size(); ++k) {
            const TextSpecial& t = inText_[k];
            if (next[k] != std::string_view::npos && next[k] < start)
                next[k] = utf8.find(t.text, start);
            const std::size_t f = next[k];
            if (f < at || (f == at && found != nullptr && t.text.size() > found->text.size())) {
                at = f;
                found = &t;
            }
        }
        std::size_t end = found ? at : utf8.size();
        if (found && found->lstrip)
            while (end > start && (utf8[end - 1] == ' ' || utf8[end - 1] == '\t' ||
                                   utf8[end - 1] == '\n' || utf8[end - 1] == '\r'))
                --end;
        segment(start, end, ids);
        if (!found) break;
        ids.push_back(found->id);
        start = at + found->text.size();
    }
    return ids;
}

std::size_t Tokenizer::languageCode(std::string_view utf8, std::size_t begin, std::size_t end,
                                    std::vector<int>& ids, std::vector<Dropped>& dropped) const
{
    const std::string_view text = utf8.substr(begin, end - begin);
    const std::size_t close = text.starts_with(">>") ? text.find("<<", 2) : std::string_view::npos;
    if (close == std::string_view::npos) return begin;
    const std::string code(text.substr(0, close + 2));
    int id = spm()->idOf(code);
    if (id < 0) {
        id = spm()->unknownId();
        // Dropped::text is valid UTF-8 whatever bytes the code held.
        dropped.push_back({unicode::encodeUtf8(unicode::decodeUtf8(code)), begin, code.size(),
                           Dropped::Fate::Unknown});
    }
    ids.push_back(id);
    return begin + code.size();
}

std::vector<int> Tokenizer::encode(std::string_view utf8) const
{
    if (!inText_.empty()) {
        std::vector<Dropped> ignored;
        return withSpecials(encodeCut(utf8, ignored));
    }
    // A tokenizer.json adds what its post-processor adds (Llama's BOS), as Hugging Face's
    // tokenizer(text) does: the model is fed, and shows, the tokens it was trained to see first.
    if (const HfTokenizer* h = hf()) return h->encode(utf8, true);
    return withSpecials(std::visit([&](const auto& t) { return t.encode(utf8); }, impl_));
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
        } else if (const auto* sp = tokenizer.spm()) {
            const std::string p = sp->piece(id);
            const std::string bytes = sp->tokenBytes(id);
            const bool marked = p.size() > 2 && p.front() == '<' && p.back() == '>';
            if (p.empty() || marked || bytes.empty()) continue;
            bool whole = true;
            for (std::size_t i = 0; i < bytes.size() && whole;) {
                const std::size_t n = unicode::validSequenceLength(bytes, i);
                whole = n > 0;
                i += n;
            }
            if (whole) out.push_back(id);
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
    if (const auto* sp = spm()) {
        const std::string bytes = sp->tokenBytes(id);
        return {id, sp->piece(id), replaceBrokenUtf8(bytes), displayLabelForBytes(bytes)};
    }
    const auto& b = std::get<BertTokenizer>(impl_);
    return {id, b.piece(id), b.piece(id), b.piece(id)};
}

std::string Tokenizer::decode(const std::vector<int>& ids) const
{
    if (const auto* g = gpt2()) return replaceBrokenUtf8(g->decode(ids));
    if (const auto* h = hf()) return replaceBrokenUtf8(h->decode(ids));
    std::string out;
    if (const auto* sp = spm()) {
        for (const int id : ids) out += sp->tokenBytes(id);
        return replaceBrokenUtf8(out);
    }
    const auto& b = std::get<BertTokenizer>(impl_);
    for (const int id : ids) {
        const std::string piece = b.piece(id);
        if (piece.rfind("##", 0) == 0)
            out += piece.substr(2);
        else
            out += (out.empty() ? "" : " ") + piece;
    }
    return out;
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
    if (const auto* sp = spm()) {
        std::vector<std::string> bytes;
        bytes.reserve(ids.size());
        for (const int id : ids) bytes.push_back(sp->tokenBytes(id));
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
    else if (!inText_.empty())
        ids = withSpecials(encodeCut(utf8, out.dropped));
    else if (const Gpt2Tokenizer* g = gpt2())
        ids = withSpecials(g->encode(utf8, out.dropped));
    else if (const SpmTokenizer* sp = spm())
        ids = withSpecials(sp->encode(utf8, out.dropped));
    else
        ids = withSpecials(std::get<BertTokenizer>(impl_).encode(utf8, out.dropped));
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
    if (!modelType_.empty()) return modelType_;
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

std::optional<Status> checkTokenizerFits(const Tokenizer& t, long modelVocab,
                                         const std::string& file)
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

namespace {

Loaded<Tokenizer> loadFromFolder(const std::filesystem::path& folder, std::string_view modelType,
                                 std::string& vocabFile)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
        return failure(StatusCode::TokenizerFile, folder.string(), "",
                       "the model folder does not exist");
    }
    if (modelType == "bart" || modelType == "marian" || modelType == "t5") {
        // An encoder-decoder's source tokenizer (seq2seq_tokenizer.h has both).
        vocabFile = (folder / (modelType == "t5" ? "spiece.model" : "vocab.json")).string();
        auto both = loadSeq2SeqTokenizers(folder, modelType);
        if (auto* err = std::get_if<Status>(&both)) return *err;
        return std::move(std::get<Seq2SeqTokenizers>(both).source);
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
    if (auto err = checkTokenizerFits(*t, modelVocab, vocabFile)) return *err;
    return loaded;
}

}  // namespace attn::tok
