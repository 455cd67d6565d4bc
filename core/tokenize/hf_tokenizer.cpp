// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a tokenizer.json (hf_tokenizer.h); encoding is in hf_encode.cpp.
#include "core/tokenize/hf_tokenizer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/tokenize/hf_model_tables.h"

namespace attn::tok {

Loaded<HfTokenizer> HfTokenizer::fromFiles(const std::filesystem::path& tokenizerJson,
                                           const std::filesystem::path& configJson)
{
    std::string text;
    if (auto err = readWholeFile(tokenizerJson, text)) return *err;
    std::string config;
    if (!configJson.empty()) {
        if (auto err = readWholeFile(configJson, config)) return *err;
    }
    return fromStrings(text, config, tokenizerJson.string(), configJson.string());
}

std::optional<std::string> HfTokenizer::readModelOptions(const nlohmann::json& model)
{
    const std::string type = model.value("type", std::string("BPE"));
    if (!model.contains("type") && !model.contains("merges"))
        return "model.type: missing (only \"BPE\" is supported)";
    if (type != "BPE") return "model.type: \"" + type + "\" is not supported (only \"BPE\")";
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return "model.vocab: missing or not an object of token: id";
    if (vocab_.empty()) return "model.vocab: empty";
    if (model.contains("dropout") && !model["dropout"].is_null() &&
        !(model["dropout"].is_number() && model["dropout"].get<double>() == 0.0))
        return "model.dropout: BPE dropout makes encoding random; only null is supported";
    for (const auto& key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (model.contains(key) && !model[key].is_null() &&
            !(model[key].is_string() && model[key].get<std::string>().empty()))
            return std::string("model.") + key + ": not supported (only null or \"\")";
    }
    for (const auto& [key, out] :
         {std::pair{"byte_fallback", &byteFallback_}, std::pair{"fuse_unk", &fuseUnk_},
          std::pair{"ignore_merges", &ignoreMerges_}}) {
        if (!model.contains(key) || model[key].is_null()) continue;
        if (!model[key].is_boolean()) return std::string("model.") + key + ": not a boolean";
        *out = model[key].get<bool>();
    }
    return std::nullopt;
}

namespace {

std::optional<std::string> readAddedToken(const nlohmann::json& a, const std::string& path,
                                          HfAddedToken& tok)
{
    if (!a.is_object()) return path + ": not an object";
    if (!a.contains("id") || !a["id"].is_number_integer() || a["id"].get<long long>() < 0 ||
        a["id"].get<long long>() >= hf::kMaxTokenId)
        return path + ".id: missing or not an integer from 0 to " +
               std::to_string(hf::kMaxTokenId - 1);
    tok.id = static_cast<int>(a["id"].get<long long>());
    if (!a.contains("content") || !a["content"].is_string() ||
        a["content"].get<std::string>().empty())
        return path + ".content: missing, empty or not a string";
    tok.content = a["content"].get<std::string>();
    for (const auto& [key, out] :
         {std::pair{"special", &tok.special}, std::pair{"single_word", &tok.singleWord},
          std::pair{"lstrip", &tok.lstrip}, std::pair{"rstrip", &tok.rstrip}}) {
        if (!a.contains(key)) continue;
        if (!a[key].is_boolean()) return path + "." + key + ": not a boolean";
        *out = a[key].get<bool>();
    }
    tok.normalized = !tok.special;  // Hugging Face's default
    if (a.contains("normalized")) {
        if (!a["normalized"].is_boolean()) return path + ".normalized: not a boolean";
        tok.normalized = a["normalized"].get<bool>();
    }
    return std::nullopt;
}

// The stage object of `root` under `key`, or null when it is absent or JSON null.
const nlohmann::json* stageOf(const nlohmann::json& root, const char* key)
{
    const auto it = root.find(key);
    return it == root.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

std::optional<std::string> HfTokenizer::readAddedTokens(const nlohmann::json& root,
                                                        long long& maxId)
{
    const nlohmann::json* added = stageOf(root, "added_tokens");
    if (added == nullptr) return std::nullopt;
    if (!added->is_array()) return "added_tokens: not a list";
    for (std::size_t i = 0; i < added->size(); ++i) {
        HfAddedToken tok;
        if (auto e = readAddedToken((*added)[i], hf::listPath("added_tokens", i), tok)) return e;
        maxId = std::max<long long>(maxId, tok.id);
        added_.push_back(std::move(tok));
    }
    return std::nullopt;
}

std::optional<std::string> HfTokenizer::placeTokens(long long maxId)
{
    pieces_.assign(static_cast<std::size_t>(maxId + 1), std::string());
    std::string twice;
    vocab_.forEach([&](std::string_view piece, int id) {
        if (!pieces_[id].empty() && twice.empty())
            twice = "model.vocab: the id " + std::to_string(id) + " is given to both \"" +
                    pieces_[id] + "\" and \"" + std::string(piece) + "\"";
        pieces_[id] = piece;
    });
    if (!twice.empty()) return twice;
    addedIndexOfId_.assign(pieces_.size(), -1);
    for (std::size_t i = 0; i < added_.size(); ++i) {
        pieces_[added_[i].id] = added_[i].content;
        addedIndexOfId_[added_[i].id] = static_cast<int>(i);
    }
    return std::nullopt;
}

std::optional<std::string> HfTokenizer::readPipeline(const nlohmann::json& root)
{
    std::string error;
    if (const nlohmann::json* j = stageOf(root, "normalizer")) {
        normalizer_ = hf::readNormalizer(*j, "normalizer", error);
        if (!normalizer_) return error;
    }
    if (const nlohmann::json* j = stageOf(root, "pre_tokenizer")) {
        preTokenizer_ = hf::readPreTokenizer(*j, "pre_tokenizer", error);
        if (!preTokenizer_) return error;
    }
    if (const nlohmann::json* j = stageOf(root, "decoder")) {
        decoder_ = hf::readDecoder(*j, "decoder", error);
        if (!decoder_) return error;
        // A token is shown through the decoder: its Replace steps must not make it far longer.
        if (const double growth = decoder_->worstGrowth(); growth > hf::kMaxDecoderGrowth)
            return "decoder: its Replace steps could make a token " +
                   std::to_string(static_cast<long long>(std::min(growth, 1e18))) +
                   " times longer; a decoder may make it at most " +
                   std::to_string(static_cast<int>(hf::kMaxDecoderGrowth)) + " times longer";
    }
    if (const nlohmann::json* j = stageOf(root, "post_processor")) {
        if (auto e = hf::readPostProcessor(*j, "post_processor", static_cast<long>(pieces_.size()),
                                           specialIds_))
            return e;
    }
    return buildCandidates();
}

std::optional<std::string> HfTokenizer::buildCandidates()
{
    for (const auto& a : added_) {
        Candidates& c = a.normalized ? normalizedCandidates_ : rawCandidates_;
        std::string content = a.content;
        if (a.normalized && normalizer_) {
            // The content is found in normalized text, so it is normalized the same way.
            StageBudget budget(content.size());
            const auto made = normalizer_->apply(alignInput(content), budget);
            if (!made)
                return "added_tokens: the content \"" + content.substr(0, 80) +
                       "\": " + budget.stage() + " would make it " +
                       std::to_string(budget.wouldReach()) + " bytes long, more than " +
                       std::to_string(budget.limit());
            content = made->text;
        }
        if (content.empty()) continue;
        c.startsWith[static_cast<unsigned char>(content[0])] = true;
        c.tokens.emplace_back(std::move(content), a.id);
    }
    for (Candidates* c : {&rawCandidates_, &normalizedCandidates_}) {
        std::stable_sort(c->tokens.begin(), c->tokens.end(), [](const auto& a, const auto& b) {
            return a.first.size() > b.first.size();
        });
    }
    return std::nullopt;
}

Loaded<HfTokenizer> HfTokenizer::fromStrings(std::string_view tokenizerJson,
                                             std::string_view configJson, const std::string& name,
                                             const std::string& configName)
{
    HfTokenizer t;
    t.name_ = name;
    // model.vocab and model.merges go straight into their tables as they are read.
    hf::ModelTables tables(t.vocab_);
    const auto streams = tables.streams();
    nlohmann::json root;
    if (const io::JsonProblem p = io::parseJson(tokenizerJson, root, streams); !p.ok())
        return tokenizerError(name, p.kind == io::JsonProblem::Kind::Refused
                                        ? p.message
                                        : "not valid JSON: " + io::describe(p));
    if (!root.is_object()) return tokenizerError(name, "the top level must be an object");
    const auto fail = [&name](std::string what) { return tokenizerError(name, std::move(what)); };
    if (!root.contains("model") || !root["model"].is_object())
        return fail("model: missing or not an object");
    const nlohmann::json& model = root["model"];
    if (auto e = t.readModelOptions(model)) return fail(*e);
    long long maxId = tables.maxId();
    if (auto e = t.readAddedTokens(root, maxId)) return fail(*e);
    if (auto e = t.placeTokens(maxId)) return fail(*e);
    if (model.contains("unk_token") && !model["unk_token"].is_null()) {
        if (!model["unk_token"].is_string()) return fail("model.unk_token: not a string");
        t.unkId_ = t.vocab_.find(model["unk_token"].get_ref<const std::string&>());
        if (t.unkId_ < 0)
            return fail("model.unk_token: \"" + model["unk_token"].get<std::string>() +
                        "\" is not in model.vocab");
    }
    for (int b = 0; b < 256 && t.byteFallback_; ++b) {
        static const char* hex = "0123456789ABCDEF";
        t.byteIds_[b] = t.vocab_.find(std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">");
    }
    // Merges: a, b and ab must all be in the vocabulary.
    if (!model.contains("merges") || !model["merges"].is_array())
        return fail("model.merges: missing or not a list");
    std::vector<hf::MergeIds> merges;
    if (std::string error; !tables.mergeIds(merges, error)) return fail(error);
    t.merges_.reserve(merges.size());
    for (std::size_t k = 0; k < merges.size(); ++k)
        t.merges_.try_emplace(hf::pairKey(merges[k].left, merges[k].right),
                              Merge{static_cast<int>(k), merges[k].result});
    if (auto e = t.readPipeline(root)) return fail(*e);
    if (!configJson.empty()) {
        const auto idOf = [&t](const std::string& content) { return t.idOf(content); };
        if (auto e = hf::readLlamaConfig(configJson, configName, idOf, t.specialIds_)) return *e;
    }
    return t;
}

// ---- tokens and decoding --------------------------------------------------------------------

const std::string& HfTokenizer::piece(int id) const
{
    static const std::string none;
    return id >= 0 && static_cast<std::size_t>(id) < pieces_.size() ? pieces_[id] : none;
}

int HfTokenizer::idOf(std::string_view p) const
{
    for (const auto& a : added_)
        if (a.content == p) return a.id;
    return vocab_.find(p);
}

bool HfTokenizer::isSpecial(int id) const
{
    return id >= 0 && static_cast<std::size_t>(id) < addedIndexOfId_.size() &&
           addedIndexOfId_[id] >= 0 && added_[addedIndexOfId_[id]].special;
}

std::string HfTokenizer::tokenBytes(int id) const
{
    const std::string& p = piece(id);
    if (p.empty() || addedIndexOfId_[id] >= 0 || !decoder_) return p;
    return decoder_->tokenBytes(p);
}

std::string HfTokenizer::decode(const std::vector<int>& ids) const
{
    std::vector<std::string> tokens;
    for (const int id : ids)
        if (!piece(id).empty()) tokens.push_back(piece(id));
    if (!decoder_) {
        std::string out;
        for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? " " : "") + tokens[i];
        return out;
    }
    std::string out;
    for (const auto& t : decoder_->decode(std::move(tokens))) out += t;
    return out;
}

}  // namespace attn::tok
