// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_post_processor.h"

#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/tokenize/hf_model_tables.h"
#include "core/tokenize/loaded.h"

namespace attn::tok::hf {

using nlohmann::json;

namespace {

bool isKnownId(const json& id, long idCount)
{
    return id.is_number_integer() && id.get<long long>() >= 0 && id.get<long long>() < idCount;
}

// [CLS] $A [SEP] with the ids given as "cls": [token, id] and "sep": [token, id].
std::optional<std::string> readClsSep(const json& p, const std::string& path, long idCount,
                                      SpecialIds& out)
{
    for (const char* key : {"cls", "sep"}) {
        const auto it = p.find(key);
        if (it == p.end() || !it->is_array() || it->size() != 2 || !isKnownId((*it)[1], idCount))
            return path + "." + key + ": must be [token, id] with a known id";
    }
    out.prefix = {static_cast<int>(p["cls"][1].get<long long>())};
    out.suffix = {static_cast<int>(p["sep"][1].get<long long>())};
    return std::nullopt;
}

// The ids of one {"SpecialToken": {"id": key}} item, appended to `to`.
std::optional<std::string> readTemplateItem(const json& item, const json& specials,
                                            const std::string& path, const std::string& itemPath,
                                            long idCount, std::vector<int>& to)
{
    if (!item.is_object() || !item.contains("SpecialToken") || !item["SpecialToken"].is_object() ||
        !item["SpecialToken"].contains("id") || !item["SpecialToken"]["id"].is_string())
        return itemPath + R"(: must be {"SpecialToken": {"id": ...}} or {"Sequence": ...})";
    const std::string key = item["SpecialToken"]["id"].get<std::string>();
    if (!specials.is_object() || !specials.contains(key) || !specials[key].is_object() ||
        !specials[key].contains("ids") || !specials[key]["ids"].is_array())
        return path + ".special_tokens: \"" + key + "\" is missing or has no ids";
    for (const json& id : specials[key]["ids"]) {
        if (!isKnownId(id, idCount))
            return path + ".special_tokens[\"" + key + "\"].ids: not a known id";
        to.push_back(static_cast<int>(id.get<long long>()));
    }
    return std::nullopt;
}

std::optional<std::string> readTemplate(const json& p, const std::string& path, long idCount,
                                        SpecialIds& out)
{
    const auto single = p.find("single");
    if (single == p.end() || !single->is_array()) return path + ".single: missing or not a list";
    if (single->size() > kMaxTemplateItems)
        return path + ".single: has " + std::to_string(single->size()) +
               " items; a template may have at most " + std::to_string(kMaxTemplateItems);
    const json& specials = p.contains("special_tokens") ? p["special_tokens"] : json();
    SpecialIds ids;
    bool seenA = false;
    for (std::size_t i = 0; i < single->size(); ++i) {
        const json& item = (*single)[i];
        const std::string itemPath = listPath(path + ".single", i);
        if (item.is_object() && item.contains("Sequence")) {
            if (seenA) return itemPath + ": the text may appear only once";
            seenA = true;
            continue;
        }
        if (auto e = readTemplateItem(item, specials, path, itemPath, idCount,
                                      seenA ? ids.suffix : ids.prefix))
            return e;
        const std::size_t added = ids.prefix.size() + ids.suffix.size();
        if (added > kMaxSpecialIds)
            return path + ": adds " + std::to_string(added) +
                   " special tokens to a text; a template may add at most " +
                   std::to_string(kMaxSpecialIds);
    }
    if (!seenA) return path + ".single: the text ({\"Sequence\": ...}) is missing";
    out = std::move(ids);
    return std::nullopt;
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

std::optional<std::string> readPostProcessor(const json& p, const std::string& path, long idCount,
                                             SpecialIds& out)
{
    if (!p.is_object() || !p.contains("type") || !p["type"].is_string())
        return path + ".type: missing or not a string";
    const std::string type = p["type"].get<std::string>();
    if (type == "ByteLevel") return std::nullopt;  // offsets only: the ids are unchanged
    if (type == "Sequence") {
        if (!p.contains("processors") || !p["processors"].is_array())
            return path + ".processors: missing or not a list";
        for (std::size_t i = 0; i < p["processors"].size(); ++i)
            if (auto e = readPostProcessor(p["processors"][i], listPath(path + ".processors", i),
                                           idCount, out))
                return e;
        return std::nullopt;
    }
    if (type == "RobertaProcessing" || type == "BertProcessing")
        return readClsSep(p, path, idCount, out);
    if (type != "TemplateProcessing")
        return path + ".type: the post-processor \"" + type + "\" is not supported";
    return readTemplate(p, path, idCount, out);
}

std::optional<Status> readLlamaConfig(std::string_view configJson, const std::string& configName,
                                      const std::function<int(const std::string&)>& idOf,
                                      SpecialIds& out)
{
    json config;
    if (const io::JsonProblem p = io::parseJson(configJson, config); !p.ok())
        return tokenizerError(configName, "not valid JSON: " + io::describe(p));
    if (!config.is_object()) return tokenizerError(configName, "the top level must be an object");
    const std::string cls = config.value("tokenizer_class", std::string());
    if (cls != "LlamaTokenizer" && cls != "LlamaTokenizerFast") return std::nullopt;
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
                             std::vector<int>& ids) -> std::optional<Status> {
        ids.clear();
        if (!wanted) return std::nullopt;
        const auto content = config.contains(key) ? tokenContent(config[key]) : std::nullopt;
        const int id = content ? idOf(*content) : -1;
        if (id < 0)
            return tokenizerError(configName, std::string(key) + ": missing or not a known token");
        ids = {id};
        return std::nullopt;
    };
    if (auto e = special("bos_token", *bos, out.prefix)) return *e;
    if (auto e = special("eos_token", *eos, out.suffix)) return *e;
    return std::nullopt;
}

}  // namespace attn::tok::hf
