// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_pipeline.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/tokenize/gpt2_tokenizer.h"
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

std::string replaceAll(const std::string& text, const Pattern& pattern, const std::string& content)
{
    std::string out;
    std::size_t at = 0;
    for (const auto& [from, to] : pattern.findAll(text)) {
        out.append(text, at, from - at);
        out += content;
        at = to;
    }
    out.append(text, at, std::string::npos);
    return out;
}

using Range = std::pair<std::size_t, std::size_t>;

// Hugging Face's NormalizedString::split: the text cut into matches and the parts between them,
// then joined or dropped by the behaviour. Empty pieces are dropped.
std::vector<std::string> splitBy(const std::string& text, const Pattern& pattern,
                                 PreTokenizer::Behavior behavior, bool invert)
{
    std::vector<std::pair<Range, bool>> parts;
    std::size_t prev = 0;
    for (const auto& [from, to] : pattern.findAll(text)) {
        if (prev != from) parts.push_back({{prev, from}, invert});
        parts.push_back({{from, to}, !invert});
        prev = to;
    }
    if (prev != text.size()) parts.push_back({{prev, text.size()}, invert});

    using B = PreTokenizer::Behavior;
    std::vector<Range> kept;
    bool previousMatch = false;
    switch (behavior) {
    case B::Removed:
        for (const auto& [r, isMatch] : parts)
            if (!isMatch) kept.push_back(r);
        break;
    case B::Isolated:
        for (const auto& [r, isMatch] : parts) kept.push_back(r);
        break;
    case B::MergedWithPrevious:
        for (const auto& [r, isMatch] : parts) {
            if (isMatch && !previousMatch && !kept.empty())
                kept.back().second = r.second;
            else
                kept.push_back(r);
            previousMatch = isMatch;
        }
        break;
    case B::MergedWithNext:
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
            if (it->second && !previousMatch && !kept.empty())
                kept.back().first = it->first.first;
            else
                kept.push_back(it->first);
            previousMatch = it->second;
        }
        std::reverse(kept.begin(), kept.end());
        break;
    case B::Contiguous:
        for (const auto& [r, isMatch] : parts) {
            if (isMatch == previousMatch && !kept.empty())
                kept.back().second = r.second;
            else
                kept.push_back(r);
            previousMatch = isMatch;
        }
        break;
    }
    std::vector<std::string> out;
    for (const auto& [from, to] : kept)
        if (to > from) out.push_back(text.substr(from, to - from));
    return out;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> Pattern::findAll(std::string_view text) const
{
    if (regex) return regex->findAll(text);
    std::vector<std::pair<std::size_t, std::size_t>> out;
    if (literal.empty()) return out;
    for (std::size_t at = text.find(literal); at != std::string_view::npos;
         at = text.find(literal, at + literal.size()))
        out.emplace_back(at, at + literal.size());
    return out;
}

std::string byteLevelEncode(std::string_view bytes)
{
    std::string out;
    for (const char c : bytes)
        unicode::appendUtf8(out, Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(c)));
    return out;
}

int byteLevelDecodeChar(char32_t cp)
{
    static const auto inverse = [] {
        std::vector<int> table(0x200, -1);
        for (int b = 0; b < 256; ++b)
            table[Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b))] = b;
        return table;
    }();
    return cp < inverse.size() ? inverse[cp] : -1;
}

// ---- normalizers ----------------------------------------------------------------------------

