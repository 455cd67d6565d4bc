// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/naive_reference.h"

#include <cmath>
#include <vector>

#include "core/rope.h"

namespace attn {

namespace {

// q/k/v row `index` of head `h`: source row times W plus the bias, then the edit (overrides,
// then scale).
Vector naiveProject(const AttentionInput& in, const Matrix& src, const Matrix& W, const Vector& b,
                    Role role, int h, long index)
{
    Vector out(W.cols());
    for (long c = 0; c < W.cols(); ++c) {
        double acc = b.size() != 0 ? b[c] : 0.0;
        for (long r = 0; r < W.rows(); ++r) acc += src(index, r) * W(r, c);
        out[c] = acc;
    }
    for (const VectorEdit& e : in.edits) {
        if (e.role != role || e.head != h || e.index != index) continue;
        for (const ComponentOverride& o : e.overrides) out[o.component] = o.value;
        for (long c = 0; c < out.size(); ++c) out[c] *= e.scale;
    }
    return out;
}

// Step 1b from the formula, one pair at a time: in row p, (x_i, x_{i+d/2}) turns by the angle
// p f_i, with f_i = theta^(-2i/d) (scaled frequencies come from ropeInverseFrequencies).
Matrix naiveTurn(const Matrix& x, const Rope& rope)
{
    const long d = x.cols();
    const long half = d / 2;
    std::vector<double> f = ropeInverseFrequencies(rope, d);
    if (rope.scaling == RopeScaling::None)
        for (long i = 0; i < half; ++i)
            f[static_cast<std::size_t>(i)] =
                std::pow(rope.theta, -2.0 * static_cast<double>(i) / static_cast<double>(d));
    Matrix y = x;
    for (long p = 0; p < x.rows(); ++p) {
        for (long i = 0; i < half; ++i) {
            const double angle = static_cast<double>(p) * f[static_cast<std::size_t>(i)];
            y(p, i) = x(p, i) * std::cos(angle) - x(p, i + half) * std::sin(angle);
            y(p, i + half) = x(p, i + half) * std::cos(angle) + x(p, i) * std::sin(angle);
        }
    }
    return y;
}

bool naiveAllowed(const AttentionInput& in, long i, long j)
{
    bool ok = true;
    if (in.mode == Mode::Causal && j > i) ok = false;
    if (in.mask && !(*in.mask)(i, j)) ok = false;
    return ok;
}

double naiveScore(const AttentionInput& in, int h, const Matrix& Q, const Matrix& K, long i, long j)
{
    if (in.score == ScoreFunction::Dot) {
        double acc = 0.0;
        for (long c = 0; c < Q.cols(); ++c) acc += Q(i, c) * K(j, c);
        return acc;
    }
    const AdditiveParams& p = in.heads[static_cast<std::size_t>(h)].additive;
    double acc = 0.0;
    for (long a = 0; a < p.v.size(); ++a) {
        double pre = 0.0;
        for (long c = 0; c < Q.cols(); ++c) pre += p.W_a(a, c) * Q(i, c) + p.U_a(a, c) * K(j, c);
        acc += p.v[a] * std::tanh(pre);
    }
    return acc;
}

void naiveDiagnostics(const Matrix& P, const std::vector<bool>& fullyMasked, RowDiagnostics& d)
{
    const long n = P.rows();
    const long m = P.cols();
    d.entropy.setZero(n);
    d.maxWeight.setZero(n);
    d.argmax.setConstant(n, -1);
    d.jacobianNorm.setZero(n);
    d.fullyMasked = fullyMasked;
    for (long i = 0; i < n; ++i) {
        if (fullyMasked[static_cast<std::size_t>(i)]) continue;
        double h = 0.0;
        double frob2 = 0.0;
        for (long j = 0; j < m; ++j) {
            const double p = P(i, j);
            if (p > 0.0) h -= p * std::log(p);
            if (p > d.maxWeight[i]) {
                d.maxWeight[i] = p;
                d.argmax[i] = static_cast<int>(j);
            }
            for (long k = 0; k < m; ++k) {
                const double jac = (j == k ? p : 0.0) - p * P(i, k);
                frob2 += jac * jac;
            }
        }
        d.entropy[i] = h;
        d.jacobianNorm[i] = std::sqrt(frob2);
    }
}

// Row i of one head, from its Q, K and V: scores, scaled scores, mask, the softmax over the
// allowed cells (shifted by the row's largest) and the output. False when nothing is allowed.
bool naiveRow(const AttentionInput& in, int h, HeadResult& hr, long i)
{
    const long m = hr.K.rows();
    double rowMax = 0.0;
    bool any = false;
    for (long j = 0; j < m; ++j) {
        hr.scores(i, j) = naiveScore(in, h, hr.scoringQ(), hr.scoringK(), i, j);
        hr.scaled(i, j) = hr.scores(i, j) / in.scoreDivisor();
        hr.mask(i, j) = naiveAllowed(in, i, j);
        if (hr.mask(i, j) && (!any || hr.scaled(i, j) > rowMax)) rowMax = hr.scaled(i, j);
        any = any || hr.mask(i, j);
    }
    if (!any) return false;
    double sum = 0.0;
    for (long j = 0; j < m; ++j) {
        if (hr.mask(i, j)) sum += std::exp(hr.scaled(i, j) - rowMax);
    }
    for (long j = 0; j < m; ++j) {
        if (hr.mask(i, j)) hr.weights(i, j) = std::exp(hr.scaled(i, j) - rowMax) / sum;
    }
    for (long c = 0; c < hr.V.cols(); ++c) {
        double acc = 0.0;
        for (long j = 0; j < m; ++j) acc += hr.weights(i, j) * hr.V(j, c);
        hr.output(i, c) = acc;
    }
    return true;
}

// Head h: its Q, K and V row by row (turned when rope is on), then every row of its map.
HeadResult naiveHead(const AttentionInput& in, int h)
{
    const long n = in.queryCount();
    const long m = in.keyCount();
    const Matrix& keySrc = in.mode == Mode::Cross ? in.Y : in.X;
    const HeadParams& p = in.heads[static_cast<std::size_t>(h)];
    const Matrix& wk = in.sharedProjections ? p.W_Q : p.W_K;
    const Matrix& wv = in.sharedProjections ? p.W_Q : p.W_V;
    const Vector& bk = in.sharedProjections ? p.b_Q : p.b_K;
    const Vector& bv = in.sharedProjections ? p.b_Q : p.b_V;
    HeadResult hr;
    hr.Q.resize(n, in.keyDim());
    hr.K.resize(m, in.keyDim());
    hr.V.resize(m, in.valueDim());
    for (long i = 0; i < n; ++i)
        hr.Q.row(i) = naiveProject(in, in.X, p.W_Q, p.b_Q, Role::Query, h, i);
    for (long j = 0; j < m; ++j) {
        hr.K.row(j) = naiveProject(in, keySrc, wk, bk, Role::Key, h, j);
        hr.V.row(j) = naiveProject(in, keySrc, wv, bv, Role::Value, h, j);
    }
    if (in.rope) {
        hr.rotatedQ = naiveTurn(hr.Q, *in.rope);
        hr.rotatedK = naiveTurn(hr.K, *in.rope);
    }
    hr.scores.resize(n, m);
    hr.scaled.resize(n, m);
    hr.mask.resize(n, m);
    hr.weights.setZero(n, m);
    hr.output.setZero(n, in.valueDim());
    std::vector<bool> fullyMasked(static_cast<std::size_t>(n), false);
    for (long i = 0; i < n; ++i) fullyMasked[static_cast<std::size_t>(i)] = !naiveRow(in, h, hr, i);
    naiveDiagnostics(hr.weights, fullyMasked, hr.diagnostics);
    return hr;
}

// The heads' outputs side by side, then times W_O when there is one.
void naiveCombine(const AttentionInput& in, AttentionResult& r)
{
    const long n = in.queryCount();
    const long dv = in.valueDim();
    const long hdv = dv * static_cast<long>(in.heads.size());
    r.concat.resize(n, hdv);
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        for (long i = 0; i < n; ++i) {
            for (long c = 0; c < dv; ++c)
                r.concat(i, static_cast<long>(h) * dv + c) = r.heads[h].output(i, c);
        }
    }
    if (in.W_O.size() == 0) {
        r.output = r.concat;
        return;
    }
    r.output.setZero(n, in.W_O.cols());
    for (long i = 0; i < n; ++i) {
        for (long c = 0; c < in.W_O.cols(); ++c) {
            double acc = 0.0;
            for (long k = 0; k < hdv; ++k) acc += r.concat(i, k) * in.W_O(k, c);
            r.output(i, c) = acc;
        }
    }
}

}  // namespace

Status naiveAttention(const AttentionInput& in, AttentionResult& result)
{
    if (Status s = validate(in, Limits{}, sizeof(double)); !s.ok()) return s;
    AttentionResult r;
    for (std::size_t hh = 0; hh < in.heads.size(); ++hh)
        r.heads.push_back(naiveHead(in, static_cast<int>(hh)));
    naiveCombine(in, r);
    result = std::move(r);
    return {};
}

}  // namespace attn
