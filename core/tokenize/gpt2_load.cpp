// SPDX-License-Identifier: GPL-3.0-or-later
// Loading GPT-2's tokenizer files (gpt2_tokenizer.h): vocab.json and merges.txt, or the same
// tables in a tokenizer.json.
#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace attn::tok {
namespace {

using nlohmann::json;

std::optional<attn::Status> parseJson(std::string_view text, const std::string& name, json& out,
                                      const io::JsonLimits& limits = {})
{
    const io::JsonProblem p = io::parseJson(text, out, limits);
    if (p.kind == io::JsonProblem::Kind::TooManyValues)
        return tokenizerError(name, "has more than " + std::to_string(kMaxVocabEntries) +
                                        " tokens; a vocabulary may have at most " +
                                        std::to_string(kMaxVocabEntries));
    if (!p.ok()) return tokenizerError(name, "not valid JSON: " + io::describe(p));
    return std::nullopt;
}

struct Builder {
    std::vector<std::pair<std::string, long long>> vocab;  // in file order
    std::vector<std::pair<std::string, std::string>> merges;
    std::vector<std::string> mergePlaces;  // "line 7", "model.merges[6]": for messages
};

std::optional<attn::Status> readVocabObject(const json& obj, const std::string& name,
                                            const std::string& where, Builder& b)
{
    if (!obj.is_object()) {
        return tokenizerError(name, where + " must be a JSON object mapping tokens to ids");
    }
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const json& v = it.value();
        if (!v.is_number_integer()) {
            return tokenizerError(
                name, where + ": the id of token \"" + it.key() + "\" is not an integer");
        }
        b.vocab.emplace_back(it.key(), v.get<long long>());
    }
    return std::nullopt;
}

std::optional<attn::Status> splitMergeLine(std::string_view line, const std::string& name,
                                           const std::string& where, Builder& b)
{
    const std::size_t space = line.find(' ');
    const std::size_t count =
        space == std::string_view::npos ? 1 : (line.find(' ', space + 1) == line.npos ? 2 : 3);
    if (count != 2 || space == 0 || space + 1 == line.size()) {
        return tokenizerError(name, where + ": expected two tokens separated by one space, got \"" +
                                        std::string(line.substr(0, 80)) + "\"");
    }
    b.merges.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
    b.mergePlaces.push_back(where);
    return std::nullopt;
}

// Both halves of every merge and what they make must be tokens of the vocabulary, as Hugging
// Face's tokenizers requires (MergeTokenOutOfVocabulary): otherwise BPE makes symbols that
// have no id, and the text they stand for would be lost.
std::optional<attn::Status> checkMergesInVocabulary(const Gpt2Tokenizer& t, const Builder& b,
                                                    const std::string& name,
                                                    const std::string& vocabWord)
{
    for (std::size_t k = 0; k < b.merges.size(); ++k) {
        const auto& [left, right] = b.merges[k];
        const std::string pair = "\"" + left + " " + right + "\"";
        std::string what;
        if (t.idOf(left) < 0)
            what = "\"" + left + "\" (of " + pair + ")";
        else if (t.idOf(right) < 0)
            what = "\"" + right + "\" (of " + pair + ")";
        else if (t.idOf(left + right) < 0)
            what = "\"" + left + right + "\" (the merge of " + pair + ")";
        if (!what.empty())
            return tokenizerError(name, b.mergePlaces[k] + ": " + what + " is not in " + vocabWord);
    }
    return std::nullopt;
}

// The tokenizer built from `b`, or why it cannot be.
Loaded<Gpt2Tokenizer> checked(Loaded<Gpt2Tokenizer> built, const Builder& b,
                              const std::string& name, const std::string& vocabWord)
{
    if (const auto* t = std::get_if<Gpt2Tokenizer>(&built)) {
        if (auto err = checkMergesInVocabulary(*t, b, name, vocabWord)) return *err;
    }
    return built;
}

}  // namespace

Loaded<Gpt2Tokenizer> Gpt2Tokenizer::fromStrings(std::string_view vocabJson,
                                                 std::string_view merges,
                                                 const std::string& vocabName,
                                                 const std::string& mergesName)
{
    json obj;
    // The object and its tokens: one value more than the tokens.
    if (auto err = parseJson(vocabJson, vocabName, obj, {64, kMaxVocabEntries + 1})) return *err;
    if (auto err = checkLineCount(merges, mergesName, "a merges file")) return *err;
    Builder b;
    if (auto err = readVocabObject(obj, vocabName, "the file", b)) return *err;
    std::size_t lineNo = 0;
    std::size_t pos = 0;
    while (pos <= merges.size()) {
        std::size_t end = merges.find('\n', pos);
        if (end == std::string_view::npos) end = merges.size();
        std::string_view line = merges.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        if (lineNo == 1 && line.rfind("#version", 0) == 0) continue;
        const std::string where = "line " + std::to_string(lineNo);
        bool invalid = false;
        (void)unicode::decodeUtf8(line, &invalid);
        if (invalid) return tokenizerError(mergesName, where + " is not valid UTF-8");
        if (auto err = splitMergeLine(line, mergesName, where, b)) return *err;
    }
    return checked(build(b.vocab, b.merges, vocabName), b, mergesName,
                   std::filesystem::path(vocabName).filename().string());
}

