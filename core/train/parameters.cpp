// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/parameters.h"

namespace attn {

namespace {

// Calls visit(parameter, gradient or nullptr) for every learned block, in the fixed order.
template <typename Input, typename Visit>
void forEachBlock(Input& input, const Trainable& which, const GradientsT<double>* grads,
                  Visit&& visit)
{
    const bool shared = input.sharedProjections;
    const bool additive = input.score == ScoreFunction::Additive && which.additive;
    for (std::size_t h = 0; h < input.heads.size(); ++h) {
        auto& p = input.heads[h];
        const HeadGradientsT<double>* g = grads != nullptr ? &grads->heads[h] : nullptr;
        if (which.queries) visit(p.W_Q, g ? &g->W_Q : nullptr);
        if (which.keys && !shared) visit(p.W_K, g ? &g->W_K : nullptr);
        if (which.values && !shared) visit(p.W_V, g ? &g->W_V : nullptr);
        if (which.biases) {
            if (p.b_Q.size() != 0 && which.queries) visit(p.b_Q, g ? &g->b_Q : nullptr);
            if (p.b_K.size() != 0 && which.keys && !shared) visit(p.b_K, g ? &g->b_K : nullptr);
            if (p.b_V.size() != 0 && which.values && !shared) visit(p.b_V, g ? &g->b_V : nullptr);
        }
        if (additive) {
            visit(p.additive.W_a, g ? &g->W_a : nullptr);
            visit(p.additive.U_a, g ? &g->U_a : nullptr);
            visit(p.additive.v, g ? &g->v : nullptr);
        }
    }
    if (which.output && input.W_O.size() != 0) visit(input.W_O, grads ? &grads->W_O : nullptr);
}

}  // namespace

long parameterCount(const AttentionInput& input, const Trainable& which)
{
    long count = 0;
    forEachBlock(input, which, nullptr,
                 [&](const auto& block, const auto*) { count += block.size(); });
    return count;
}

Vector gatherParameters(const AttentionInput& input, const Trainable& which)
{
    Vector out(parameterCount(input, which));
    long at = 0;
    forEachBlock(input, which, nullptr, [&](const auto& block, const auto*) {
        out.segment(at, block.size()) = Eigen::Map<const Vector>(block.data(), block.size());
        at += block.size();
    });
    return out;
}

void scatterParameters(const Vector& params, const Trainable& which, AttentionInput& input)
{
    long at = 0;
    forEachBlock(input, which, nullptr, [&](auto& block, const auto*) {
        Eigen::Map<Vector>(block.data(), block.size()) = params.segment(at, block.size());
        at += block.size();
    });
}

Vector gatherGradients(const GradientsT<double>& grads, const AttentionInput& input,
                       const Trainable& which)
{
    Vector out = Vector::Zero(parameterCount(input, which));
    long at = 0;
    forEachBlock(input, which, &grads, [&](const auto& block, const auto* grad) {
        if (grad != nullptr && grad->size() == block.size())
            out.segment(at, block.size()) = Eigen::Map<const Vector>(grad->data(), grad->size());
        at += block.size();
    });
    return out;
}

}  // namespace attn
