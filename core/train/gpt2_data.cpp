// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/gpt2_data.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace attn::gpt2 {

namespace {

// Uniform in [lo, hi] (hi >= lo).
long uniformIn(Rng& rng, long lo, long hi)
{
    const auto span = static_cast<double>(hi - lo + 1);
    return lo + std::min(hi - lo, static_cast<long>(rng.uniform() * span));
}

int letter(Rng& rng)
{
    return static_cast<int>(uniformIn(rng, 0, kLetters - 1));
}

// One training sequence of `length` letters.
void inductionSequence(Rng& rng, long length, const InductionMix& mix, int* out)
{
    for (long i = 0; i < length; ++i) out[i] = letter(rng);
    const bool distinct = rng.uniform() < mix.distinctShare;
    // At least one copy must fit, and a distinct segment has at most 26 letters.
    const long kMax =
        std::max(1L, std::min({mix.kMax, length / 2, distinct ? long{kLetters} : length}));
    const long k = uniformIn(rng, std::min(mix.kMin, kMax), kMax);
    const long repeats = std::min(uniformIn(rng, 1, std::max(1L, mix.maxRepeats)), length / k - 1);
    const long start = uniformIn(rng, 0, length - (repeats + 1) * k);
    if (distinct) {
        // The first k of a Fisher-Yates shuffle of the alphabet.
        int letters[kLetters];
        for (int i = 0; i < kLetters; ++i) letters[i] = i;
        for (long i = 0; i < k; ++i) {
            const long j = uniformIn(rng, i, kLetters - 1);
            std::swap(letters[i], letters[j]);
            out[start + i] = letters[i];
        }
    }
    for (long r = 1; r <= repeats; ++r)
        for (long i = 0; i < k; ++i) out[start + r * k + i] = out[start + i];
}

std::string byteLevel(std::string_view bytes)
{
    std::string out;
    for (unsigned char b : bytes)
        tok::unicode::appendUtf8(out, tok::Gpt2Tokenizer::byteToUnicode(b));
    return out;
}

}  // namespace

void inductionBatch(Rng& rng, long B, long T, const InductionMix& mix, std::vector<int>& tokens,
                    std::vector<int>& targets)
{
    tokens.resize(static_cast<std::size_t>(B * T));
    targets.resize(tokens.size());
    std::vector<int> sequence(static_cast<std::size_t>(T + 1));
    for (long b = 0; b < B; ++b) {
        inductionSequence(rng, T + 1, mix, sequence.data());
        std::copy_n(sequence.begin(), T, tokens.begin() + b * T);
        std::copy_n(sequence.begin() + 1, T, targets.begin() + b * T);
    }
}

CopyProbe makeCopyProbe(long m, long count, std::uint64_t seed)
{
    CopyProbe p;
    p.count = count;
    p.T = 2 * m;
    const auto size = static_cast<std::size_t>(count * p.T);
    p.tokens.resize(size);
    p.targets.resize(size);
    p.scored.assign(size, 0);
    Rng rng(seed);
    std::vector<int> x(static_cast<std::size_t>(p.T + 1));
    for (long b = 0; b < count; ++b) {
        for (int& v : x) v = letter(rng);
        // A segment and its repeat fit in 2m letters whatever m is (k <= m); from m = 8 on,
        // k is in [8, 3m/4] as the header says.
        const long kMin = std::min(8L, m);
        const long k = uniformIn(rng, kMin, std::max(kMin, std::min(m, 3 * m / 4)));
        const long s = uniformIn(rng, 0, std::max(0L, p.T - 2 * k));
        for (long i = 0; i < k; ++i)
            x[static_cast<std::size_t>(s + k + i)] = x[static_cast<std::size_t>(s + i)];
        int* tokens = p.tokens.data() + b * p.T;
        int* targets = p.targets.data() + b * p.T;
        std::copy_n(x.begin(), p.T, tokens);
        std::copy_n(x.begin() + 1, p.T, targets);
        // Letter j of the repeat (at s + k + j) is predicted at s + k + j - 1.
        for (long j = 1; j < k; ++j)
            p.scored[static_cast<std::size_t>(b * p.T + s + k + j - 1)] = 1;
    }
    return p;
}

