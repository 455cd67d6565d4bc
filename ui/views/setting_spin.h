// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A spin box for one setting of a run (layers, heads, width, steps, seed): its range, its
// default and the step its arrows take.

#include <QSpinBox>

namespace attnlab {

inline QSpinBox* settingSpin(QWidget* parent, int lo, int hi, int value, int step = 1)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setSingleStep(step);
    return s;
}

}  // namespace attnlab
