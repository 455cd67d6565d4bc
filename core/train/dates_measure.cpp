// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/dates_measure.h"

#include <algorithm>

namespace attn::dates {

AlignmentCounter::AlignmentCounter(long layers, long heads)
    : layers_(layers),
      heads_(heads),
      seen_(static_cast<std::size_t>(layers * heads), 0),
      aligned_(static_cast<std::size_t>(layers * heads), 0)
{
}

template <typename F>
void AlignmentCounter::add(long layer, const EncodedPair& pair, const F* weights, long T,
                           long stride)
{
    const auto S = static_cast<long>(pair.source.size());
    const long rows = std::min(T, static_cast<long>(pair.labels.size()));
    for (long h = 0; h < heads_; ++h) {
        const auto cell = static_cast<std::size_t>(layer * heads_ + h);
        for (long t = 0; t < rows; ++t) {
            const DateField field = pair.labelFields[static_cast<std::size_t>(t)];
            if (field == DateField::None) continue;
            const F* row = weights + (h * T + t) * stride;
            const long best = std::max_element(row, row + S) - row;
            ++seen_[cell];
            if (pair.sourceFields[static_cast<std::size_t>(best)] == field) ++aligned_[cell];
        }
    }
}

template void AlignmentCounter::add(long, const EncodedPair&, const double*, long, long);
template void AlignmentCounter::add(long, const EncodedPair&, const float*, long, long);

std::vector<std::vector<double>> AlignmentCounter::scores() const
{
    std::vector<std::vector<double>> out(static_cast<std::size_t>(layers_));
    for (long l = 0; l < layers_; ++l)
        for (long h = 0; h < heads_; ++h) {
            const auto cell = static_cast<std::size_t>(l * heads_ + h);
            out[static_cast<std::size_t>(l)].push_back(seen_[cell] == 0
                                                           ? 0.0
                                                           : static_cast<double>(aligned_[cell]) /
                                                                 static_cast<double>(seen_[cell]));
        }
    return out;
}

Alignment summarise(std::vector<std::vector<double>> scores)
{
    Alignment a;
    a.heads = std::move(scores);
    a.best = -1.0;
    for (std::size_t l = 0; l < a.heads.size(); ++l)
        for (std::size_t h = 0; h < a.heads[l].size(); ++h)
            if (a.heads[l][h] > a.best) {
                a.best = a.heads[l][h];
                a.bestLayer = static_cast<long>(l);
                a.bestHead = static_cast<long>(h);
            }
    a.best = std::max(a.best, 0.0);
    return a;
}

Alignment trainerAlignment(marian::Trainer& trainer, const std::vector<EncodedPair>& pairs, int pad)
{
    const marian::Config& c = trainer.parameters().config;
    std::vector<const EncodedPair*> refs;
    for (const EncodedPair& p : pairs) refs.push_back(&p);
    const BatchData b = makeBatch(refs, pad);
    AlignmentCounter counter(c.decoderLayers, c.heads);
    double loss = 0.0;
    if (pairs.empty() || !trainer.forward(b.batch(), loss).ok()) return summarise(counter.scores());
    for (long l = 0; l < c.decoderLayers; ++l) {
        const std::vector<double> cross = trainer.crossAttention(static_cast<int>(l));
        const long perPair = c.heads * b.T * b.S;
        for (std::size_t i = 0; i < pairs.size(); ++i)
            counter.add(l, pairs[i], cross.data() + static_cast<long>(i) * perPair, b.T, b.S);
    }
    return summarise(counter.scores());
}

namespace {

// One chunk's greedy translations: the decoder re-reads its whole output at every length.
void greedyChunk(marian::Trainer& trainer, const std::vector<const EncodedPair*>& refs, int pad,
                 int eos, long maxLength, std::vector<std::vector<int>>& out)
{
    BatchData b = makeBatch(refs, pad);
    const long V = trainer.parameters().config.vocab;
    std::vector<std::vector<int>> written(refs.size());
    std::vector<bool> done(refs.size(), false);
    for (long T = 1; T <= maxLength; ++T) {
        b.T = T;
        b.input.assign(static_cast<std::size_t>(b.B * T), pad);
        b.targets.assign(static_cast<std::size_t>(b.B * T), 0);
        for (std::size_t i = 0; i < refs.size(); ++i)
            for (std::size_t t = 0; t < written[i].size(); ++t)
                b.input[i * static_cast<std::size_t>(T) + t + 1] = written[i][t];
        double loss = 0.0;
        if (!trainer.forward(b.batch(), loss).ok()) break;
        const std::vector<double> logits = trainer.logits();
        bool all = true;
        for (std::size_t i = 0; i < refs.size(); ++i) {
            if (done[i]) continue;
            const double* row = logits.data() + (static_cast<long>(i) * T + T - 1) * V;
            const int next = static_cast<int>(std::max_element(row, row + V) - row);
            written[i].push_back(next);
            done[i] = next == eos;
            all = all && done[i];
        }
        if (all) break;
    }
    for (auto& w : written) out.push_back(std::move(w));
}

}  // namespace

std::vector<std::vector<int>> trainerGreedy(marian::Trainer& trainer,
                                            const std::vector<EncodedPair>& pairs, int pad, int eos,
                                            long maxLength, long chunk)
{
    std::vector<std::vector<int>> out;
    for (std::size_t first = 0; first < pairs.size(); first += static_cast<std::size_t>(chunk)) {
        std::vector<const EncodedPair*> refs;
        for (std::size_t i = first; i < std::min(pairs.size(), first + chunk); ++i)
            refs.push_back(&pairs[i]);
        greedyChunk(trainer, refs, pad, eos, maxLength, out);
    }
    return out;
}

double exactMatch(const std::vector<EncodedPair>& pairs,
                  const std::vector<std::vector<int>>& translations)
{
    if (pairs.empty()) return 0.0;
    long right = 0;
    for (std::size_t i = 0; i < pairs.size() && i < translations.size(); ++i)
        if (translations[i] == pairs[i].labels) ++right;
    return static_cast<double>(right) / static_cast<double>(pairs.size());
}

std::vector<EncodedPair> heldOutEncoded(const PairEncoder& encoder, std::uint64_t seed, long count,
                                        DateForm form)
{
    std::vector<EncodedPair> out;
    for (const DatePair& p : heldOutPairs(seed, count, form)) {
        EncodedPair e;
        if (encoder.encode(p, e).ok()) out.push_back(std::move(e));
    }
    return out;
}

std::vector<EncodedPair> heldOutMixed(const PairEncoder& encoder, std::uint64_t seed, long count)
{
    std::vector<EncodedPair> out;
    long i = 0;
    for (const DatePair& p : heldOutPairs(seed, count, DateForm::Arabic)) {
        EncodedPair e;
        if (encoder.encode(datePair(p.date, static_cast<DateForm>(i++ % kForms)), e).ok())
            out.push_back(std::move(e));
    }
    return out;
}

}  // namespace attn::dates
