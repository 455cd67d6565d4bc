// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/aggregate.h"

namespace attn::model {

FloatMatrix headAverage(const LayerTrace& layer)
{
    if (layer.attention.empty()) return {};
    FloatMatrix sum = layer.attention.front();
    for (std::size_t j = 1; j < layer.attention.size(); ++j) sum += layer.attention[j];
    sum /= static_cast<float>(layer.attention.size());
    return sum;
}

PooledMap pooledHeadAverage(const LayerTrace& layer)
{
    PooledMap mean;
    if (layer.pooled.empty()) return mean;
    mean = layer.pooled.front();
    for (std::size_t j = 1; j < layer.pooled.size(); ++j) mean.cells += layer.pooled[j].cells;
    mean.cells /= static_cast<float>(layer.pooled.size());
    return mean;
}

std::vector<FloatMatrix> attentionRollout(const std::vector<FloatMatrix>& averages)
{
    std::vector<FloatMatrix> rollout;
    rollout.reserve(averages.size());
    for (const FloatMatrix& average : averages) {
        FloatMatrix a = 0.5f * average;
        a.diagonal().array() += 0.5f;
        // Each row of the average sums to 1, so a row of `a` sums to 1 as well up to rounding;
        // renormalising keeps the product a row-stochastic matrix over many layers.
        const Eigen::VectorXf sums = a.rowwise().sum();
        for (long i = 0; i < a.rows(); ++i)
            if (sums(i) > 0.0f) a.row(i) /= sums(i);
        if (rollout.empty())
            rollout.push_back(std::move(a));
        else
            rollout.push_back(a * rollout.back());
    }
    return rollout;
}

HeadWeight strongestHead(const std::vector<LayerTrace>& layers, long query, long key)
{
    HeadWeight best;
    for (std::size_t l = 0; l < layers.size(); ++l)
        for (std::size_t h = 0; h < layers[l].attention.size(); ++h) {
            const FloatMatrix& w = layers[l].attention[h];
            if (query < 0 || key < 0 || query >= w.rows() || key >= w.cols()) return {};
            if (best.layer < 0 || w(query, key) > best.weight)
                best = {static_cast<int>(l), static_cast<int>(h), w(query, key)};
        }
    return best;
}

}  // namespace attn::model
