// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Order statistics of the benchmarks' timings (attnlab-bench ui, attnlab-bench model): the value at
// fraction `p` of the sorted times, the lower one of two neighbours (p = 0.5 the median, 1 the
// maximum).

#include <algorithm>
#include <vector>

namespace attnlab {

inline double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const auto idx = static_cast<std::size_t>(
        std::clamp(p * static_cast<double>(v.size() - 1), 0.0, static_cast<double>(v.size() - 1)));
    return v[idx];
}

}  // namespace attnlab
