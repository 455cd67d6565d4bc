// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// QCustomPlot keeps the tick labels of each axis as ready-made pixmaps, but only 16 of them
// (QCPAxisPainterPrivate's label cache). A heatmap of a long sequence shows dozens of token
// labels per axis, so every replot would lay each label out again through HarfBuzz (about
// a tenth of a slider step at n = 512). This enlarges that cache so the labels are rendered
// once and then only blitted (the plot must have QCP::phCacheLabels set).

class QCPAxis;

namespace attnlab {

// Lets `axis` keep at least `labels` rendered tick labels (never shrinks the cache).
void reserveLabelCache(QCPAxis* axis, int labels);

// The number of labels `axis` can keep rendered; for tests.
[[nodiscard]] int labelCacheSize(const QCPAxis* axis);

}  // namespace attnlab
