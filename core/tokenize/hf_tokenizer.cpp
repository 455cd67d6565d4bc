// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_tokenizer.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include <queue>

#include "core/io/json_read.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_model_tables.h"
#include "core/tokenize/unicode.h"

namespace attn::tok {

using nlohmann::json;

namespace {

std::uint64_t pairKey(int left, int right)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
           static_cast<std::uint32_t>(right);
}

bool isWordChar(char32_t cp)
{
    return cp == U'_' || unicode::isLetter(cp) || unicode::isNumber(cp);
}

// The token's content as a plain string, whether written "<s>" or {"content": "<s>", ...}
// (transformers writes special tokens of tokenizer_config.json both ways).
std::optional<std::string> tokenContent(const json& j)
{
    if (j.is_string()) return j.get<std::string>();
    if (j.is_object() && j.contains("content") && j["content"].is_string())
        return j["content"].get<std::string>();
    return std::nullopt;
}

}  // namespace

// ---- loading --------------------------------------------------------------------------------

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

Loaded<HfTokenizer> HfTokenizer::fromStrings(std::string_view tokenizerJson,
                                             std::string_view configJson, const std::string& name,
                                             const std::string& configName)
{
    HfTokenizer t;
    // model.vocab and model.merges go straight into their tables as they are read.
    hf::ModelTables tables(t.vocab_);
    const auto streams = tables.streams();
    json root;
    if (const io::JsonProblem p = io::parseJson(tokenizerJson, root, streams); !p.ok())
        return tokenizerError(name, p.kind == io::JsonProblem::Kind::Refused
                                        ? p.message
                                        : "not valid JSON: " + io::describe(p));
    if (!root.is_object()) return tokenizerError(name, "the top level must be an object");
    std::string error;
    const auto fail = [&name](std::string what) { return tokenizerError(name, std::move(what)); };

    // The model.
    if (!root.contains("model") || !root["model"].is_object())
        return fail("model: missing or not an object");
    const json& model = root["model"];
    const std::string type = model.value("type", std::string("BPE"));
    if (!model.contains("type") && !model.contains("merges"))
        return fail("model.type: missing (only \"BPE\" is supported)");
    if (type != "BPE") return fail("model.type: \"" + type + "\" is not supported (only \"BPE\")");
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return fail("model.vocab: missing or not an object of token: id");
    if (t.vocab_.empty()) return fail("model.vocab: empty");
    long long maxId = tables.maxId();
    for (const auto& key : {"dropout"}) {
        if (model.contains(key) && !model[key].is_null() &&
            !(model[key].is_number() && model[key].get<double>() == 0.0))
            return fail(std::string("model.") + key +
                        ": BPE dropout makes encoding random; only null is supported");
    }
    for (const auto& key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (model.contains(key) && !model[key].is_null() &&
            !(model[key].is_string() && model[key].get<std::string>().empty()))
            return fail(std::string("model.") + key + ": not supported (only null or \"\")");
    }
    for (const auto& [key, out] :
         {std::pair{"byte_fallback", &t.byteFallback_}, std::pair{"fuse_unk", &t.fuseUnk_},
          std::pair{"ignore_merges", &t.ignoreMerges_}}) {
        if (!model.contains(key) || model[key].is_null()) continue;
        if (!model[key].is_boolean()) return fail(std::string("model.") + key + ": not a boolean");
        *out = model[key].get<bool>();
    }

    // Added tokens: they may add ids beyond the vocabulary.
    if (root.contains("added_tokens") && !root["added_tokens"].is_null()) {
        const json& added = root["added_tokens"];
        if (!added.is_array()) return fail("added_tokens: not a list");
        for (std::size_t i = 0; i < added.size(); ++i) {
            const json& a = added[i];
            const std::string path = hf::listPath("added_tokens", i);
            if (!a.is_object()) return fail(path + ": not an object");
            HfAddedToken tok;
            if (!a.contains("id") || !a["id"].is_number_integer() || a["id"].get<long long>() < 0 ||
                a["id"].get<long long>() >= hf::kMaxTokenId)
                return fail(path + ".id: missing or not an integer from 0 to " +
                            std::to_string(hf::kMaxTokenId - 1));
            tok.id = static_cast<int>(a["id"].get<long long>());
            if (!a.contains("content") || !a["content"].is_string() ||
                a["content"].get<std::string>().empty())
                return fail(path + ".content: missing, empty or not a string");
            tok.content = a["content"].get<std::string>();
            for (const auto& [key, out] :
                 {std::pair{"special", &tok.special}, std::pair{"single_word", &tok.singleWord},
                  std::pair{"lstrip", &tok.lstrip}, std::pair{"rstrip", &tok.rstrip}}) {
                if (!a.contains(key)) continue;
                if (!a[key].is_boolean()) return fail(path + "." + key + ": not a boolean");
                *out = a[key].get<bool>();
            }
            tok.normalized = !tok.special;  // Hugging Face's default
            if (a.contains("normalized")) {
                if (!a["normalized"].is_boolean()) return fail(path + ".normalized: not a boolean");
                tok.normalized = a["normalized"].get<bool>();
            }
            maxId = std::max<long long>(maxId, tok.id);
            t.added_.push_back(std::move(tok));
        }
    }

    t.pieces_.assign(static_cast<std::size_t>(maxId + 1), std::string());
    std::string twice;
    t.vocab_.forEach([&](std::string_view piece, int id) {
        if (!t.pieces_[id].empty() && twice.empty())
            twice = "model.vocab: the id " + std::to_string(id) + " is given to both \"" +
                    t.pieces_[id] + "\" and \"" + std::string(piece) + "\"";
        t.pieces_[id] = piece;
    });
    if (!twice.empty()) return fail(twice);
    t.addedIndexOfId_.assign(t.pieces_.size(), -1);
    for (std::size_t i = 0; i < t.added_.size(); ++i) {
        t.pieces_[t.added_[i].id] = t.added_[i].content;
        t.addedIndexOfId_[t.added_[i].id] = static_cast<int>(i);
    }

    if (model.contains("unk_token") && !model["unk_token"].is_null()) {
        if (!model["unk_token"].is_string()) return fail("model.unk_token: not a string");
        t.unkId_ = t.vocab_.find(model["unk_token"].get_ref<const std::string&>());
        if (t.unkId_ < 0)
            return fail("model.unk_token: \"" + model["unk_token"].get<std::string>() +
                        "\" is not in model.vocab");
    }
    if (t.byteFallback_) {
        for (int b = 0; b < 256; ++b) {
            static const char* hex = "0123456789ABCDEF";
            const std::string piece = std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">";
            t.byteIds_[b] = t.vocab_.find(piece);
        }
    }

    // Merges: a, b and ab must all be in the vocabulary.
    if (!model.contains("merges") || !model["merges"].is_array())
        return fail("model.merges: missing or not a list");
    std::vector<hf::MergeIds> merges;
    if (!tables.mergeIds(merges, error)) return fail(error);
    t.merges_.reserve(merges.size());
    for (std::size_t k = 0; k < merges.size(); ++k)
        t.merges_.try_emplace(pairKey(merges[k].left, merges[k].right),
                              Merge{static_cast<int>(k), merges[k].result});

    // The pipeline around the model.
    const auto stage = [&root](const char* key) -> const json* {
        const auto it = root.find(key);
        return it == root.end() || it->is_null() ? nullptr : &*it;
    };
    if (const json* j = stage("normalizer")) {
        t.normalizer_ = hf::readNormalizer(*j, "normalizer", error);
        if (!t.normalizer_) return fail(error);
    }
    if (const json* j = stage("pre_tokenizer")) {
        t.preTokenizer_ = hf::readPreTokenizer(*j, "pre_tokenizer", error);
        if (!t.preTokenizer_) return fail(error);
    }
    if (const json* j = stage("decoder")) {
        t.decoder_ = hf::readDecoder(*j, "decoder", error);
        if (!t.decoder_) return fail(error);
    }

    t.buildCandidates();

    // The post-processor: the special tokens around a single text.
    const auto idOfSpecial = [&t](const std::string& content) {
        for (const auto& a : t.added_)
            if (a.content == content) return a.id;
        return t.vocab_.find(content);
    };
    std::function<std::optional<std::string>(const json&, const std::string&)> readPost =
        [&](const json& p, const std::string& path) -> std::optional<std::string> {
        if (!p.is_object() || !p.contains("type") || !p["type"].is_string())
            return path + ".type: missing or not a string";
        const std::string ptype = p["type"].get<std::string>();
        if (ptype == "ByteLevel") return std::nullopt;  // offsets only: the ids are unchanged
        if (ptype == "Sequence") {
            if (!p.contains("processors") || !p["processors"].is_array())
                return path + ".processors: missing or not a list";
            for (std::size_t i = 0; i < p["processors"].size(); ++i)
                if (auto e = readPost(p["processors"][i], hf::listPath(path + ".processors", i)))
                    return e;
            return std::nullopt;
        }
        if (ptype == "RobertaProcessing" || ptype == "BertProcessing") {
            for (const char* key : {"cls", "sep"}) {
                const json& v = p.contains(key) ? p[key] : json();
                if (!v.is_array() || v.size() != 2 || !v[1].is_number_integer() ||
                    v[1].get<long long>() < 0 ||
                    v[1].get<long long>() >= static_cast<long long>(t.pieces_.size()))
                    return path + "." + key + ": must be [token, id] with a known id";
            }
            t.prefixIds_ = {static_cast<int>(p["cls"][1].get<long long>())};
            t.suffixIds_ = {static_cast<int>(p["sep"][1].get<long long>())};
            return std::nullopt;
        }
        if (ptype != "TemplateProcessing")
            return path + ".type: the post-processor \"" + ptype + "\" is not supported";
        if (!p.contains("single") || !p["single"].is_array())
            return path + ".single: missing or not a list";
        const json& specials = p.contains("special_tokens") ? p["special_tokens"] : json();
        std::vector<int> before, after;
        bool seenA = false;
        for (std::size_t i = 0; i < p["single"].size(); ++i) {
            const json& item = p["single"][i];
            const std::string ipath = hf::listPath(path + ".single", i);
            if (item.is_object() && item.contains("Sequence")) {
                if (seenA) return ipath + ": the text may appear only once";
                seenA = true;
                continue;
            }
            if (!item.is_object() || !item.contains("SpecialToken") ||
                !item["SpecialToken"].is_object() || !item["SpecialToken"].contains("id") ||
                !item["SpecialToken"]["id"].is_string())
                return ipath + R"(: must be {"SpecialToken": {"id": ...}} or {"Sequence": ...})";
            const std::string key = item["SpecialToken"]["id"].get<std::string>();
            if (!specials.is_object() || !specials.contains(key) ||
                !specials[key].contains("ids") || !specials[key]["ids"].is_array())
                return path + ".special_tokens: \"" + key + "\" is missing or has no ids";
            for (const json& id : specials[key]["ids"]) {
                if (!id.is_number_integer() || id.get<long long>() < 0 ||
                    id.get<long long>() >= static_cast<long long>(t.pieces_.size()))
                    return path + ".special_tokens[\"" + key + "\"].ids: not a known id";
                (seenA ? after : before).push_back(static_cast<int>(id.get<long long>()));
            }
        }
        if (!seenA) return path + ".single: the text ({\"Sequence\": ...}) is missing";
        t.prefixIds_ = std::move(before);
        t.suffixIds_ = std::move(after);
        return std::nullopt;
    };
    if (const json* j = stage("post_processor")) {
        if (auto e = readPost(*j, "post_processor")) return fail(*e);
    }

    // tokenizer_config.json: transformers' Llama tokenizer builds its template from
    // add_bos_token / add_eos_token, whatever tokenizer.json says.
    if (!configJson.empty()) {
        json config;
        if (const io::JsonProblem p = io::parseJson(configJson, config); !p.ok())
            return tokenizerError(configName, "not valid JSON: " + io::describe(p));
        if (!config.is_object())
            return tokenizerError(configName, "the top level must be an object");
        const std::string cls = config.value("tokenizer_class", std::string());
        if (cls == "LlamaTokenizer" || cls == "LlamaTokenizerFast") {
            const auto flag = [&](const char* key, bool fallback) -> std::optional<bool> {
                if (!config.contains(key) || config[key].is_null()) return fallback;
                if (!config[key].is_boolean()) return std::nullopt;
                return config[key].get<bool>();
            };
            const auto bos = flag("add_bos_token", true);
            const auto eos = flag("add_eos_token", false);
            if (!bos) return tokenizerError(configName, "add_bos_token: not a boolean");
            if (!eos) return tokenizerError(configName, "add_eos_token: not a boolean");
            const auto special = [&](const char* key, bool wanted,
                                     std::vector<int>& out) -> std::optional<Status> {
                out.clear();
                if (!wanted) return std::nullopt;
                const auto content =
                    config.contains(key) ? tokenContent(config[key]) : std::nullopt;
                const int id = content ? idOfSpecial(*content) : -1;
                if (id < 0)
                    return tokenizerError(configName,
                                          std::string(key) + ": missing or not a known token");
                out = {id};
                return std::nullopt;
            };
            if (auto e = special("bos_token", *bos, t.prefixIds_)) return *e;
            if (auto e = special("eos_token", *eos, t.suffixIds_)) return *e;
        }
    }
    return t;
}

