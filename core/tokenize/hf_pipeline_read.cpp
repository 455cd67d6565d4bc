// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the stages of a tokenizer.json (hf_pipeline.h) from their JSON objects.
#include <nlohmann/json.hpp>

#include "core/tokenize/hf_pipeline.h"
#include "core/tokenize/unicode.h"

namespace attn::tok::hf {

using nlohmann::json;

namespace {

// The pattern of GPT-2's encoder.py, as Hugging Face's ByteLevel pre-tokenizer writes it.
constexpr std::string_view kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

std::string inQuotes(std::string_view s)
{
    // Built by appending: GCC 12 at -O3 warns (stringop-overflow, wrongly) on "\"" + s + "\"".
    std::string out(1, '"');
    out.append(s);
    out.push_back('"');
    return out;
}

// Reads an optional boolean member; false (with `error` set) when present but not a boolean.
bool readBool(const json& j, const char* key, const std::string& path, bool& out,
              std::string& error)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_boolean()) {
        error = path + "." + key + ": must be true or false";
        return false;
    }
    out = it->get<bool>();
    return true;
}

bool readString(const json& j, const char* key, const std::string& path, std::string& out,
                std::string& error)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) {
        error = path + "." + key + ": missing or not a string";
        return false;
    }
    out = it->get<std::string>();
    return true;
}

// The type of a stage object, or empty with `error` set.
std::string typeOf(const json& j, const std::string& path, std::string& error)
{
    if (!j.is_object()) {
        error = path + ": must be an object or null";
        return {};
    }
    std::string type;
    if (!readString(j, "type", path, type, error)) return {};
    return type;
}

// Reads the list member `key` of a Sequence with `read` for each element.
template <class T, class Read>
bool readChildren(const json& j, const char* key, const std::string& path, Read read,
                  std::vector<T>& out, std::string& error)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array()) {
        error = path + "." + key + ": missing or not a list";
        return false;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
        auto child = read((*it)[i], path + "." + key + "[" + std::to_string(i + 1) + "]", error);
        if (!child) return false;
        out.push_back(std::move(*child));
    }
    return true;
}

// Reads the string `key` that a stage puts into the text (a Replace's content, a Prepend's
// text), refusing one longer than kMaxInsertBytes: `what` says what it does, for the message.
bool readInserted(const json& j, const char* key, const std::string& path, std::string& out,
                  const char* what, std::string& error)
{
    if (!readString(j, key, path, out, error)) return false;
    if (out.size() <= kMaxInsertBytes) return true;
    error = path + "." + key + ": has " + std::to_string(out.size()) + " bytes; " + what +
            " at most " + std::to_string(kMaxInsertBytes) + " bytes" +
            (std::string_view(what).starts_with("a Replace") ? " in place of a match"
                                                             : " before a text");
    return false;
}

// "normalizer.normalizers[2] (Replace)": the stage as a refusal names it.
std::string stageName(const std::string& path, const std::string& type)
{
    return path + " (" + type + ")";
}

}  // namespace

std::optional<Pattern> readPattern(const json& j, const std::string& path, std::string& error)
{
    Pattern p;
    if (j.is_object() && j.size() == 1 && j.contains("String") && j["String"].is_string()) {
        p.literal = j["String"].get<std::string>();
        return p;
    }
    if (j.is_object() && j.size() == 1 && j.contains("Regex") && j["Regex"].is_string()) {
        std::string why;
        p.regex = HfRegex::compile(j["Regex"].get<std::string>(), why);
        if (!p.regex) {
            error = path + ".Regex: not a valid regular expression: " + why;
            return std::nullopt;
        }
        return p;
    }
    error = path + R"(: must be {"String": "..."} or {"Regex": "..."})";
    return std::nullopt;
}

std::optional<Normalizer> readNormalizer(const json& j, const std::string& path, std::string& error)
{
    const std::string type = typeOf(j, path, error);
    if (type.empty()) return std::nullopt;
    Normalizer n;
    n.stage = stageName(path, type);
    if (type == "NFC") {
        n.kind = Normalizer::Kind::Nfc;
    } else if (type == "NFD") {
        n.kind = Normalizer::Kind::Nfd;
    } else if (type == "Prepend") {
        n.kind = Normalizer::Kind::Prepend;
        if (!readInserted(j, "prepend", path, n.text, "a Prepend may put", error))
            return std::nullopt;
    } else if (type == "Replace") {
        n.kind = Normalizer::Kind::Replace;
        if (!readInserted(j, "content", path, n.text, "a Replace may put", error))
            return std::nullopt;
        auto p =
            readPattern(j.contains("pattern") ? j["pattern"] : json(), path + ".pattern", error);
        if (!p) return std::nullopt;
        n.pattern = std::move(*p);
    } else if (type == "Sequence") {
        if (!readChildren(j, "normalizers", path, readNormalizer, n.children, error))
            return std::nullopt;
    } else {
        error = path + ".type: the normalizer " + inQuotes(type) + " is not supported";
        return std::nullopt;
    }
    return n;
}

