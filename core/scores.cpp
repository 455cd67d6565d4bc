// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scores.h"

#include "core/softmax.h"

namespace attn {

namespace {

template <typename T>
struct AdditiveTerms {
    MatrixT<T> A;  // n x d_a: rows W_a q_i
    MatrixT<T> B;  // m x d_a: rows U_a k_j
    VectorT<T> v;
};

template <typename T>
AdditiveTerms<T> additiveTerms(const AttentionInput& in, int head, const MatrixT<T>& Q,
                               const MatrixT<T>& K)
{
    const AdditiveParams& p = in.heads[static_cast<std::size_t>(head)].additive;
    AdditiveTerms<T> t;
    t.A.noalias() = Q * p.W_a.cast<T>().transpose();
    t.B.noalias() = K * p.U_a.cast<T>().transpose();
    t.v = p.v.cast<T>();
    return t;
}

template <typename T>
T additiveScore(const AdditiveTerms<T>& t, long i, long j)
{
    return ((t.A.row(i) + t.B.row(j)).array().tanh().matrix() * t.v)(0);
}

}  // namespace

Vector additiveHidden(const AttentionInput& in, int head, const Vector& q, const Vector& k)
{
    const AdditiveParams& p = in.heads[static_cast<std::size_t>(head)].additive;
    return (p.W_a * q + p.U_a * k).array().tanh().matrix();
}

template <typename T>
void computeScores(const AttentionInput& in, int head, const MatrixT<T>& Q, const MatrixT<T>& K,
                   MatrixT<T>& scores)
{
    if (in.score == ScoreFunction::Dot) {
        scores.noalias() = Q * K.transpose();
        return;
    }
    const AdditiveTerms<T> t = additiveTerms(in, head, Q, K);
    const long n = Q.rows();
    const long m = K.rows();
    scores.resize(n, m);
#pragma omp parallel for schedule(static) if (n * m >= kParallelCells)
    for (long i = 0; i < n; ++i) {
        scores.row(i) = ((t.B.rowwise() + t.A.row(i)).array().tanh().matrix() * t.v).transpose();
    }
}

template <typename T>
void computeScoreColumn(const AttentionInput& in, int head, const MatrixT<T>& Q,
                        const MatrixT<T>& K, long j, MatrixT<T>& scores)
{
    if (in.score == ScoreFunction::Dot) {
        scores.col(j).noalias() = Q * K.row(j).transpose();
        return;
    }
    const AdditiveTerms<T> t = additiveTerms(in, head, Q, K);
    for (long i = 0; i < Q.rows(); ++i) scores(i, j) = additiveScore(t, i, j);
}

template <typename T>
void computeScoreRow(const AttentionInput& in, int head, const MatrixT<T>& Q, const MatrixT<T>& K,
                     long i, MatrixT<T>& scores)
{
    if (in.score == ScoreFunction::Dot) {
        scores.row(i).noalias() = Q.row(i) * K.transpose();
        return;
    }
    const AdditiveTerms<T> t = additiveTerms(in, head, Q, K);
    for (long j = 0; j < K.rows(); ++j) scores(i, j) = additiveScore(t, i, j);
}

#define ATTN_INSTANTIATE(T)                                                            \
    template void computeScores<T>(const AttentionInput&, int, const MatrixT<T>&,      \
                                   const MatrixT<T>&, MatrixT<T>&);                    \
    template void computeScoreColumn<T>(const AttentionInput&, int, const MatrixT<T>&, \
                                        const MatrixT<T>&, long, MatrixT<T>&);         \
    template void computeScoreRow<T>(const AttentionInput&, int, const MatrixT<T>&,    \
                                     const MatrixT<T>&, long, MatrixT<T>&);
ATTN_INSTANTIATE(double)
ATTN_INSTANTIATE(float)
#undef ATTN_INSTANTIATE

}  // namespace attn
