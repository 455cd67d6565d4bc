// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Advice to the operating system about large result buffers.

#include <cstddef>

namespace attn {

// Buffers from this size on are worth backing with huge pages.
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

// Asks (Linux: madvise MADV_HUGEPAGE) that the not yet touched pages of a large buffer be
// backed by transparent huge pages. A fresh n x n matrix at n = 4096 otherwise takes
// 16,384 page faults to fill, a quarter of a full computation. Does nothing for
// small buffers, on other systems, or when the kernel declines.
void adviseHugePages(void* data, std::size_t bytes);

}  // namespace attn
