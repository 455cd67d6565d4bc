// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The phase change of Olsson et al. (2022): the loss and the induction score moving together.
// Two layers trained on repeats sit at chance for a while, then within a few hundred steps the
// loss drops and an induction head appears; one layer has no such step. Found in the measures
// of a run (gpt2_run.h), as they arrive, so that a window can mark it when it happens.

#include <vector>

#include "core/train/gpt2_run.h"

namespace attn::gpt2 {

struct PhaseChange {
    long step = -1;         // the measure where both moved; -1: none yet
    long fromStep = 0;      // the measure before it
    double lossBefore = 0;  // the mean training loss of the steps up to each measure
    double lossAfter = 0;
    double inductionBefore = 0;  // the best head's induction score at each measure
    double inductionAfter = 0;
    int layer = -1, head = -1;  // the best head at `step`
    [[nodiscard]] bool found() const { return step >= 0; }
};

// Both must move by at least these amounts per 100 steps between two measures, and the best
// induction score must reach kPhaseInductionFloor. The built-in induction model moves by
// 0.16 and 0.28 in its step (1000 -> 1100); random letters' scores wander by about 0.01 and
// the loss of one layer falls by less than 0.02 per 100 steps after the first few hundred.
constexpr double kPhaseInductionRise = 0.08;
constexpr double kPhaseLossFall = 0.08;
constexpr double kPhaseInductionFloor = 0.1;

// The mean of the (at most `window`) losses of the steps up to and including `step` (from 1).
double meanLossUpTo(const std::vector<double>& losses, long step, long window);

// The first measure at which the phase change happened, if it has.
PhaseChange findPhaseChange(const std::vector<Measure>& measures,
                            const std::vector<double>& losses);

}  // namespace attn::gpt2
