// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A widget that says something about the live window rather than the picture (the "pinned"
// badge above the weights map) carries this property set to true: the presenter view shows it,
// and its exported pictures leave its place blank, so that the layout and the marks stay where
// they were drawn.

#include <QWidget>

namespace attnlab {

inline constexpr char kScreenOnlyProperty[] = "attnlabScreenOnly";

inline void markScreenOnly(QWidget* widget)
{
    widget->setProperty(kScreenOnlyProperty, true);
}

}  // namespace attnlab
