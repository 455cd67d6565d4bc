// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reference: plain loops, double precision, written straight from the
// textbook's five steps. Slow on purpose; the Eigen path is tested against it.

#include "core/attention.h"

namespace attn {

Status naiveAttention(const AttentionInput& input, AttentionResult& result);

}  // namespace attn
