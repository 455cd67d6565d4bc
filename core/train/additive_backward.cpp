// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/additive_backward.h"

namespace attn {

template <typename T>
void additiveBackward(const AdditiveParams& params, const MatrixT<T>& Q, const MatrixT<T>& K,
                      const MatrixT<T>& dS, AdditiveGradientsT<T>& out)
{
    using Row = Eigen::Matrix<T, 1, Eigen::Dynamic>;
    const MatrixT<T> Wa = params.W_a.cast<T>();
    const MatrixT<T> Ua = params.U_a.cast<T>();
    const Row v = params.v.cast<T>().transpose();
    const long n = Q.rows();
    const long m = K.rows();
    const long da = v.size();
    // A_i = W_a q_i and B_j = U_a k_j, as rows (the forward pass's own terms).
    const MatrixT<T> A = Q * Wa.transpose();  // n x d_a
    const MatrixT<T> B = K * Ua.transpose();  // m x d_a
    MatrixT<T> gA = MatrixT<T>::Zero(n, da);  // sum_j dH_ij
    MatrixT<T> gB = MatrixT<T>::Zero(m, da);  // sum_i dH_ij
    Row dv = Row::Zero(da);
    Row t(da);
    Row dH(da);
    for (long i = 0; i < n; ++i) {
        for (long j = 0; j < m; ++j) {
            const T d = dS(i, j);
            if (d == T(0)) continue;
            t = (A.row(i) + B.row(j)).array().tanh().matrix();
            dv += d * t;
            // dH_ij = dS_ij v .* (1 - t^2): the gradient at the pre-activation.
            dH = d * (v.array() * (T(1) - t.array().square())).matrix();
            gA.row(i) += dH;
            gB.row(j) += dH;
        }
    }
    out.dQ.noalias() = gA * Wa;
    out.dK.noalias() = gB * Ua;
    out.W_a.noalias() = gA.transpose() * Q;
    out.U_a.noalias() = gB.transpose() * K;
    out.v = dv.transpose();
}

#define ATTN_INSTANTIATE(T)                                                                        \
    template void additiveBackward<T>(const AdditiveParams&, const MatrixT<T>&, const MatrixT<T>&, \
                                      const MatrixT<T>&, AdditiveGradientsT<T>&);
ATTN_INSTANTIATE(double)
ATTN_INSTANTIATE(float)
#undef ATTN_INSTANTIATE

}  // namespace attn
