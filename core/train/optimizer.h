// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Optimisers over one flat parameter vector: SGD with momentum and Adam. Deterministic: the
// same parameters, gradients and settings give the same steps on every run.

#include "core/attention_input.h"

namespace attn {

enum class OptimizerKind { Sgd, Adam };

struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::Adam;
    double learningRate = 0.05;
    double momentum = 0.9;  // SGD: v = momentum v + g; p -= lr v
    double beta1 = 0.9;     // Adam (Kingma & Ba 2015, with bias correction)
    double beta2 = 0.999;
    double epsilon = 1e-8;
};

class Optimizer {
public:
    Optimizer(const OptimizerSettings& settings, long parameterCount);
    // One step: params -= update(grad). Sizes must equal parameterCount.
    void step(Vector& params, const Vector& grad);
    [[nodiscard]] long stepsTaken() const { return steps_; }
    [[nodiscard]] const OptimizerSettings& settings() const { return settings_; }

private:
    OptimizerSettings settings_;
    Vector first_;   // SGD: velocity; Adam: first moment
    Vector second_;  // Adam: second moment
    long steps_ = 0;
};

// Parses "adam" / "sgd"; false for anything else.
bool parseOptimizerKind(const char* text, OptimizerKind& kind);
const char* optimizerName(OptimizerKind kind);

}  // namespace attn
