// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which colour map a heatmap is drawn with (color_scales.h holds the maps themselves).

namespace attnlab {

enum class ColorScale {
    Weights,     // viridis on a fixed [0, 1] range
    Sequential,  // viridis on the data's own range
    Diverging,   // blue-white-orange, symmetric around 0
};

}  // namespace attnlab
