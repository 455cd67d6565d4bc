// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab-bench ui`: drives the real window offscreen. For each n it moves a key
// slider through `steps` values and measures, for each step, the time from the
// value change until the weights heatmap has been replotted and painted.

#include <QList>
#include <QString>
#include <QTextStream>

namespace attnlab {

struct UiBenchmarkOptions {
    QList<int> sizes{16, 128, 512, 1024, 2048, 4096, 8192};
    int steps = 200;
    int dK = 64;
    int timeoutMs = 5000;  // per step
};

struct UiBenchmarkRow {
    int n = 0;
    double medianMs = 0.0;
    double p95Ms = 0.0;
    double maxMs = 0.0;
    int recomputes = 0;      // how many times the document emitted changed()
    int sliderRebuilds = 0;  // times the key editor replaced the dragged slider
    int steps = 0;
};

QList<UiBenchmarkRow> runUiBenchmark(const UiBenchmarkOptions& options, QTextStream& log);

}  // namespace attnlab