Loaded<Gpt2Tokenizer> Gpt2Tokenizer::fromTokenizerJsonString(std::string_view text,
                                                             const std::string& name)
{
    json root;
    if (auto err = parseJson(text, name, root)) return *err;
    if (!root.is_object() || !root.contains("model") || !root["model"].is_object()) {
        return tokenizerError(name, "no \"model\" object (not a Hugging Face tokenizer.json?)");
    }
    const json& model = root["model"];
    if (model.contains("type") && model["type"].is_string() && model["type"] != "BPE") {
        return tokenizerError(name, "model.type is \"" + model["type"].get<std::string>() +
                                        "\", expected \"BPE\" for GPT-2");
    }
    if (!model.contains("vocab")) return tokenizerError(name, "model.vocab is missing");
    if (!model.contains("merges")) return tokenizerError(name, "model.merges is missing");
    Builder b;
    if (auto err = readVocabObject(model["vocab"], name, "model.vocab", b)) return *err;
    const json& merges = model["merges"];
    if (!merges.is_array()) return tokenizerError(name, "model.merges must be an array");
    for (std::size_t k = 0; k < merges.size(); ++k) {
        const json& m = merges[k];
        const std::string where = "model.merges[" + std::to_string(k) + "]";
        if (m.is_string()) {
            if (auto err = splitMergeLine(m.get<std::string>(), name, where, b)) return *err;
        } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            b.merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
            b.mergePlaces.push_back(where);
        } else {
            return tokenizerError(name, where + ": expected \"a b\" or [\"a\", \"b\"]");
        }
    }
    return checked(build(b.vocab, b.merges, name), b, name, "model.vocab");
}

Loaded<Gpt2Tokenizer> Gpt2Tokenizer::fromFiles(const std::filesystem::path& vocabJson,
                                               const std::filesystem::path& mergesTxt)
{
    std::string vocabText, mergesText;
    if (auto err = readWholeFile(vocabJson, vocabText, kMaxVocabFileBytes)) return *err;
    if (auto err = readWholeFile(mergesTxt, mergesText, kMaxVocabFileBytes)) return *err;
    return fromStrings(vocabText, mergesText, vocabJson.string(), mergesTxt.string());
}

Loaded<Gpt2Tokenizer> Gpt2Tokenizer::fromTokenizerJson(const std::filesystem::path& tokenizerJson)
{
    std::string text;
    if (auto err = readWholeFile(tokenizerJson, text)) return *err;
    return fromTokenizerJsonString(text, tokenizerJson.string());
}

int Gpt2Tokenizer::intern(const std::string& symbol)
{
    auto [it, inserted] = symbols_.try_emplace(symbol, static_cast<int>(symbolText_.size()));
    if (inserted) {
        symbolText_.push_back(symbol);
        const auto v = vocab_.find(symbol);
        symbolId_.push_back(v == vocab_.end() ? -1 : v->second);
    }
    return it->second;
}

Loaded<Gpt2Tokenizer> Gpt2Tokenizer::build(
    const std::vector<std::pair<std::string, long long>>& vocab,
    const std::vector<std::pair<std::string, std::string>>& merges, const std::string& vocabName)
{
    if (vocab.empty()) return tokenizerError(vocabName, "the vocabulary is empty");
    // Ids may have gaps, but not absurd ones: a corrupt id must not allocate gigabytes.
    const long long maxAllowed = 4LL * static_cast<long long>(vocab.size()) + 1024;
    Gpt2Tokenizer t;
    long long maxId = -1;
    for (const auto& [token, id] : vocab) {
        if (id < 0 || id > maxAllowed) {
            return tokenizerError(
                vocabName, "token \"" + token + "\" has id " + std::to_string(id) +
                               ", outside 0.." + std::to_string(maxAllowed) +
                               " for a vocabulary of " + std::to_string(vocab.size()) + " entries");
        }
        maxId = std::max(maxId, id);
    }
    t.pieces_.assign(static_cast<std::size_t>(maxId + 1), std::string());
    std::vector<bool> used(t.pieces_.size(), false);
    for (const auto& [token, id] : vocab) {
        const auto slot = static_cast<std::size_t>(id);
        if (used[slot]) {
            return tokenizerError(vocabName, "id " + std::to_string(id) + " is given to both \"" +
                                                 t.pieces_[slot] + "\" and \"" + token + "\"");
        }
        used[slot] = true;
        t.pieces_[slot] = token;
        t.vocab_[token] = static_cast<int>(id);
    }
    // A byte-level vocabulary need not hold every byte: a character-level one (what
    // `attnlab train-model` writes) holds only its text's bytes. encode() leaves out, and
    // reports, each character whose bytes it does not all hold.
    for (int byte = 0; byte < 256; ++byte) {
        std::string symbol;
        unicode::appendUtf8(symbol, byteToUnicode(static_cast<std::uint8_t>(byte)));
        t.byteSymbols_[byte] = t.intern(symbol);
    }
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto& [left, right] = merges[rank];
        const int l = t.intern(left);
        const int r = t.intern(right);
        const int result = t.intern(left + right);
        const std::uint64_t key =
            (static_cast<std::uint64_t>(l) << 32) | static_cast<std::uint32_t>(r);
        // The first occurrence of a pair keeps its rank (as a Python dict built in order
        // would not: but duplicate merges do not occur in real files).
        t.merges_.try_emplace(key, Merge{static_cast<int>(rank), result});
    }
    return t;
}

}  // namespace attn::tok
