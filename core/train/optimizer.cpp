// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/optimizer.h"

#include <cmath>
#include <cstring>

namespace attn {

Optimizer::Optimizer(const OptimizerSettings& settings, long parameterCount)
    : settings_(settings),
      first_(Vector::Zero(parameterCount)),
      second_(settings.kind == OptimizerKind::Adam ? Vector::Zero(parameterCount) : Vector())
{
}

void Optimizer::step(Vector& params, const Vector& grad)
{
    ++steps_;
    const double lr = settings_.learningRate;
    if (settings_.kind == OptimizerKind::Sgd) {
        first_ = settings_.momentum * first_ + grad;
        params -= lr * first_;
        return;
    }
    const double b1 = settings_.beta1;
    const double b2 = settings_.beta2;
    first_ = b1 * first_ + (1.0 - b1) * grad;
    second_ = b2 * second_ + (1.0 - b2) * grad.cwiseAbs2();
    const double c1 = 1.0 - std::pow(b1, static_cast<double>(steps_));
    const double c2 = 1.0 - std::pow(b2, static_cast<double>(steps_));
    params.array() -=
        lr * (first_.array() / c1) / ((second_.array() / c2).sqrt() + settings_.epsilon);
}

bool parseOptimizerKind(const char* text, OptimizerKind& kind)
{
    if (std::strcmp(text, "adam") == 0) {
        kind = OptimizerKind::Adam;
        return true;
    }
    if (std::strcmp(text, "sgd") == 0) {
        kind = OptimizerKind::Sgd;
        return true;
    }
    return false;
}

const char* optimizerName(OptimizerKind kind)
{
    return kind == OptimizerKind::Adam ? "adam" : "sgd";
}

}  // namespace attn