std::string Normalizer::apply(std::string s) const
{
    switch (kind) {
    case Kind::Nfc: return unicode::encodeUtf8(unicode::nfc(unicode::decodeUtf8(s)));
    case Kind::Nfd: return unicode::encodeUtf8(unicode::nfd(unicode::decodeUtf8(s)));
    case Kind::Prepend: return s.empty() ? s : text + s;
    case Kind::Replace: return replaceAll(s, pattern, text);
    case Kind::Sequence:
        for (const auto& child : children) s = child.apply(std::move(s));
        return s;
    }
    return s;
}

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
    if (type == "NFC") {
        n.kind = Normalizer::Kind::Nfc;
    } else if (type == "NFD") {
        n.kind = Normalizer::Kind::Nfd;
    } else if (type == "Prepend") {
        n.kind = Normalizer::Kind::Prepend;
        if (!readString(j, "prepend", path, n.text, error)) return std::nullopt;
    } else if (type == "Replace") {
        n.kind = Normalizer::Kind::Replace;
        if (!readString(j, "content", path, n.text, error)) return std::nullopt;
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

// ---- pre-tokenizers -------------------------------------------------------------------------

void PreTokenizer::applyInPlace(std::vector<std::string>& pieces, bool first) const
{
    if (kind == Kind::Sequence) {
        for (const auto& child : children) child.applyInPlace(pieces, first);
        return;
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        for (auto& piece : apply(pieces[i], first && i == 0)) out.push_back(std::move(piece));
    }
    pieces = std::move(out);
}

std::vector<std::string> PreTokenizer::apply(const std::string& text, bool first) const
{
    switch (kind) {
    case Kind::Split: return splitBy(text, pattern, behavior, invert);
    case Kind::ByteLevel: {
        std::string s = text;
        if (addPrefixSpace && !s.starts_with(' ')) s.insert(0, 1, ' ');
        std::vector<std::string> pieces =
            useRegex ? splitBy(s, pattern, Behavior::Isolated, false) : std::vector<std::string>{s};
        for (auto& p : pieces) p = byteLevelEncode(p);
        return pieces;
    }
    case Kind::Metaspace: {
        Pattern space;
        space.literal = " ";
        std::string s = replaceAll(text, space, replacement);
        const bool prependHere = prepend == Prepend::Always || (prepend == Prepend::First && first);
        if (prependHere && !s.starts_with(replacement)) s.insert(0, replacement);
        if (!split) return {s};
        Pattern marker;
        marker.literal = replacement;
        return splitBy(s, marker, Behavior::MergedWithNext, false);
    }
    case Kind::Sequence: {
        std::vector<std::string> pieces{text};
        applyInPlace(pieces, first);
        return pieces;
    }
    }
    return {text};
}

std::optional<PreTokenizer> readPreTokenizer(const json& j, const std::string& path,
                                             std::string& error)
{
    const std::string type = typeOf(j, path, error);
    if (type.empty()) return std::nullopt;
    PreTokenizer p;
    if (type == "Split") {
        p.kind = PreTokenizer::Kind::Split;
        auto pattern =
            readPattern(j.contains("pattern") ? j["pattern"] : json(), path + ".pattern", error);
        if (!pattern) return std::nullopt;
        p.pattern = std::move(*pattern);
        std::string behavior;
        if (!readString(j, "behavior", path, behavior, error)) return std::nullopt;
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
            return std::nullopt;
        }
        if (!readBool(j, "invert", path, p.invert, error)) return std::nullopt;
    } else if (type == "ByteLevel") {
        p.kind = PreTokenizer::Kind::ByteLevel;
        p.addPrefixSpace = true;  // the defaults of Hugging Face's ByteLevel
        p.useRegex = true;
        if (!readBool(j, "add_prefix_space", path, p.addPrefixSpace, error) ||
            !readBool(j, "use_regex", path, p.useRegex, error))
            return std::nullopt;
        std::string why;
        p.pattern.regex = HfRegex::compile(kGpt2Pattern, why);
        if (!p.pattern.regex) {
            error = path + ": GPT-2's pattern does not compile: " + why;
            return std::nullopt;
        }
    } else if (type == "Metaspace") {
        p.kind = PreTokenizer::Kind::Metaspace;
        if (!readString(j, "replacement", path, p.replacement, error)) return std::nullopt;
        if (unicode::decodeUtf8(p.replacement).size() != 1) {
            error = path + ".replacement: must be one character";
            return std::nullopt;
        }
        if (!readBool(j, "split", path, p.split, error)) return std::nullopt;
        bool addPrefixSpace = true;
        if (!readBool(j, "add_prefix_space", path, addPrefixSpace, error)) return std::nullopt;
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
                return std::nullopt;
            }
        }
    } else if (type == "Sequence") {
        if (!readChildren(j, "pretokenizers", path, readPreTokenizer, p.children, error))
            return std::nullopt;
    } else {
        error = path + ".type: the pre-tokenizer " + inQuotes(type) + " is not supported";
        return std::nullopt;
    }
    return p;
}

// ---- decoders -------------------------------------------------------------------------------

