// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/gradients.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/projection.h"
#include "core/rope.h"
#include "core/train/additive_backward.h"
#include "core/train/checks.h"

namespace attn {

namespace {

using train_detail::checkOptional;
using train_detail::shapeError;

long finalOutputCols(const AttentionInput& in)
{
    return in.W_O.size() != 0 ? in.W_O.cols() : in.valueDim() * static_cast<long>(in.heads.size());
}

template <typename T>
Status checkSeed(const AttentionInput& in, const AttentionResultT<T>& r, const CotangentT<T>& seed)
{
    const long n = in.queryCount();
    const long m = in.keyCount();
    const long h = static_cast<long>(in.heads.size());
    if (static_cast<long>(r.heads.size()) != h)
        return shapeError("result.heads", static_cast<long>(r.heads.size()), 1, h, 1);
    const struct {
        const char* name;
        const std::vector<MatrixT<T>>& perHead;
    } lists[] = {{"cotangent.weights", seed.weights}, {"cotangent.scaled", seed.scaled}};
    for (const auto& [name, perHead] : lists) {
        const long count = static_cast<long>(perHead.size());
        if (count != 0 && count != h) return shapeError(name, count, 1, h, 1);
        for (long i = 0; i < count; ++i) {
            if (Status s = checkOptional(name, perHead[static_cast<std::size_t>(i)], n, m);
                !s.ok()) {
                s.head = static_cast<int>(i);
                return s;
            }
        }
    }
    return checkOptional("cotangent.output", seed.output, n, finalOutputCols(in));
}

// The head's gradients, all zero, each shaped like its parameter (empty where it is empty).
template <typename T>
HeadGradientsT<T> zeroGradients(const AttentionInput& in, const HeadParams& p)
{
    HeadGradientsT<T> g;
    g.W_Q = MatrixT<T>::Zero(p.W_Q.rows(), p.W_Q.cols());
    g.W_K = MatrixT<T>::Zero(p.W_K.rows(), p.W_K.cols());
    g.W_V = MatrixT<T>::Zero(p.W_V.rows(), p.W_V.cols());
    g.b_Q = VectorT<T>::Zero(p.b_Q.size());
    g.b_K = VectorT<T>::Zero(p.b_K.size());
    g.b_V = VectorT<T>::Zero(p.b_V.size());
    if (in.score == ScoreFunction::Additive) {
        g.W_a = MatrixT<T>::Zero(p.additive.W_a.rows(), p.additive.W_a.cols());
        g.U_a = MatrixT<T>::Zero(p.additive.U_a.rows(), p.additive.U_a.cols());
        g.v = VectorT<T>::Zero(p.additive.v.size());
    }
    return g;
}

// Steps 6 and 7 for one role: d(edited vectors) -> d(projected vectors) -> dW, db and, if
// `dSource` is set, the source sequence (X or Y). Shared projections send every role to W_Q.
template <typename T>
void projectionBackward(const AttentionInput& in, int head, Role role, const MatrixT<T>& source,
                        MatrixT<T> dEdited, HeadGradientsT<T>& g, MatrixT<T>* dSource)
{
    for (const VectorEdit& e : in.edits) {
        if (e.role != role || e.head != head) continue;
        auto row = dEdited.row(e.index);
        for (const ComponentOverride& o : e.overrides) row[o.component] = T(0);
        row *= static_cast<T>(e.scale);
    }
    const Role into = in.sharedProjections ? Role::Query : role;
    MatrixT<T>& dW = into == Role::Query ? g.W_Q : into == Role::Key ? g.W_K : g.W_V;
    VectorT<T>& db = into == Role::Query ? g.b_Q : into == Role::Key ? g.b_K : g.b_V;
    dW.noalias() += source.transpose() * dEdited;
    if (biasFor(in, head, role) != nullptr) db += dEdited.colwise().sum().transpose();
    if (dSource != nullptr)
        dSource->noalias() += dEdited * projectionFor(in, head, role).cast<T>().transpose();
}

// Steps 2-5 of a dot-product head, by blocks of query rows. Under the pure causal mask the
// rows [i0, i1) have weights only on keys < i1, so only that prefix of each product is
// computed, as the forward pass does; `prefixOnly` is false when a cotangent on the scaled
// scores reaches past the prefix (masked cells keep their scores).
template <typename T>
void dotHeadBackward(const HeadResultT<T>& hr, const MatrixT<T>* dO, const MatrixT<T>* dPSeed,
                     const MatrixT<T>* dZSeed, T inverseDivisor, bool prefixOnly, MatrixT<T>& dQ,
                     MatrixT<T>& dK, MatrixT<T>& dV)
{
    constexpr long kBlock = 128;
    const long n = hr.weights.rows();
    const long m = hr.weights.cols();
    dQ.setZero(n, hr.Q.cols());
    dK.setZero(m, hr.K.cols());
    dV.setZero(m, hr.V.cols());
    MatrixT<T> dP;
    MatrixT<T> dZ;
    for (long i0 = 0; i0 < n; i0 += kBlock) {
        const long rows = std::min(kBlock, n - i0);
        const long cols = prefixOnly ? std::min(m, i0 + rows) : m;
        const auto P = hr.weights.block(i0, 0, rows, cols);
        if (dPSeed != nullptr)
            dP = dPSeed->block(i0, 0, rows, cols);
        else
            dP.setZero(rows, cols);
        if (dO != nullptr) {
            const auto dOb = dO->middleRows(i0, rows);
            dP.noalias() += dOb * hr.V.topRows(cols).transpose();
            dV.topRows(cols).noalias() += P.transpose() * dOb;
        }
        const VectorT<T> rowDot = (P.array() * dP.array()).rowwise().sum();
        dZ = (P.array() * (dP.array().colwise() - rowDot.array())).matrix();
        if (dZSeed != nullptr) dZ += dZSeed->block(i0, 0, rows, cols);
        dZ *= inverseDivisor;
        dQ.middleRows(i0, rows).noalias() += dZ * hr.scoringK().topRows(cols);
        dK.topRows(cols).noalias() += dZ.transpose() * hr.scoringQ().middleRows(i0, rows);
    }
}

// With rotary positions the scores saw Q and K turned, row p by the angles p f: the gradient
// with respect to the unturned rows is the gradient turned back (the transpose of a rotation
// is the rotation by the opposite angle, i.e. at position -p).
template <typename T>
void turnGradientBack(const AttentionInput& in, MatrixT<T>& dTurned)
{
    if (!in.rope || dTurned.size() == 0) return;
    std::vector<long> back(static_cast<std::size_t>(dTurned.rows()));
    for (std::size_t p = 0; p < back.size(); ++p) back[p] = -static_cast<long>(p);
    applyRopeAt(dTurned, *in.rope, back);
}

// True when the scaled-score cotangent is zero above the diagonal (a cross-entropy's is).
template <typename T>
bool zeroAboveDiagonal(const MatrixT<T>& dZ)
{
    for (long i = 0; i < dZ.rows(); ++i)
        for (long j = i + 1; j < dZ.cols(); ++j)
            if (dZ(i, j) != T(0)) return false;
    return true;
}

// 1. Through W_O (or none) to the concatenation of the heads' outputs, setting W_O's gradient
// `dW_O`; empty when no cotangent reaches the outputs.
template <typename T>
MatrixT<T> outputProjectionBackward(const AttentionInput& in, const AttentionResultT<T>& r,
                                    const CotangentT<T>& seed, MatrixT<T>& dW_O)
{
    MatrixT<T> dConcat;
    if (seed.output.size() != 0) {
        if (in.W_O.size() != 0) {
            dConcat.noalias() = seed.output * in.W_O.cast<T>().transpose();
            dW_O.noalias() = r.concat.transpose() * seed.output;
        } else {
            dConcat = seed.output;
        }
    } else if (in.W_O.size() != 0) {
        dW_O = MatrixT<T>::Zero(in.W_O.rows(), in.W_O.cols());
    }
    return dConcat;
}

// Steps 2-5 of one head with additive scores, on whole matrices: to its Q, K and V (`dQ`, `dK`,
// `dV`) and its additive parameters (in `hg`). `dO`, `dPSeed` and `dZSeed` may be null.
template <typename T>
void additiveHeadBackward(const AdditiveParams& additive, const HeadResultT<T>& hr,
                          const MatrixT<T>* dO, const MatrixT<T>* dPSeed, const MatrixT<T>* dZSeed,
                          T divisor, MatrixT<T>& dQ, MatrixT<T>& dK, MatrixT<T>& dV,
                          HeadGradientsT<T>& hg)
{
    const auto P = hr.weights.array();
    // 2. Output = P V.
    MatrixT<T> dP =
        dPSeed != nullptr ? *dPSeed : MatrixT<T>::Zero(hr.weights.rows(), hr.weights.cols());
    dV = MatrixT<T>::Zero(hr.V.rows(), hr.V.cols());
    if (dO != nullptr) {
        dP.noalias() += *dO * hr.V.transpose();
        dV.noalias() = hr.weights.transpose() * *dO;
    }
    // 3. Softmax: P is exactly 0 on masked cells, so nothing passes there, and a fully
    // masked row passes nothing at all. A cotangent given on the scaled scores is added
    // as it is (masked cells keep their scores, so those are real gradients).
    const VectorT<T> rowDot = (P * dP.array()).rowwise().sum();
    MatrixT<T> dZ = (P * (dP.array().colwise() - rowDot.array())).matrix();
    if (dZSeed != nullptr) dZ += *dZSeed;
    // 4. The divisor is a constant.
    const MatrixT<T> dS = dZ / divisor;
    // 5. Additive scores.
    AdditiveGradientsT<T> ag;
    additiveBackward<T>(additive, hr.Q, hr.K, dS, ag);
    dQ = std::move(ag.dQ);
    dK = std::move(ag.dK);
    hg.W_a = std::move(ag.W_a);
    hg.U_a = std::move(ag.U_a);
    hg.v = std::move(ag.v);
}

}  // namespace

template <typename T>
Status backward(const AttentionInput& in, const AttentionResultT<T>& r, const CotangentT<T>& seed,
                GradientsT<T>& grads, const BackwardOptions& options)
{
    if (Status s = checkSeed(in, r, seed); !s.ok()) return s;
    const long n = in.queryCount();
    const long m = in.keyCount();
    const long dv = in.valueDim();
    const bool cross = in.mode == Mode::Cross;
    const MatrixT<T> X = in.X.cast<T>();
    const MatrixT<T> Y = cross ? MatrixT<T>(in.Y.cast<T>()) : MatrixT<T>();
    const MatrixT<T>& keySource = cross ? Y : X;
    const T divisor = static_cast<T>(in.scoreDivisor());

    GradientsT<T> g;
    if (options.embeddings) {
        g.X = MatrixT<T>::Zero(n, in.modelDim());
        if (cross) g.Y = MatrixT<T>::Zero(m, in.modelDim());
    }
    MatrixT<T>* dX = options.embeddings ? &g.X : nullptr;
    MatrixT<T>* dKeySource = options.embeddings ? (cross ? &g.Y : &g.X) : nullptr;

    const MatrixT<T> dConcat = outputProjectionBackward<T>(in, r, seed, g.W_O);

    for (std::size_t hh = 0; hh < in.heads.size(); ++hh) {
        const int h = static_cast<int>(hh);
        const HeadResultT<T>& hr = r.heads[hh];
        HeadGradientsT<T> hg = zeroGradients<T>(in, in.heads[hh]);

        const MatrixT<T>* dPSeed =
            (!seed.weights.empty() && seed.weights[hh].size() != 0) ? &seed.weights[hh] : nullptr;
        const MatrixT<T>* dZSeed =
            (!seed.scaled.empty() && seed.scaled[hh].size() != 0) ? &seed.scaled[hh] : nullptr;
        MatrixT<T> dO;
        if (dConcat.size() != 0) dO = dConcat.middleCols(static_cast<long>(hh) * dv, dv);
        MatrixT<T> dQ;
        MatrixT<T> dK;
        MatrixT<T> dV;
        if (in.score == ScoreFunction::Dot) {
            // 2-5 by row blocks (see dotHeadBackward).
            const bool prefixOnly =
                r.maskKind == MaskKind::Causal && (dZSeed == nullptr || zeroAboveDiagonal(*dZSeed));
            dotHeadBackward<T>(hr, dO.size() != 0 ? &dO : nullptr, dPSeed, dZSeed, T(1) / divisor,
                               prefixOnly, dQ, dK, dV);
        } else {
            additiveHeadBackward<T>(in.heads[hh].additive, hr, dO.size() != 0 ? &dO : nullptr,
                                    dPSeed, dZSeed, divisor, dQ, dK, dV, hg);
        }
        turnGradientBack(in, dQ);
        turnGradientBack(in, dK);
        // 6, 7. Edits and projections.
        projectionBackward<T>(in, h, Role::Query, X, std::move(dQ), hg, dX);
        projectionBackward<T>(in, h, Role::Key, keySource, std::move(dK), hg, dKeySource);
        projectionBackward<T>(in, h, Role::Value, keySource, std::move(dV), hg, dKeySource);
        g.heads.push_back(std::move(hg));
    }
    grads = std::move(g);
    return {};
}

template Status backward<double>(const AttentionInput&, const AttentionResultT<double>&,
                                 const CotangentT<double>&, GradientsT<double>&,
                                 const BackwardOptions&);
template Status backward<float>(const AttentionInput&, const AttentionResultT<float>&,
                                const CotangentT<float>&, GradientsT<float>&,
                                const BackwardOptions&);

}  // namespace attn
