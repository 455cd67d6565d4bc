// SPDX-License-Identifier: GPL-3.0-or-later
// Encoding with a tokenizer.json (hf_tokenizer.h): added tokens, the pipeline, BPE.
#include <algorithm>
#include <functional>

#include <queue>

#include "core/tokenize/hf_model_tables.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace attn::tok {

namespace {

bool isWordChar(char32_t cp)
{
    return cp == U'_' || unicode::isLetter(cp) || unicode::isNumber(cp);
}

}  // namespace

void HfTokenizer::splitOnAdded(std::string_view text, const Candidates& candidates,
                               std::vector<Split>& out) const
{
    if (candidates.tokens.empty()) {
        if (!text.empty()) out.push_back({0, text.size(), -1});
        return;
    }
    const auto isSpaceAt = [&text](std::size_t i, std::size_t& len) {
        len = unicode::validSequenceLength(text, i);
        return len > 0 && unicode::isWhiteSpace(unicode::decodeUtf8(text.substr(i, len)).front());
    };
    const auto charBefore = [&text](std::size_t i) {
        std::size_t b = i;
        do --b;
        while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80);
        return unicode::decodeUtf8(text.substr(b, i - b)).front();
    };

    std::size_t begin = 0;  // the start of text not yet given to `out`
    std::size_t at = 0;     // where the search goes on
    while (at < text.size()) {
        const std::pair<std::string, int>* hit = nullptr;
        if (!candidates.startsWith[static_cast<unsigned char>(text[at])]) {
            ++at;
            continue;
        }
        for (const auto& c : candidates.tokens) {
            if (text.compare(at, c.first.size(), c.first) == 0) {
                hit = &c;
                break;
            }
        }
        if (!hit) {
            ++at;
            continue;
        }
        const HfAddedToken& a = added_[addedIndexOfId_[hit->second]];
        std::size_t from = at;
        std::size_t to = at + hit->first.size();
        at = to;
        if (a.singleWord) {
            const bool wordBefore = from > 0 && isWordChar(charBefore(from));
            const bool wordAfter =
                to < text.size() && isWordChar(unicode::decodeUtf8(text.substr(to, 4)).front());
            if (wordBefore || wordAfter) continue;
        }
        if (a.lstrip) {
            while (from > begin) {
                std::size_t b = from;
                do --b;
                while (b > begin && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80);
                std::size_t len = 0;
                if (!isSpaceAt(b, len)) break;
                from = b;
            }
        }
        if (a.rstrip) {
            std::size_t len = 0;
            while (to < text.size() && isSpaceAt(to, len)) to += len;
        }
        if (from > begin) out.push_back({begin, from, -1});
        out.push_back({from, to, a.id});
        begin = to;
        at = std::max(at, to);
    }
    if (begin < text.size()) out.push_back({begin, text.size(), -1});
}

std::vector<int> HfTokenizer::symbolsOf(const AlignedText& all, std::size_t begin, std::size_t end,
                                        DropLog& log) const
{
    std::vector<int> symbols;
    int pendingUnk = 0;  // characters waiting to become the unknown token (fused)
    const auto flushUnk = [&] {
        if (pendingUnk == 0) return;
        symbols.push_back(unkId_);
        pendingUnk = 0;
    };
    const std::string_view text(all.text);
    const auto lengthAt = [&](std::size_t i) {
        const std::size_t n = unicode::validSequenceLength(text, i);
        return n == 0 ? std::size_t{1} : n;
    };
    const auto fallbackCovers = [&](std::string_view ch) {
        return byteFallback_ && std::all_of(ch.begin(), ch.end(), [&](char c) {
                   return byteIds_[static_cast<unsigned char>(c)] >= 0;
               });
    };
    for (std::size_t i = begin; i < end;) {
        // A unit: the characters that stand for one character of the text (a byte-level
        // vocabulary's characters of its bytes, a Replace's content). Without an unknown token a
        // unit is kept whole or left out whole, never some of its bytes as tokens.
        std::size_t unitEnd = i + lengthAt(i);
        while (!all.from[i].empty() && unitEnd < end && all.from[unitEnd] == all.from[i])
            unitEnd += lengthAt(unitEnd);
        bool lost = false;
        for (std::size_t k = i; k < unitEnd && unkId_ < 0 && !lost; k += lengthAt(k)) {
            const std::string_view ch = text.substr(k, lengthAt(k));
            lost = vocab_.find(ch) < 0 && !fallbackCovers(ch);
        }
        if (lost) {
            log.add(all.from[i], Dropped::Fate::Omitted);
            i = unitEnd;
            continue;
        }
        for (std::size_t k = i; k < unitEnd; k += lengthAt(k)) {
            const std::string_view ch = text.substr(k, lengthAt(k));
            if (const int id = vocab_.find(ch); id >= 0) {
                flushUnk();
                symbols.push_back(id);
            } else if (fallbackCovers(ch)) {
                flushUnk();
                for (const char c : ch) symbols.push_back(byteIds_[static_cast<unsigned char>(c)]);
            } else {
                log.add(all.from[k], Dropped::Fate::Unknown);
                if (!fuseUnk_) flushUnk();
                ++pendingUnk;
            }
        }
        i = unitEnd;
    }
    flushUnk();
    return symbols;
}

