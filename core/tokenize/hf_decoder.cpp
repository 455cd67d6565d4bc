// SPDX-License-Identifier: GPL-3.0-or-later
// The decoders of a tokenizer.json (hf_pipeline.h): tokens back to text, for display.
#include <algorithm>
#include <cmath>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_pipeline.h"
#include "core/tokenize/unicode.h"

namespace attn::tok::hf {

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

double Decoder::worstGrowth() const
{
    switch (kind) {
    case Kind::Replace: {
        const double content = static_cast<double>(text.size());
        // A regex may match the empty string before every byte and after the last: at worst
        // a byte and a content for each byte, and one more content.
        if (pattern.regex) return 1.0 + 2.0 * content;
        if (pattern.literal.empty()) return 1.0;  // never matches
        return std::max(1.0, std::ceil(content / static_cast<double>(pattern.literal.size())));
    }
    case Kind::Sequence: {
        double growth = 1.0;
        for (const auto& child : children) growth *= child.worstGrowth();
        return growth;
    }
    default: return 1.0;  // ByteLevel, ByteFallback, Metaspace, Fuse, Strip never lengthen
    }
}

}  // namespace attn::tok::hf
