// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/dropped.h"

#include <algorithm>

#include "core/tokenize/gpt2_tokenizer.h"

namespace attn::tok {

void DropLog::add(Span span, Dropped::Fate fate)
{
    if (span.empty()) return;
    // A character of several bytes or code points is met once per part: note it once.
    if (!entries_.empty() && entries_.back().span == span && entries_.back().fate == fate) return;
    entries_.push_back({span, fate});
}

std::vector<Dropped> DropLog::report(std::string_view input) const
{
    std::vector<Entry> sorted = entries_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.span.end < b.span.end;
    });
    std::vector<Dropped> out;
    for (const Entry& e : sorted) {
        if (!out.empty() && out.back().offset == e.span.begin &&
            out.back().length == e.span.end - e.span.begin && out.back().fate == e.fate)
            continue;
        const std::size_t offset = std::min<std::size_t>(e.span.begin, input.size());
        const std::size_t length = std::min<std::size_t>(e.span.end, input.size()) - offset;
        out.push_back({replaceBrokenUtf8(input.substr(offset, length)), offset, length, e.fate});
    }
    return out;
}

}  // namespace attn::tok
