// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/token_display.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/tokenize/unicode.h"

namespace attn::tok {

namespace {

std::string hexCode(std::uint8_t b)
{
    char hex[8];
    std::snprintf(hex, sizeof hex, "<%02X>", b);
    return hex;
}

// One token's label and text, segment by segment. A piece of a split character is its own
// segment in the text ("它 (2/3)"); the token's whole characters between pieces form one.
struct LabelBuilder {
    std::string label;
    std::vector<std::string> segments;
    std::vector<bool> whole;  // per segment
    bool lastWasWhole = false;

    void addWhole(std::string_view shown)
    {
        label += shown;
        if (lastWasWhole)
            segments.back() += shown;
        else {
            segments.emplace_back(shown);
            whole.push_back(true);
        }
        lastWasWhole = true;
    }
    void addPiece(std::string_view shownLabel, std::string text)
    {
        label += shownLabel;
        segments.push_back(std::move(text));
        whole.push_back(false);
        lastWasWhole = false;
    }
    [[nodiscard]] std::string joined() const
    {
        // Segments apart, except a leading-space mark and the piece it stands before ("␣它 (1/2)").
        std::string out;
        for (std::size_t k = 0; k < segments.size(); ++k) {
            const bool glued = k > 0 && whole[k - 1] && segments[k - 1].ends_with("\u2423");
            if (k > 0 && !glued) out += ' ';
            out += segments[k];
        }
        return out;
    }
};

}  // namespace

std::string hexBytes(std::string_view bytes)
{
    std::string out;
    for (const char c : bytes) {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%02X", static_cast<std::uint8_t>(c));
        if (!out.empty()) out += ' ';
        out += hex;
    }
    return out;
}

std::vector<TokenDisplay> displayTokens(const std::vector<std::string>& tokenBytes)
{
    // The text's bytes in one stream, and which token each byte came from.
    std::string stream;
    std::vector<std::size_t> owner;
    std::vector<std::size_t> start;
    for (std::size_t t = 0; t < tokenBytes.size(); ++t) {
        start.push_back(stream.size());
        stream += tokenBytes[t];
        owner.insert(owner.end(), tokenBytes[t].size(), t);
    }
    std::vector<LabelBuilder> built(tokenBytes.size());
    std::vector<TokenDisplay> out(tokenBytes.size());
    for (std::size_t t = 0; t < tokenBytes.size(); ++t) out[t].bytes = hexBytes(tokenBytes[t]);

    std::size_t i = 0;
    while (i < stream.size()) {
        const std::size_t t = owner[i];
        const std::string_view own = tokenBytes[t];
        const auto b = static_cast<std::uint8_t>(stream[i]);
        const std::size_t length = unicode::validSequenceLength(stream, i);
        if (length == 0) {
            // No character: the byte as a code. A character the stream ends before completing
            // marks the token that holds its first bytes.
            if (unicode::isCutOffSequence(stream, i)) out[t].cutOff = true;
            built[t].addWhole(hexCode(b));
            ++i;
            continue;
        }
        const std::size_t last = owner[i + length - 1];
        if (last == t) {
            // A whole character of this token, shown as displayLabelForBytes() shows it.
            const bool allSpaces = own.find_first_not_of(' ') == std::string_view::npos;
            if (b == ' ' && (i == start[t] || allSpaces))
                built[t].addWhole("\u2423");
            else if (b == '\n')
                built[t].addWhole("\u21B5");
            else if (b == '\t')
                built[t].addWhole("\u21E5");
            else if (b < 0x20 || b == 0x7F)
                built[t].addWhole(hexCode(b));
            else
                built[t].addWhole(std::string_view(stream).substr(i, length));
            i += length;
            continue;
        }
        // A character split over tokens t..last: its first piece shows it, the others the
        // continuation mark; the text numbers the pieces.
        const std::string character = stream.substr(i, length);
        const std::size_t pieces = last - t + 1;
        for (std::size_t k = 0; k < pieces; ++k) {
            const std::string text =
                character + " (" + std::to_string(k + 1) + "/" + std::to_string(pieces) + ")";
            built[t + k].addPiece(k == 0 ? std::string_view(character) : kContinuationMark, text);
            out[t + k].split = true;
        }
        i += length;
    }
    for (std::size_t t = 0; t < tokenBytes.size(); ++t) {
        out[t].label = std::move(built[t].label);
        out[t].text = built[t].joined();
    }
    return out;
}

}  // namespace attn::tok
