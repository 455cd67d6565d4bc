// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/axis_label_cache.h"

#include <qcustomplot.h>

namespace attnlab {

namespace {

// QCPAxis::mAxisPainter and QCPAxisPainterPrivate::mLabelCache are protected. A pointer to a
// member named through a derived class has the base's member type, so it may be applied to
// any QCPAxis or painter; these classes are never instantiated.
struct AxisAccess : QCPAxis {
    static auto painter() { return &AxisAccess::mAxisPainter; }
};

struct PainterAccess : QCPAxisPainterPrivate {
    static auto cache() { return &PainterAccess::mLabelCache; }
};

}  // namespace

void reserveLabelCache(QCPAxis* axis, int labels)
{
    if (axis == nullptr) return;
    QCPAxisPainterPrivate* painter = axis->*AxisAccess::painter();
    if (painter == nullptr) return;
    auto& cache = painter->*PainterAccess::cache();
    if (cache.maxCost() < labels) cache.setMaxCost(labels);
}

int labelCacheSize(const QCPAxis* axis)
{
    if (axis == nullptr) return 0;
    const QCPAxisPainterPrivate* painter = axis->*AxisAccess::painter();
    return painter == nullptr ? 0 : static_cast<int>((painter->*PainterAccess::cache()).maxCost());
}

}  // namespace attnlab
