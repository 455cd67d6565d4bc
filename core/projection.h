#pragma once
// Step 1 of the kernel: projections and vector edits, shared by the full
// computation and the incremental engine so both produce identical vectors.

#include "core/attention_input.h"

namespace attn {

// The projection matrix for a role in a head (W_Q for all roles when shared).
const Matrix& projectionFor(const AttentionInput& input, int head, Role role);

// Applies the edit (if any) for (role, head, index) to a projected row vector.
template <typename T>
void applyEdit(const AttentionInput& input, Role role, int head, int index,
               Eigen::Ref<VectorT<T>> vec);

// All rows of Q, K or V for one head, edits applied.
template <typename T>
MatrixT<T> projectAll(const AttentionInput& input, int head, Role role);

// One projected row (index) of Q, K or V for one head, edit applied.
template <typename T>
VectorT<T> projectOne(const AttentionInput& input, int head, Role role, int index);

}  // namespace attn
