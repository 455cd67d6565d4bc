// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_regex.h"

#include <mutex>
#include <oniguruma.h>

#include "core/tokenize/unicode.h"

namespace attn::tok {

namespace {

// onig_initialize must run once before any regex is made; later calls are harmless but not
// thread-safe, hence the once-flag.
void initOnce()
{
    static std::once_flag flag;
    std::call_once(flag, [] {
        OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
        onig_initialize(encodings, 1);
    });
}

const UChar* onigBytes(std::string_view s)
{
    return reinterpret_cast<const UChar*>(s.data());
}

}  // namespace

std::shared_ptr<const HfRegex> HfRegex::compile(std::string_view pattern, std::string& error)
{
    initOnce();
    OnigRegex regex = nullptr;
    OnigErrorInfo info;
    const int rc = onig_new(&regex, onigBytes(pattern), onigBytes(pattern) + pattern.size(),
                            ONIG_OPTION_NONE, ONIG_ENCODING_UTF8, ONIG_SYNTAX_DEFAULT, &info);
    if (rc != ONIG_NORMAL) {
        UChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
        onig_error_code_to_str(message, rc, &info);
        error = reinterpret_cast<const char*>(message);
        return nullptr;
    }
    std::shared_ptr<HfRegex> out(new HfRegex());
    out->regex_ = regex;
    return out;
}

HfRegex::~HfRegex()
{
    if (regex_) onig_free(static_cast<OnigRegex>(regex_));
}

std::vector<std::pair<std::size_t, std::size_t>> HfRegex::findAll(std::string_view text) const
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    auto* regex = static_cast<OnigRegex>(regex_);
    OnigRegion* region = onig_region_new();
    const UChar* begin = onigBytes(text);
    const UChar* end = begin + text.size();
    std::size_t at = 0;
    while (at <= text.size()) {
        const int rc = onig_search(regex, begin, end, begin + at, end, region, ONIG_OPTION_NONE);
        if (rc < 0) break;  // ONIG_MISMATCH, or an error (a match limit): no more matches
        const auto from = static_cast<std::size_t>(region->beg[0]);
        const auto to = static_cast<std::size_t>(region->end[0]);
        out.emplace_back(from, to);
        if (to > from) {
            at = to;
        } else {
            // An empty match: step over one whole character.
            if (to >= text.size()) break;
            const std::size_t n = unicode::validSequenceLength(text, to);
            at = to + (n > 0 ? n : 1);
        }
    }
    onig_region_free(region, 1);
    return out;
}

}  // namespace attn::tok
