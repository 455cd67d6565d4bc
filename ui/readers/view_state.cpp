// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/view_state.h"

namespace attnlab {

QString colorsKey(WeightColors colors)
{
    switch (colors) {
    case WeightColors::Fixed: return QStringLiteral("fixed");
    case WeightColors::DataRange: return QStringLiteral("data");
    case WeightColors::PerRow: return QStringLiteral("row");
    case WeightColors::Log: return QStringLiteral("log");
    }
    return QStringLiteral("fixed");
}

bool colorsFromKey(const QString& key, WeightColors& colors)
{
    for (WeightColors c :
         {WeightColors::Fixed, WeightColors::DataRange, WeightColors::PerRow, WeightColors::Log}) {
        if (key == colorsKey(c)) {
            colors = c;
            return true;
        }
    }
    return false;
}

}  // namespace attnlab
