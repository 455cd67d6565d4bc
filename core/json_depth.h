#pragma once
// How deeply a JSON text nests, found by one pass over its bytes that allocates nothing: run it
// before building a JSON tree of outside data (config.json, tokenizer files), so that a file
// nested 10^6 deep is refused at once instead of costing a tree of 10^6 levels (and a
// recursive dump() of it in an error message). Brackets inside strings do not count; the text
// is not otherwise checked (the JSON parser does that afterwards).

#include <cstddef>
#include <string_view>

namespace attn {

// Configuration and tokenizer files nest at most a handful of levels.
inline constexpr int kMaxJsonNesting = 64;

// The byte offset of the first '[' or '{' that opens level maxDepth + 1, or npos if the text
// never nests deeper than maxDepth.
inline std::size_t jsonTooDeepAt(std::string_view text, int maxDepth = kMaxJsonNesting)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

}  // namespace attn
