// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/generation_config.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/model/config_reader.h"

namespace attn::model {

namespace {

using nlohmann::json;

// Hugging Face's GenerationConfig keys that change what generate() writes.
constexpr const char* kGenerationKeys[] = {"max_length",
                                           "max_new_tokens",
                                           "min_length",
                                           "min_new_tokens",
                                           "do_sample",
                                           "num_beams",
                                           "num_beam_groups",
                                           "early_stopping",
                                           "temperature",
                                           "top_k",
                                           "top_p",
                                           "typical_p",
                                           "repetition_penalty",
                                           "length_penalty",
                                           "no_repeat_ngram_size",
                                           "encoder_no_repeat_ngram_size",
                                           "bad_words_ids",
                                           "forced_bos_token_id",
                                           "forced_eos_token_id",
                                           "suppress_tokens",
                                           "begin_suppress_tokens",
                                           "diversity_penalty",
                                           "bos_token_id",
                                           "eos_token_id",
                                           "pad_token_id",
                                           "decoder_start_token_id"};

bool readId(const json& v, int& out)
{
    if (!v.is_number_integer()) return false;
    const auto id = v.get<long long>();
    if (id < 0 || id > std::numeric_limits<int>::max()) return false;
    out = static_cast<int>(id);
    return true;
}

attn::Status wrong(const std::string& file, const char* field, const char* what)
{
    return attn::failure(attn::StatusCode::ConfigField, file, field, what);
}

attn::Status readHonoured(const json& j, const std::string& file, GenerationSettings& out)
{
    if (const auto e = j.find("eos_token_id"); e != j.end() && !e->is_null()) {
        std::vector<int> ids;
        int id = 0;
        if (readId(*e, id)) {
            ids.push_back(id);
        } else if (e->is_array()) {
            for (const json& v : *e) {
                if (!readId(v, id))
                    return wrong(file, "eos_token_id",
                                 "not a list of token ids (whole numbers >= 0)");
                ids.push_back(id);
            }
        } else {
            return wrong(file, "eos_token_id", "not a token id or a list of them");
        }
        out.eos = std::move(ids);
    }
    if (const auto d = j.find("decoder_start_token_id"); d != j.end() && !d->is_null()) {
        if (!readId(*d, out.decoderStart))
            return wrong(file, "decoder_start_token_id", "not a token id (a whole number >= 0)");
    }
    if (const auto b = j.find("bad_words_ids"); b != j.end() && !b->is_null()) {
        std::vector<std::vector<int>> words;
        if (!b->is_array()) return wrong(file, "bad_words_ids", "not a list of lists of token ids");
        for (const json& seq : *b) {
            if (!seq.is_array() || seq.empty())
                return wrong(file, "bad_words_ids", "not a list of non-empty lists of token ids");
            std::vector<int> ids;
            int id = 0;
            for (const json& v : seq) {
                if (!readId(v, id))
                    return wrong(file, "bad_words_ids", "holds something other than a token id");
                ids.push_back(id);
            }
            words.push_back(std::move(ids));
        }
        out.badWords = std::move(words);
    }
    return {};
}

}  // namespace

attn::Status parseGenerationSettings(const std::string& text, const std::string& file,
                                     GenerationSettings& out)
{
    json j;
    if (const io::JsonProblem p = io::parseJson(text, j); !p.ok())
        return attn::failure(
            attn::StatusCode::ConfigField, file, p.path,
            p.kind == io::JsonProblem::Kind::Syntax ? "not valid JSON: " + p.message : p.message);
    if (!j.is_object())
        return attn::failure(attn::StatusCode::ConfigField, file, "", "not a JSON object");
    GenerationSettings read = out;
    if (attn::Status s = readHonoured(j, file, read); !s.ok()) return s;
    // In the order of kGenerationKeys: this file's value, else the one read before it.
    std::vector<std::pair<std::string, std::string>> shown;
    for (const char* key : kGenerationKeys) {
        const auto earlier = std::find_if(read.shown.begin(), read.shown.end(),
                                          [key](const auto& kv) { return kv.first == key; });
        if (const auto v = j.find(key); v != j.end())
            shown.emplace_back(key, v->dump());
        else if (earlier != read.shown.end())
            shown.push_back(*earlier);
    }
    read.shown = std::move(shown);
    out = std::move(read);
    return {};
}

attn::Status readGenerationSettings(const std::string& folder, GenerationSettings& out)
{
    GenerationSettings read;
    for (const char* name : {"config.json", "generation_config.json"}) {
        const std::string path = (std::filesystem::path(folder) / name).string();
        std::error_code ec;
        if (std::string(name) != "config.json" && !std::filesystem::exists(path, ec)) continue;
        std::string text;
        if (attn::Status s = detail::readConfigText(path, text); !s.ok()) return s;
        if (attn::Status s = parseGenerationSettings(text, path, read); !s.ok()) return s;
    }
    out = std::move(read);
    return {};
}

}  // namespace attn::model
