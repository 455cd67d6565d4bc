// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A closed range of values [lower, upper]: a colour scale's range, the range a map is drawn on.
// Ours rather than QCustomPlot's ValueRange (the same members), so that what heatmaps and figures
// are made of, and the command line that exports them, need no plotting widget's header; the
// views convert where they hand a range to QCustomPlot.

namespace attnlab {

struct ValueRange {
    double lower = 0.0;
    double upper = 0.0;

    constexpr ValueRange() = default;
    constexpr ValueRange(double lo, double hi) : lower(lo), upper(hi) {}

    [[nodiscard]] constexpr double size() const { return upper - lower; }
    [[nodiscard]] constexpr double center() const { return (upper + lower) * 0.5; }
    [[nodiscard]] constexpr bool contains(double v) const { return v >= lower && v <= upper; }
    friend constexpr bool operator==(const ValueRange&, const ValueRange&) = default;
};

}  // namespace attnlab
