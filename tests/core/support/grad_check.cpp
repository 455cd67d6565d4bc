// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/grad_check.h"

#include <algorithm>

namespace attn::test {

namespace {

template <typename T>
T linearTerms(const AttentionResultT<T>& r, const Objective& o)
{
    T sum = 0;
    for (std::size_t h = 0; h < r.heads.size(); ++h) {
        if (h < o.onWeights.size() && o.onWeights[h].size() != 0)
            sum += (r.heads[h].weights.array() * o.onWeights[h].cast<T>().array()).sum();
        if (h < o.onScaled.size() && o.onScaled[h].size() != 0)
            sum += (r.heads[h].scaled.array() * o.onScaled[h].cast<T>().array()).sum();
    }
    return sum;
}

double frobenius(const double* a, long size)
{
    double s = 0;
    for (long k = 0; k < size; ++k) s += a[k] * a[k];
    return std::sqrt(s);
}

double distance(const double* a, const double* b, long size)
{
    double s = 0;
    for (long k = 0; k < size; ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(s);
}

double relative(double diff, double na, double nb)
{
    const double scale = std::max(na, nb);
    return scale == 0 ? 0 : diff / scale;
}

}  // namespace

double objectiveValue(const AttentionInput& input, const Objective& objective)
{
    AttentionResult r;
    if (!computeAttention<double>(input, r).ok()) return NAN;
    LossValueT<double> v;
    if (!evaluateLoss<double>(input, r, objective.spec, v, nullptr).ok()) return NAN;
    return v.total + linearTerms(r, objective);
}

template <typename T>
bool objectiveGradients(const AttentionInput& input, const Objective& objective,
                        GradientsT<T>& grads, T* value)
{
    AttentionResultT<T> r;
    if (!computeAttention<T>(input, r).ok()) return false;
    LossValueT<T> v;
    CotangentT<T> seed;
    if (!evaluateLoss<T>(input, r, objective.spec, v, &seed).ok()) return false;
    const long n = input.queryCount();
    const long m = input.keyCount();
    const std::size_t h = input.heads.size();
    seed.weights.assign(h, MatrixT<T>());
    if (seed.scaled.empty()) seed.scaled.assign(h, MatrixT<T>::Zero(n, m));
    for (std::size_t k = 0; k < h; ++k) {
        if (k < objective.onWeights.size() && objective.onWeights[k].size() != 0)
            seed.weights[k] = objective.onWeights[k].cast<T>();
        if (k < objective.onScaled.size() && objective.onScaled[k].size() != 0)
            seed.scaled[k] += objective.onScaled[k].cast<T>();
    }
    if (value != nullptr) *value = v.total + linearTerms(r, objective);
    BackwardOptions options;
    options.embeddings = true;
    return backward<T>(input, r, seed, grads, options).ok();
}

template bool objectiveGradients<double>(const AttentionInput&, const Objective&,
                                         GradientsT<double>&, double*);
template bool objectiveGradients<float>(const AttentionInput&, const Objective&, GradientsT<float>&,
                                        float*);

std::vector<ParamView> parameterViews(AttentionInput& in, const GradientsT<double>& g)
{
    std::vector<ParamView> views;
    auto add = [&views](const std::string& name, auto& value, const auto& grad) {
        if (value.size() == 0) return;
        views.push_back({name, value.data(), grad.size() == value.size() ? grad.data() : nullptr,
                         value.size()});
    };
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        HeadParams& p = in.heads[h];
        const HeadGradientsT<double>& hg = g.heads.at(h);
        const std::string at = "heads[" + std::to_string(h) + "].";
        add(at + "W_Q", p.W_Q, hg.W_Q);
        add(at + "W_K", p.W_K, hg.W_K);
        add(at + "W_V", p.W_V, hg.W_V);
        add(at + "b_Q", p.b_Q, hg.b_Q);
        add(at + "b_K", p.b_K, hg.b_K);
        add(at + "b_V", p.b_V, hg.b_V);
        if (in.score == ScoreFunction::Additive) {
            add(at + "W_a", p.additive.W_a, hg.W_a);
            add(at + "U_a", p.additive.U_a, hg.U_a);
            add(at + "v", p.additive.v, hg.v);
        }
    }
    add("W_O", in.W_O, g.W_O);
    add("X", in.X, g.X);
    if (in.mode == Mode::Cross) add("Y", in.Y, g.Y);
    return views;
}

FdReport finiteDifferenceCheck(const AttentionInput& input, const Objective& objective,
                               const GradientsT<double>& grads)
{
    constexpr double kStep = 1e-3;
    AttentionInput in = input;
    FdReport report;
    report.value = objectiveValue(in, objective);
    auto estimate = [&](double* x, double h) {
        const double x0 = *x;
        auto at = [&](double dx) {
            *x = x0 + dx;
            return objectiveValue(in, objective);
        };
        const double d1 = at(h) - at(-h);
        const double d2 = at(2 * h) - at(-2 * h);
        *x = x0;
        return (8 * d1 - d2) / (12 * h);
    };
    for (const ParamView& view : parameterViews(in, grads)) {
        MatrixCheck c;
        c.name = view.name;
        if (view.grad == nullptr) {
            c.relError = INFINITY;  // the gradient is missing or has the wrong size
        } else {
            std::vector<double> fd(static_cast<std::size_t>(view.size));
            std::vector<double> fdHalf(fd.size());
            for (long k = 0; k < view.size; ++k) {
                fd[static_cast<std::size_t>(k)] = estimate(view.value + k, kStep);
                fdHalf[static_cast<std::size_t>(k)] = estimate(view.value + k, kStep / 2);
            }
            c.norm = frobenius(fd.data(), view.size);
            const double gNorm = frobenius(view.grad, view.size);
            c.relError = relative(distance(view.grad, fd.data(), view.size), gNorm, c.norm);
            c.fdSpread = relative(distance(fd.data(), fdHalf.data(), view.size), c.norm, 0);
        }
        if (!(c.relError <= report.worst)) {
            report.worst = c.relError;
            report.worstName = c.name;
        }
        report.worstSpread = std::max(report.worstSpread, c.fdSpread);
        report.matrices.push_back(c);
    }
    return report;
}

Vector randomVector(long size, Rng& rng, double stddev)
{
    return randomNormal(size, 1, rng, stddev).col(0);
}

Matrix randomPattern(long rows, long cols, Rng& rng)
{
    Matrix p(rows, cols);
    for (long i = 0; i < rows; ++i) {
        for (long j = 0; j < cols; ++j) {
            const double u = rng.uniform();
            p(i, j) = u < 0.25 ? 0.0 : u;
        }
    }
    return p;
}

Objective randomObjective(const AttentionInput& in, Rng& rng)
{
    const long n = in.queryCount();
    const long m = in.keyCount();
    Objective o;
    for (std::size_t h = 0; h < in.heads.size(); ++h)
        o.spec.patterns.push_back({static_cast<int>(h), randomPattern(n, m, rng)});
    o.spec.patterns.push_back({0, randomPattern(n, m, rng)});
    AttentionResult r;
    if (computeAttention<double>(in, r).ok())
        o.spec.output = randomNormal(r.output.rows(), r.output.cols(), rng);
    o.spec.outputWeight = 0.7;
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        o.onWeights.push_back(randomNormal(n, m, rng, 0.3));
        o.onScaled.push_back(randomNormal(n, m, rng, 0.3));
    }
    return o;
}

}  // namespace attn::test
