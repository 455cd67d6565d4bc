// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Step 1 of the kernel: projections (x W + b) and vector edits, shared by the full
// computation and the incremental engine so both produce identical vectors.

#include <initializer_list>

#include "core/attention_input.h"

namespace attn {

// The projection matrix for a role in a head (W_Q for all roles when shared).
const Matrix& projectionFor(const AttentionInput& input, int head, Role role);

// The bias added after that projection (b_Q for all roles when shared), or nullptr for none.
const Vector* biasFor(const AttentionInput& input, int head, Role role);

// Applies the edit (if any) for (role, head, index) to a projected row vector.
template <typename T>
void applyEdit(const AttentionInput& input, Role role, int head, int index,
               Eigen::Ref<VectorT<T>> vec);

// Projections of at least this many multiply-adds in all (Q, K and V of 256 tokens at
// d = 64) run their row blocks on OpenMP threads; below, thread start-up costs more.
inline constexpr double kParallelProjectionWork = 3.0 * 256 * 64 * 64;
inline constexpr long kProjectionBlockRows = 128;

// All rows of Q, K and/or V for one head (outs[i] gets roles[i]), edits applied. The row
// blocks of all of them share one parallel loop.
template <typename T>
void projectInto(const AttentionInput& input, int head, std::initializer_list<Role> roles,
                 std::initializer_list<MatrixT<T>*> outs);

// One projected row (index) of Q, K or V for one head, edit applied.
template <typename T>
VectorT<T> projectOne(const AttentionInput& input, int head, Role role, int index);

}  // namespace attn
