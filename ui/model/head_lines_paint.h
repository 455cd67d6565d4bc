// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The head view (bertviz's "head view"): the tokens twice, queries on the left and keys on the
// right, joined by a line for every weight worth seeing, as wide and as opaque as the weight,
// one colour per head. Hovering a token isolates its lines: a query's keys, or the queries that
// read a key. Used by the window and, through Figure::drawing, by export.

#include <cstddef>
#include <vector>

#include <QColor>
#include <QRectF>
#include <QStringList>

#include "core/model/forward.h"

class QPainter;

namespace attnlab {

struct HeadLinesContent {
    QStringList labels;
    // The heads drawn, each with its colour.
    std::vector<const attn::model::FloatMatrix*> weights;
    std::vector<QColor> colors;
    int hoverQuery = -1;  // a left token under the mouse: only its lines
    int hoverKey = -1;    // a right token under the mouse: only the lines into it
};

// Why a long text (a pooled run, model_snapshot.h) has no head view, translated.
QString headLinesTooLong(long tokens);

// A colour per head, distinct for up to 16 heads (then repeating), readable on white.
QColor headColor(int head);

struct HeadLinesGeometry {
    QRectF left, right;  // the two columns of labels
    double rowHeight = 0.0;
    int rows = 0;
    // The token under `point` on either side: side 0 left, 1 right; -1 for none.
    bool tokenAt(const QPointF& point, int& side, int& index) const;
};

HeadLinesGeometry headLinesGeometry(const QRectF& area, int tokens, double basePx);

// Lines below this weight are left out; a query keeps at most its 12 strongest keys, fewer
// when the text is long, so that a paint draws about kHeadLineBudget lines at most.
constexpr float kHeadLineThreshold = 0.02f;
constexpr std::size_t kHeadLineBudget = 20000;

void paintHeadLines(QPainter& painter, const QRectF& area, const HeadLinesContent& content,
                    double basePx);

}  // namespace attnlab
