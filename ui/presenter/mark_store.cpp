// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/presenter/mark_store.h"

namespace attnlab {

void MarkStore::add(const QString& page, const Mark& mark)
{
    marks_[page].append(mark);
    Q_EMIT changed(page);
}

void MarkStore::extendLast(const QString& page, const QPointF& point)
{
    auto it = marks_.find(page);
    if (it == marks_.end() || it->isEmpty()) return;
    Mark& last = it->last();
    if (last.tool != MarkTool::Pen && last.tool != MarkTool::Highlighter) return;
    last.points.append(point);
    Q_EMIT changed(page);
}

void MarkStore::clear(const QString& page)
{
    if (marks_.remove(page) > 0) Q_EMIT changed(page);
}

}  // namespace attnlab