namespace {

// "<0x0A>" -> 0x0A; -1 for anything else.
int byteFallbackValue(std::string_view token)
{
    if (token.size() != 6 || !token.starts_with("<0x") || token[5] != '>') return -1;
    int value = 0;
    for (std::size_t i = 3; i < 5; ++i) {
        const char c = token[i];
        int d = -1;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        if (d < 0) return -1;
        value = value * 16 + d;
    }
    return value;
}

// Bytes as text, each ill-formed byte a U+FFFD (as Rust's String::from_utf8_lossy).
std::string lossy(std::string_view bytes)
{
    return replaceBrokenUtf8(bytes);
}

std::string byteLevelBytes(std::string_view token)
{
    std::string out;
    for (const char32_t cp : unicode::decodeUtf8(token)) {
        const int b = byteLevelDecodeChar(cp);
        if (b >= 0)
            out.push_back(static_cast<char>(b));
        else
            unicode::appendUtf8(out, cp);  // not a byte character: kept as it is
    }
    return out;
}

}  // namespace

std::vector<std::string> Decoder::decode(std::vector<std::string> tokens) const
{
    switch (kind) {
    case Kind::ByteLevel: {
        std::string bytes;
        for (const auto& t : tokens) bytes += byteLevelBytes(t);
        return {lossy(bytes)};
    }
    case Kind::Replace:
        for (auto& t : tokens) t = replaceAll(t, pattern, text);
        return tokens;
    case Kind::ByteFallback: {
        // A run of byte tokens becomes its text; if the run is not valid UTF-8, every byte of
        // it becomes one U+FFFD (as Hugging Face's ByteFallback does).
        std::vector<std::string> out;
        std::string run;
        std::size_t runTokens = 0;
        const auto flush = [&] {
            if (runTokens == 0) return;
            bool invalid = false;
            unicode::decodeUtf8(run, &invalid);
            if (!invalid)
                out.push_back(run);
            else
                for (std::size_t i = 0; i < runTokens; ++i) out.push_back("\uFFFD");
            run.clear();
            runTokens = 0;
        };
        for (auto& t : tokens) {
            if (const int b = byteFallbackValue(t); b >= 0) {
                run.push_back(static_cast<char>(b));
                ++runTokens;
            } else {
                flush();
                out.push_back(std::move(t));
            }
        }
        flush();
        return out;
    }
    case Kind::Fuse: {
        std::string all;
        for (const auto& t : tokens) all += t;
        return {all};
    }
    case Kind::Strip:
        for (auto& t : tokens) {
            for (int i = 0; i < start && t.starts_with(text); ++i) t.erase(0, text.size());
            for (int i = 0; i < stop && t.ends_with(text); ++i) t.resize(t.size() - text.size());
        }
        return tokens;
    case Kind::Metaspace:
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            std::string& t = tokens[i];
            if (i == 0 && prependFirst && t.starts_with(text)) t.erase(0, text.size());
            Pattern marker;
            marker.literal = text;
            t = replaceAll(t, marker, " ");
        }
        return tokens;
    case Kind::Sequence:
        for (const auto& child : children) tokens = child.decode(std::move(tokens));
        return tokens;
    }
    return tokens;
}

std::string Decoder::tokenBytes(std::string token) const
{
    switch (kind) {
    case Kind::ByteLevel: return byteLevelBytes(token);
    case Kind::Replace: return replaceAll(token, pattern, text);
    case Kind::ByteFallback:
        if (const int b = byteFallbackValue(token); b >= 0) return std::string(1, char(b));
        return token;
    case Kind::Metaspace: {
        Pattern marker;
        marker.literal = text;
        return replaceAll(token, marker, " ");
    }
    case Kind::Fuse:
    case Kind::Strip: return token;
    case Kind::Sequence:
        for (const auto& child : children) token = child.tokenBytes(std::move(token));
        return token;
    }
    return token;
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
        if (!readString(j, "content", path, d.text, error)) return std::nullopt;
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
            if (it == j.end() || !it->is_number_unsigned() || it->get<unsigned>() > 1024u) {
                error = path + "." + key + ": must be a count from 0 to 1024";
                return std::nullopt;
            }
            *out = static_cast<int>(it->get<unsigned>());
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
