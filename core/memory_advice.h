// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Advice to the operating system and the allocator about large result buffers.

#include <cstddef>

namespace attn {

// Buffers from this size on are worth backing with huge pages.
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

// Asks (Linux: madvise MADV_HUGEPAGE) that the not yet touched pages of a large buffer be
// backed by transparent huge pages. A fresh n x n matrix at n = 4096 otherwise takes
// 16,384 page faults to fill, a quarter of a full computation. Does nothing for
// small buffers, on other systems, or when the kernel declines.
void adviseHugePages(void* data, std::size_t bytes);

// Asks the C library's allocator (glibc: mallopt) to keep up to 128 MiB of freed memory for the
// next allocation instead of returning it to the system, and to serve blocks below 32 MiB from
// that pool. A model pass allocates its result afresh (GPT-2-small at 512 tokens: 165 MiB of
// 1 MiB maps), and without this each pass faults every page of it in again: 55,000 page faults
// and a tenth of the pass at 512 tokens. Call once, at the start of main; process-wide.
void keepFreedMemoryForReuse();

}  // namespace attn
