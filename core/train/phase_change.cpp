// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/phase_change.h"

#include <algorithm>

namespace attn::gpt2 {

namespace {

// Mean loss over at most this many steps: one step's loss is one batch's and wanders by about
// 0.05; fifty of them by less than 0.01.
constexpr long kLossWindow = 50;

}  // namespace

double meanLossUpTo(const std::vector<double>& losses, long step, long window)
{
    const long last = std::min<long>(step, static_cast<long>(losses.size()));
    const long first = std::max<long>(0, last - std::max<long>(1, window));
    if (last <= first) return 0.0;
    double sum = 0.0;
    for (long k = first; k < last; ++k) sum += losses[static_cast<std::size_t>(k)];
    return sum / static_cast<double>(last - first);
}

PhaseChange findPhaseChange(const std::vector<Measure>& measures, const std::vector<double>& losses)
{
    PhaseChange none;
    for (std::size_t i = 1; i < measures.size(); ++i) {
        const Measure& a = measures[i - 1];
        const Measure& b = measures[i];
        const long span = b.step - a.step;
        if (span <= 0 || a.heads.empty() || b.heads.empty()) continue;
        const double per100 = 100.0 / static_cast<double>(span);
        const long window = std::min(kLossWindow, span);
        const double lossA = meanLossUpTo(losses, a.step, window);
        const double lossB = meanLossUpTo(losses, b.step, window);
        int la = -1, ha = -1, lb = -1, hb = -1;
        bestHead(a.heads, HeadKind::Induction, la, ha);
        bestHead(b.heads, HeadKind::Induction, lb, hb);
        if (la < 0 || lb < 0) continue;
        const double indA =
            a.heads[static_cast<std::size_t>(la)][static_cast<std::size_t>(ha)].induction;
        const double indB =
            b.heads[static_cast<std::size_t>(lb)][static_cast<std::size_t>(hb)].induction;
        if (indB < kPhaseInductionFloor || (indB - indA) * per100 < kPhaseInductionRise ||
            (lossA - lossB) * per100 < kPhaseLossFall)
            continue;
        PhaseChange p;
        p.step = b.step;
        p.fromStep = a.step;
        p.lossBefore = lossA;
        p.lossAfter = lossB;
        p.inductionBefore = indA;
        p.inductionAfter = indB;
        p.layer = lb;
        p.head = hb;
        return p;
    }
    return none;
}

}  // namespace attn::gpt2