// ---- encoding -------------------------------------------------------------------------------

void HfTokenizer::buildCandidates()
{
    for (const auto& a : added_) {
        Candidates& c = a.normalized ? normalizedCandidates_ : rawCandidates_;
        std::string content = a.content;
        if (a.normalized && normalizer_) content = normalizer_->apply(content);
        if (content.empty()) continue;
        c.startsWith[static_cast<unsigned char>(content[0])] = true;
        c.tokens.emplace_back(std::move(content), a.id);
    }
    for (Candidates* c : {&rawCandidates_, &normalizedCandidates_}) {
        std::stable_sort(c->tokens.begin(), c->tokens.end(), [](const auto& a, const auto& b) {
            return a.first.size() > b.first.size();
        });
    }
}

void HfTokenizer::splitOnAdded(std::string_view text, const Candidates& candidates,
                               std::vector<Split>& out) const
{
    if (candidates.tokens.empty()) {
        if (!text.empty()) out.push_back({std::string(text), -1});
        return;
    }
    const auto isSpaceAt = [&text](std::size_t i, std::size_t& len) {
        len = unicode::validSequenceLength(text, i);
        return len > 0 && unicode::isWhiteSpace(unicode::decodeUtf8(text.substr(i, len)).front());
    };
    const auto charBefore = [&text](std::size_t i) {
        std::size_t b = i;
        do --b;
        while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80);
        return unicode::decodeUtf8(text.substr(b, i - b)).front();
    };

    std::size_t begin = 0;  // the start of text not yet given to `out`
    std::size_t at = 0;     // where the search goes on
    while (at < text.size()) {
        const std::pair<std::string, int>* hit = nullptr;
        if (!candidates.startsWith[static_cast<unsigned char>(text[at])]) {
            ++at;
            continue;
        }
        for (const auto& c : candidates.tokens) {
            if (text.compare(at, c.first.size(), c.first) == 0) {
                hit = &c;
                break;
            }
        }
        if (!hit) {
            ++at;
            continue;
        }
        const HfAddedToken& a = added_[addedIndexOfId_[hit->second]];
        std::size_t from = at;
        std::size_t to = at + hit->first.size();
        at = to;
        if (a.singleWord) {
            const bool wordBefore = from > 0 && isWordChar(charBefore(from));
            const bool wordAfter =
                to < text.size() && isWordChar(unicode::decodeUtf8(text.substr(to, 4)).front());
            if (wordBefore || wordAfter) continue;
        }
        if (a.lstrip) {
            while (from > begin) {
                std::size_t b = from;
                do --b;
                while (b > begin && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80);
                std::size_t len = 0;
                if (!isSpaceAt(b, len)) break;
                from = b;
            }
        }
        if (a.rstrip) {
            std::size_t len = 0;
            while (to < text.size() && isSpaceAt(to, len)) to += len;
        }
        if (from > begin) out.push_back({std::string(text.substr(begin, from - begin)), -1});
        out.push_back({std::string(text.substr(from, to - from)), a.id});
        begin = to;
        at = std::max(at, to);
    }
    if (begin < text.size()) out.push_back({std::string(text.substr(begin)), -1});
}