namespace {

bool readSplit(const json& j, const std::string& path, PreTokenizer& p, std::string& error)
{
    p.kind = PreTokenizer::Kind::Split;
    auto pattern =
        readPattern(j.contains("pattern") ? j["pattern"] : json(), path + ".pattern", error);
    if (!pattern) return false;
    p.pattern = std::move(*pattern);
    std::string behavior;
    if (!readString(j, "behavior", path, behavior, error)) return false;
    using B = PreTokenizer::Behavior;
    if (behavior == "Removed")
        p.behavior = B::Removed;
    else if (behavior == "Isolated")
        p.behavior = B::Isolated;
    else if (behavior == "MergedWithPrevious")
        p.behavior = B::MergedWithPrevious;
    else if (behavior == "MergedWithNext")
        p.behavior = B::MergedWithNext;
    else if (behavior == "Contiguous")
        p.behavior = B::Contiguous;
    else {
        error = path + ".behavior: unknown behaviour " + inQuotes(behavior);
        return false;
    }
    return readBool(j, "invert", path, p.invert, error);
}

bool readByteLevel(const json& j, const std::string& path, PreTokenizer& p, std::string& error)
{
    p.kind = PreTokenizer::Kind::ByteLevel;
    p.addPrefixSpace = true;  // the defaults of Hugging Face's ByteLevel
    p.useRegex = true;
    if (!readBool(j, "add_prefix_space", path, p.addPrefixSpace, error) ||
        !readBool(j, "use_regex", path, p.useRegex, error))
        return false;
    std::string why;
    p.pattern.regex = HfRegex::compile(kGpt2Pattern, why);
    if (!p.pattern.regex) {
        error = path + ": GPT-2's pattern does not compile: " + why;
        return false;
    }
    return true;
}

bool readMetaspace(const json& j, const std::string& path, PreTokenizer& p, std::string& error)
{
    p.kind = PreTokenizer::Kind::Metaspace;
    if (!readString(j, "replacement", path, p.replacement, error)) return false;
    if (unicode::decodeUtf8(p.replacement).size() != 1) {
        error = path + ".replacement: must be one character";
        return false;
    }
    if (!readBool(j, "split", path, p.split, error)) return false;
    bool addPrefixSpace = true;
    if (!readBool(j, "add_prefix_space", path, addPrefixSpace, error)) return false;
    p.prepend = addPrefixSpace ? PreTokenizer::Prepend::Always : PreTokenizer::Prepend::Never;
    if (const auto it = j.find("prepend_scheme"); it != j.end() && !it->is_null()) {
        const std::string scheme = it->is_string() ? it->get<std::string>() : "";
        if (scheme == "always")
            p.prepend = PreTokenizer::Prepend::Always;
        else if (scheme == "first")
            p.prepend = PreTokenizer::Prepend::First;
        else if (scheme == "never")
            p.prepend = PreTokenizer::Prepend::Never;
        else {
            error = path + R"(.prepend_scheme: must be "always", "first" or "never")";
            return false;
        }
    }
    return true;
}

}  // namespace

std::optional<PreTokenizer> readPreTokenizer(const json& j, const std::string& path,
                                             std::string& error)
{
    const std::string type = typeOf(j, path, error);
    if (type.empty()) return std::nullopt;
    PreTokenizer p;
    p.stage = stageName(path, type);
    bool ok = true;
    if (type == "Split") {
        ok = readSplit(j, path, p, error);
    } else if (type == "ByteLevel") {
        ok = readByteLevel(j, path, p, error);
    } else if (type == "Metaspace") {
        ok = readMetaspace(j, path, p, error);
    } else if (type == "Sequence") {
        ok = readChildren(j, "pretokenizers", path, readPreTokenizer, p.children, error);
    } else {
        error = path + ".type: the pre-tokenizer " + inQuotes(type) + " is not supported";
        ok = false;
    }
    if (!ok) return std::nullopt;
    return p;
}

std::optional<Decoder> readDecoder(const json& j, const std::string& path, std::string& error)
{
    const std::string type = typeOf(j, path, error);
    if (type.empty()) return std::nullopt;
    Decoder d;
    if (type == "ByteLevel") {
        d.kind = Decoder::Kind::ByteLevel;
    } else if (type == "Replace") {
        d.kind = Decoder::Kind::Replace;
        if (!readInserted(j, "content", path, d.text, "a Replace may put", error))
            return std::nullopt;
        auto p =
            readPattern(j.contains("pattern") ? j["pattern"] : json(), path + ".pattern", error);
        if (!p) return std::nullopt;
        d.pattern = std::move(*p);
    } else if (type == "ByteFallback") {
        d.kind = Decoder::Kind::ByteFallback;
    } else if (type == "Fuse") {
        d.kind = Decoder::Kind::Fuse;
    } else if (type == "Strip") {
        d.kind = Decoder::Kind::Strip;
        if (!readString(j, "content", path, d.text, error)) return std::nullopt;
        for (auto [key, out] : {std::pair{"start", &d.start}, std::pair{"stop", &d.stop}}) {
            const auto it = j.find(key);
            if (it == j.end() || !it->is_number_unsigned() || it->get<std::uint64_t>() > 1024u) {
                error = path + "." + key + ": must be a count from 0 to 1024";
                return std::nullopt;
            }
            *out = static_cast<int>(it->get<std::uint64_t>());
        }
    } else if (type == "Metaspace") {
        d.kind = Decoder::Kind::Metaspace;
        if (!readString(j, "replacement", path, d.text, error)) return std::nullopt;
        if (const auto it = j.find("prepend_scheme"); it != j.end() && it->is_string())
            d.prependFirst = it->get<std::string>() != "never";
        else if (!readBool(j, "add_prefix_space", path, d.prependFirst, error))
            return std::nullopt;
    } else if (type == "Sequence") {
        if (!readChildren(j, "decoders", path, readDecoder, d.children, error)) return std::nullopt;
    } else {
        error = path + ".type: the decoder " + inQuotes(type) + " is not supported";
        return std::nullopt;
    }
    return d;
}

}  // namespace attn::tok::hf
