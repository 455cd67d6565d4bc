// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/sampling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace attn::model {

namespace {

std::uint64_t splitmix64(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

attn::Status refuse(const char* field, const std::string& detail)
{
    return attn::failure(attn::StatusCode::BadTemperature, "", field, detail);
}

// Steps 1 and 2: the penalised logits with the bad words' last ids closed (-inf).
Eigen::VectorXd processed(const Eigen::VectorXf& logits, std::span<const int> text,
                          const SamplingSettings& settings, std::vector<int>& closed)
{
    Eigen::VectorXd l = logits.cast<double>();
    const long vocab = l.size();
    const auto inside = [vocab](int id) { return id >= 0 && id < vocab; };
    if (settings.repetitionPenalty != 1.0) {
        std::vector<int> seen(text.begin(), text.end());
        std::sort(seen.begin(), seen.end());
        seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
        for (const int id : seen) {
            if (!inside(id)) continue;
            double& v = l[id];
            v = v > 0 ? v / settings.repetitionPenalty : v * settings.repetitionPenalty;
        }
    }
    for (const std::vector<int>& words : settings.badWords) {
        const std::size_t prefix = words.size() - 1;
        if (prefix > text.size() || !inside(words.back())) continue;
        if (!std::equal(words.begin(), words.begin() + static_cast<long>(prefix),
                        text.end() - static_cast<long>(prefix)))
            continue;
        if (l[words.back()] != -std::numeric_limits<double>::infinity())
            closed.push_back(words.back());
        l[words.back()] = -std::numeric_limits<double>::infinity();
    }
    return l;
}

// Steps 4 and 5: how many of `order` (most probable first) top-k and top-p keep.
long keptCount(const Eigen::VectorXd& l, const Eigen::VectorXd& p, const std::vector<int>& order,
               const SamplingSettings& settings)
{
    const auto at = [&order](long i) { return order[static_cast<std::size_t>(i)]; };
    long kept = static_cast<long>(order.size());
    if (settings.topK > 0 && settings.topK < kept) {
        const double threshold = l[at(settings.topK - 1)];
        kept = settings.topK;
        while (kept < static_cast<long>(order.size()) && l[at(kept)] >= threshold) ++kept;
    }
    if (settings.topP < 1.0) {
        double mass = 0.0;
        for (long i = 0; i < kept; ++i) mass += p[at(i)];
        double running = 0.0;
        long reach = 0;
        while (reach < kept && running < settings.topP * mass) running += p[at(reach++)];
        kept = std::max(1L, reach);
    }
    return kept;
}

}  // namespace

attn::Status checkSampling(const SamplingSettings& s)
{
    if (!std::isfinite(s.temperature) || s.temperature < 0)
        return refuse("temperature", "the temperature must be a finite number >= 0 (0 is greedy)");
    if (s.topK < 0) return refuse("top_k", "top-k must be >= 0 (0 keeps every token)");
    if (!(s.topP > 0 && s.topP <= 1))
        return refuse("top_p", "top-p must be in (0, 1] (1 keeps every token)");
    if (!std::isfinite(s.repetitionPenalty) || s.repetitionPenalty <= 0)
        return refuse("repetition_penalty", "the repetition penalty must be a finite number > 0");
    for (const std::vector<int>& words : s.badWords)
        if (words.empty()) return refuse("bad_words_ids", "a bad-words sequence is empty");
    return {};
}

TokenRng::TokenRng(std::uint64_t seed)
{
    for (std::uint64_t& word : s_) word = splitmix64(seed);
}

std::uint64_t TokenRng::next()
{
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double TokenRng::uniform()
{
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

TokenDraw chooseToken(const Eigen::VectorXf& logits, std::span<const int> text,
                      const SamplingSettings& settings, TokenRng& rng, long rankedLimit)
{
    TokenDraw draw;
    Eigen::VectorXd l = processed(logits, text, settings, draw.closed);
    if (!std::isfinite(l.maxCoeff())) {  // every token closed: the bad words cannot all hold
        l = logits.cast<double>();
        draw.closed.clear();
    }
    const double t = settings.temperature > 0 ? settings.temperature : 1.0;
    const double top = l.maxCoeff();
    Eigen::VectorXd p = ((l.array() - top) / t).exp();
    p /= p.sum();
    // By logit, not probability: exp() may round two close logits to one probability. Ties: the
    // lower id first. Only as many as are read are put in order (a full sort of 150,000 ids
    // costs more than a small model's step).
    const auto before = [&l](int a, int b) { return l[a] > l[b] || (l[a] == l[b] && a < b); };
    std::vector<int> order(static_cast<std::size_t>(l.size()));
    std::iota(order.begin(), order.end(), 0);
    long needed = static_cast<long>(order.size());
    if (settings.temperature <= 0 || settings.topK > 0) {
        const long asked = settings.temperature <= 0 ? 1 : settings.topK;
        needed = std::min(needed, std::max(rankedLimit, asked) + 1);
    }
    std::partial_sort(order.begin(), order.begin() + needed, order.end(), before);
    // A tie at top-k's threshold past the sorted part: sort it all.
    if (needed < static_cast<long>(order.size()) && settings.temperature > 0 && settings.topK > 0 &&
        l[order[static_cast<std::size_t>(needed - 1)]] ==
            l[order[static_cast<std::size_t>(settings.topK - 1)]]) {
        std::sort(order.begin(), order.end(), before);
        needed = static_cast<long>(order.size());
    }
    order.resize(static_cast<std::size_t>(needed));
    while (!order.empty() && p[order.back()] <= 0.0) order.pop_back();

    const long kept = settings.temperature > 0 ? keptCount(l, p, order, settings) : 1;
    double keptMass = 0.0;
    for (long i = 0; i < kept; ++i) keptMass += p[order[static_cast<std::size_t>(i)]];
    for (long i = 0; i < kept; ++i)
        draw.keptProbability.push_back(p[order[static_cast<std::size_t>(i)]] / keptMass);
    long chosen = 0;
    if (settings.temperature > 0) {
        draw.greedy = false;
        draw.u = rng.uniform();
        double running = 0.0;
        chosen = kept - 1;
        for (long i = 0; i < kept; ++i) {
            running += draw.keptProbability[static_cast<std::size_t>(i)];
            if (draw.u < running) {
                chosen = i;
                break;
            }
        }
    }
    draw.id = order[static_cast<std::size_t>(chosen)];
    draw.kept = kept;
    const long listed = std::min(static_cast<long>(order.size()), std::max(rankedLimit, kept));
    for (long i = 0; i < listed; ++i) {
        const int id = order[static_cast<std::size_t>(i)];
        draw.ranked.push_back({id, p[id]});
    }
    return draw;
}

}  // namespace attn::model