void countCopyHits(const CopyProbe& probe, long first, long rows, std::span<const double> logits,
                   long V, long& hits, long& scoredCount)
{
    for (long b = 0; b < rows; ++b) {
        for (long t = 0; t < probe.T; ++t) {
            const auto at = static_cast<std::size_t>((first + b) * probe.T + t);
            if (!probe.scored[at]) continue;
            const double* row = logits.data() + (b * probe.T + t) * V;
            const long best = std::max_element(row, row + V) - row;
            ++scoredCount;
            if (best == probe.targets[at]) ++hits;
        }
    }
}

Status buildCharVocabulary(std::string_view utf8, const std::string& field, CharVocabulary& out)
{
    std::map<std::string, long> counts;  // character bytes -> count
    for (std::size_t i = 0; i < utf8.size();) {
        const std::size_t n = tok::unicode::validSequenceLength(utf8, i);
        if (n == 0) {
            Status s = failure(StatusCode::TokenizerSyntax, "", field,
                               "is not valid UTF-8 at byte " + std::to_string(i));
            s.value = static_cast<long>(i);
            return s;
        }
        ++counts[std::string(utf8.substr(i, n))];
        i += n;
    }
    if (counts.empty()) return failure(StatusCode::EmptyInput, "", field, "holds no characters");
    std::vector<std::pair<std::string, long>> order(counts.begin(), counts.end());
    // By decreasing count; equal counts keep the map's byte order, which for UTF-8 is the
    // code-point order.
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    CharVocabulary v;
    std::set<std::string> have;
    for (const auto& [bytes, n] : order) {
        v.pieces.push_back(byteLevel(bytes));
        have.insert(bytes);
    }
    v.characters = static_cast<long>(v.pieces.size());
    // The merges, each character's built left to right from its first byte; every string a
    // merge joins or makes must be in the vocabulary (Hugging Face's tokenizers checks).
    std::set<std::string> merged;
    for (const auto& [bytes, n] : order) {
        for (std::size_t len = 1; len < bytes.size(); ++len) {
            const std::string left = bytes.substr(0, len);
            const std::string right = bytes.substr(len, 1);
            for (const std::string& part : {left, right}) {
                if (have.insert(part).second) v.pieces.push_back(byteLevel(part));
            }
            const std::string merge = byteLevel(left) + ' ' + byteLevel(right);
            if (merged.insert(merge).second) v.merges.push_back(merge);
        }
    }
    out = std::move(v);
    return Status::success();
}

std::string vocabJson(const CharVocabulary& vocab)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (std::size_t id = 0; id < vocab.pieces.size(); ++id) j[vocab.pieces[id]] = id;
    return j.dump() + "\n";
}

std::string mergesText(const CharVocabulary& vocab)
{
    std::string out = "#version: 0.2\n";
    for (const std::string& m : vocab.merges) out += m + '\n';
    return out;
}

std::vector<int> encodeCharacters(const CharVocabulary& vocab, std::string_view utf8)
{
    std::map<std::string, int> ids;
    for (long id = 0; id < vocab.characters; ++id)
        ids[vocab.pieces[static_cast<std::size_t>(id)]] = static_cast<int>(id);
    std::vector<int> out;
    for (std::size_t i = 0; i < utf8.size();) {
        const std::size_t n = std::max<std::size_t>(1, tok::unicode::validSequenceLength(utf8, i));
        const auto it = ids.find(byteLevel(utf8.substr(i, n)));
        out.push_back(it == ids.end() ? -1 : it->second);
        i += n;
    }
    return out;
}

void corpusBatch(Rng& rng, std::span<const int> ids, long B, long T, std::vector<int>& tokens,
                 std::vector<int>& targets)
{
    tokens.resize(static_cast<std::size_t>(B * T));
    targets.resize(tokens.size());
    const long last = static_cast<long>(ids.size()) - T - 1;
    for (long b = 0; b < B; ++b) {
        const long start = uniformIn(rng, 0, std::max(0L, last));
        std::copy_n(ids.begin() + start, T, tokens.begin() + b * T);
        std::copy_n(ids.begin() + start + 1, T, targets.begin() + b * T);
    }
}

}  // namespace attn::gpt2