void HfTokenizer::merge(std::vector<int>& ids) const
{
    struct Symbol {
        int id;
        int prev;
        int next;
        bool alive;
    };
    const int n = static_cast<int>(ids.size());
    std::vector<Symbol> symbols(ids.size());
    for (int i = 0; i < n; ++i) symbols[i] = {ids[i], i - 1, i + 1 < n ? i + 1 : -1, true};
    struct Candidate {
        int rank;
        int pos;
        int result;
        bool operator>(const Candidate& o) const
        {
            return rank != o.rank ? rank > o.rank : pos > o.pos;
        }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    const auto consider = [&](int pos) {
        if (pos < 0 || symbols[pos].next < 0) return;
        const auto it = merges_.find(hf::pairKey(symbols[pos].id, symbols[symbols[pos].next].id));
        if (it != merges_.end()) queue.push({it->second.rank, pos, it->second.result});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i);
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol& left = symbols[top.pos];
        if (!left.alive || left.next < 0) continue;
        const auto it = merges_.find(hf::pairKey(left.id, symbols[left.next].id));
        if (it == merges_.end() || it->second.result != top.result) continue;  // stale
        Symbol& right = symbols[left.next];
        left.id = top.result;
        right.alive = false;
        left.next = right.next;
        if (left.next >= 0) symbols[left.next].prev = top.pos;
        consider(left.prev);
        consider(top.pos);
    }
    ids.clear();
    for (const Symbol& s : symbols)
        if (s.alive) ids.push_back(s.id);
}

void HfTokenizer::bpe(const AlignedText& all, std::size_t begin, std::size_t end,
                      std::vector<int>& ids, DropLog& log) const
{
    if (ignoreMerges_) {
        if (const int id = vocab_.find(std::string_view(all.text).substr(begin, end - begin));
            id >= 0) {
            ids.push_back(id);
            return;
        }
    }
    std::vector<int> symbols = symbolsOf(all, begin, end, log);
    merge(symbols);
    ids.insert(ids.end(), symbols.begin(), symbols.end());
}

// The text between two added tokens: normalized, split on the added tokens found in the
// normalized text, pre-tokenized, each piece through BPE. False when a stage refused it.
bool HfTokenizer::encodeSection(const AlignedText& section, bool& first, std::vector<int>& ids,
                                DropLog& log, StageBudget& budget) const
{
    std::optional<AlignedText> normalized;
    if (normalizer_) {
        normalized = normalizer_->apply(section, budget);
        if (!normalized) return false;
    }
    const AlignedText& text = normalized ? *normalized : section;
    std::vector<Split> parts;
    splitOnAdded(text.text, normalizedCandidates_, parts);
    for (const Split& p : parts) {
        if (p.addedId >= 0) {
            ids.push_back(p.addedId);
        } else if (preTokenizer_) {
            const auto pieces = preTokenizer_->apply(
                Pieces{text.slice(p.begin, p.end), {p.end - p.begin}}, first, budget);
            if (!pieces) return false;
            for (std::size_t i = 0; i < pieces->count(); ++i) {
                const auto [b, e] = pieces->range(i);
                bpe(pieces->all, b, e, ids, log);
            }
        } else {
            bpe(text, p.begin, p.end, ids, log);
        }
        first = false;
    }
    return true;
}

Status HfTokenizer::growthRefusal(const StageBudget& budget) const
{
    Status s = failure(
        StatusCode::TokenizerGrowth, name_, "",
        budget.stage() + " would make a text of " + std::to_string(budget.textBytes()) + " bytes " +
            std::to_string(budget.wouldReach()) + " bytes long; a stage may make " +
            std::to_string(kStageGrowth) + " times the text plus " + std::to_string(kStageSlack) +
            " bytes (" + std::to_string(budget.limit()) + ")");
    s.stage = budget.stage();
    s.value = static_cast<long>(budget.wouldReach());
    s.limit = static_cast<long>(budget.limit());
    return s;
}

Status HfTokenizer::encode(std::string_view utf8, bool addSpecialTokens, std::vector<int>& ids,
                           std::vector<Dropped>& dropped) const
{
    ids.clear();
    dropped.clear();
    const AlignedText text = alignInput(utf8);
    if (addSpecialTokens) ids = specialIds_.prefix;
    std::vector<Split> raw;
    splitOnAdded(text.text, rawCandidates_, raw);
    DropLog log;
    bool first = true;
    for (const Split& s : raw) {
        if (s.addedId >= 0) {
            ids.push_back(s.addedId);
            first = false;
            continue;
        }
        StageBudget budget(s.end - s.begin);
        if (!encodeSection(text.slice(s.begin, s.end), first, ids, log, budget)) {
            ids.clear();
            return growthRefusal(budget);
        }
    }
    if (addSpecialTokens)
        ids.insert(ids.end(), specialIds_.suffix.begin(), specialIds_.suffix.end());
    dropped = log.report(utf8);
    return Status::success();
}

std::vector<int> HfTokenizer::encode(std::string_view utf8, bool addSpecialTokens) const
{
    std::vector<int> ids;
    std::vector<Dropped> dropped;
    (void)encode(utf8, addSpecialTokens, ids, dropped);
    return ids;
}

}  // namespace attn::tok
