// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The regular expressions of tokenizer.json files (a Split pre-tokenizer's or a Replace
// normalizer's "Regex" pattern), compiled by Oniguruma as Hugging Face's tokenizers compiles
// them: UTF-8, Oniguruma's default syntax, no options. A pattern is never rewritten or
// recognised by hand, so Llama 3's and Qwen's (?i:'s|...), \p{L}, \p{N} and \s+(?!\S) mean
// exactly what they mean to the library the files were written for.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::tok {

class HfRegex {
public:
    // The compiled pattern, or an empty pointer with `error` set to Oniguruma's message.
    static std::shared_ptr<const HfRegex> compile(std::string_view pattern, std::string& error);
    ~HfRegex();
    HfRegex(const HfRegex&) = delete;
    HfRegex& operator=(const HfRegex&) = delete;

    // Every non-overlapping match of `text` (valid UTF-8) as [begin, end) byte offsets, left
    // to right. After an empty match the search goes on one character later, as Rust's
    // onig::Regex::find_iter does.
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> findAll(
        std::string_view text) const;

private:
    HfRegex() = default;
    void* regex_ = nullptr;  // OnigRegex; kept out of the header so callers need no onig
};

}  // namespace attn::tok