void HfTokenizer::bpe(const std::string& piece, std::vector<int>& ids) const
{
    if (ignoreMerges_) {
        if (const int id = vocab_.find(piece); id >= 0) {
            ids.push_back(id);
            return;
        }
    }
    // The symbols: one per character, or per byte where byte fallback stands in.
    struct Symbol {
        int id;
        int prev;
        int next;
        bool alive;
    };
    std::vector<Symbol> symbols;
    int pendingUnk = 0;  // characters waiting to become the unknown token (fused)
    const auto flushUnk = [&] {
        if (pendingUnk == 0) return;
        symbols.push_back({unkId_, 0, 0, true});
        pendingUnk = 0;
    };
    for (std::size_t i = 0; i < piece.size();) {
        std::size_t n = unicode::validSequenceLength(piece, i);
        if (n == 0) n = 1;
        const std::string_view ch = std::string_view(piece).substr(i, n);
        i += n;
        if (const int id = vocab_.find(ch); id >= 0) {
            flushUnk();
            symbols.push_back({id, 0, 0, true});
            continue;
        }
        if (byteFallback_) {
            bool all = true;
            for (const char c : ch) all = all && byteIds_[static_cast<unsigned char>(c)] >= 0;
            if (all) {
                flushUnk();
                for (const char c : ch)
                    symbols.push_back({byteIds_[static_cast<unsigned char>(c)], 0, 0, true});
                continue;
            }
        }
        if (unkId_ < 0) continue;  // no unknown token: the character is dropped, as in HF
        if (!fuseUnk_) flushUnk();
        ++pendingUnk;
    }
    flushUnk();
    const int n = static_cast<int>(symbols.size());
    for (int i = 0; i < n; ++i) {
        symbols[i].prev = i - 1;
        symbols[i].next = i + 1 < n ? i + 1 : -1;
    }

    // Lowest rank first; among equal ranks the leftmost.
    struct Candidate {
        int rank;
        int pos;
        int result;
        bool operator>(const Candidate& o) const
        {
            return rank != o.rank ? rank > o.rank : pos > o.pos;
        }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    const auto consider = [&](int pos) {
        if (pos < 0 || symbols[pos].next < 0) return;
        const auto it = merges_.find(pairKey(symbols[pos].id, symbols[symbols[pos].next].id));
        if (it != merges_.end()) queue.push({it->second.rank, pos, it->second.result});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i);
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol& left = symbols[top.pos];
        if (!left.alive || left.next < 0) continue;
        const auto it = merges_.find(pairKey(left.id, symbols[left.next].id));
        if (it == merges_.end() || it->second.result != top.result) continue;  // stale
        Symbol& right = symbols[left.next];
        left.id = top.result;
        right.alive = false;
        left.next = right.next;
        if (left.next >= 0) symbols[left.next].prev = top.pos;
        consider(left.prev);
        consider(top.pos);
    }
    for (const Symbol& s : symbols)
        if (s.alive) ids.push_back(s.id);
}

std::vector<int> HfTokenizer::encode(std::string_view utf8, bool addSpecialTokens) const
{
    const std::string text = replaceBrokenUtf8(utf8);
    std::vector<int> ids;
    if (addSpecialTokens) ids = prefixIds_;
    std::vector<Split> raw;
    splitOnAdded(text, rawCandidates_, raw);
    bool first = true;
    for (const Split& s : raw) {
        if (s.addedId >= 0) {
            ids.push_back(s.addedId);
            first = false;
            continue;
        }
        const std::string normalized = normalizer_ ? normalizer_->apply(s.text) : s.text;
        std::vector<Split> parts;
        splitOnAdded(normalized, normalizedCandidates_, parts);
        for (const Split& p : parts) {
            if (p.addedId >= 0) {
                ids.push_back(p.addedId);
            } else if (preTokenizer_) {
                for (const auto& piece : preTokenizer_->apply(p.text, first)) bpe(piece, ids);
            } else {
                bpe(p.text, ids);
            }
            first = false;
        }
    }
    if (addSpecialTokens) ids.insert(ids.end(), suffixIds_.begin(), suffixIds_.end());
    return ids;
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
