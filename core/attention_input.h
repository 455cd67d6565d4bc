// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Everything the attention kernel reads: sequences, per-head projections,
// options and vector edits. Plain data; validate() checks it without throwing.

#include <cstddef>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/rope_params.h"
#include "core/status.h"

namespace attn {

// Row-major so that one query's row of scores/weights is contiguous.
template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
using Matrix = MatrixT<double>;
using Vector = VectorT<double>;
using BoolMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class Mode { Self, Causal, Cross };
enum class Scaling { None, SqrtDk, Temperature };
enum class ScoreFunction { Dot, Additive };
enum class Role { Query, Key, Value };

// Bahdanau scoring s_ij = v^T tanh(W_a q_i + U_a k_j); d_a is free.
struct AdditiveParams {
    Matrix W_a;  // d_a x d_k
    Matrix U_a;  // d_a x d_k
    Vector v;    // d_a
};

struct HeadParams {
    Matrix W_Q;  // d_model x d_k
    Matrix W_K;  // d_model x d_k
    Matrix W_V;  // d_model x d_v
    // Biases added after the projection (q = x W_Q + b_Q, ...), as real models have them;
    // empty = none. With shared projections every role uses b_Q.
    Vector b_Q;               // d_k or empty
    Vector b_K;               // d_k or empty
    Vector b_V;               // d_v or empty
    AdditiveParams additive;  // only read when score == Additive
};

// An edit of one projected vector, applied after the projection:
// first each listed component is replaced, then the whole vector is scaled.
struct ComponentOverride {
    int component = 0;
    double value = 0.0;
};
struct VectorEdit {
    Role role = Role::Key;
    int head = 0;
    int index = 0;  // token position (query: target; key/value: key sequence)
    double scale = 1.0;
    std::vector<ComponentOverride> overrides;

    [[nodiscard]] bool isIdentity() const { return scale == 1.0 && overrides.empty(); }
    [[nodiscard]] bool sameTarget(const VectorEdit& o) const
    {
        return role == o.role && head == o.head && index == o.index;
    }
};

struct AttentionInput {
    Matrix X;  // target sequence, n x d_model
    Matrix Y;  // source sequence, m x d_model (read in Cross mode only)
    std::vector<HeadParams> heads;
    Matrix W_O;  // (h * d_v) x d_model; empty = output is the concatenation
    Mode mode = Mode::Self;
    Scaling scaling = Scaling::SqrtDk;
    double temperature = 1.0;
    ScoreFunction score = ScoreFunction::Dot;
    bool sharedProjections = false;  // W_K and W_V taken equal to W_Q
    std::optional<BoolMatrix> mask;  // n x m, true = may attend
    std::vector<VectorEdit> edits;
    // Rotary positions (core/rope.h): set, query row i is turned as position i and key row j
    // as position j (in cross mode the source's positions, also from 0), after the projection
    // and the vector edits, before the scores. Dot-product scoring only: the angle difference
    // that makes the score relative appears in q . k, not in additive scoring's W q + U k.
    std::optional<Rope> rope;

    [[nodiscard]] long queryCount() const { return X.rows(); }
    [[nodiscard]] long keyCount() const { return mode == Mode::Cross ? Y.rows() : X.rows(); }
    [[nodiscard]] long modelDim() const { return X.cols(); }
    [[nodiscard]] long keyDim() const { return heads.empty() ? 0 : heads.front().W_Q.cols(); }
    [[nodiscard]] long valueDim() const
    {
        if (heads.empty()) return 0;
        return sharedProjections ? heads.front().W_Q.cols() : heads.front().W_V.cols();
    }
    [[nodiscard]] const Matrix& keySource() const { return mode == Mode::Cross ? Y : X; }
    // The divisor applied to raw scores: 1, sqrt(d_k) or the temperature.
    [[nodiscard]] double scoreDivisor() const;
};

// Memory budget for the kept stages; sizes beyond it are refused, not attempted.
struct Limits {
    std::size_t maxBytes = std::size_t{6} << 30;  // 6 GiB
};

// Bytes that computing and keeping every stage would take, for scalar size `scalarBytes`.
std::size_t estimateBytes(const AttentionInput& input, std::size_t scalarBytes);

// Checks shapes, finiteness, options, edits and the memory budget.
Status validate(const AttentionInput& input, const Limits& limits, std::size_t scalarBytes = 8);

// An edit may scale a vector by at most this much: beyond, its scores overflow a double.
inline constexpr double kMaxEditScale = 1e100;

// Checks one edit against the input's heads, positions and dimensions, and its scale.
Status validateEdit(const AttentionInput& input, const VectorEdit& edit);
// Sets or replaces the edit for (role, head, index); an identity edit removes it.
void upsertEdit(std::vector<VectorEdit>& edits, const VectorEdit& edit);
// The edit for (role, head, index), or nullptr.
const VectorEdit* findEdit(const std::vector<VectorEdit>& edits, Role role, int head, int index);

}  // namespace attn
