// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab-bench model DIR --long N`: opens a checkpoint in the real model window (offscreen),
// sets a text of N tokens (the window's first example text, repeated) and measures what a user
// waits for: from the text to the first painted model view (the forward pass on the worker with
// its maps pooled, the thumbnails, the repaint), then every head's exact map made on demand as
// it is enlarged, one head after another. Peak resident memory (VmHWM) after each.

#include <QString>
#include <QTextStream>

namespace attnlab {

struct ModelLongOptions {
    QString folder;
    int tokens = 4096;
    int timeoutMs = 600000;
};

struct ModelLongResult {
    QString error;  // empty when it ran
    double openMs = 0.0;
    long tokens = 0;
    double firstViewMs = 0.0;  // text set to the model view painted
    double runMs = 0.0;        // of which the worker's run
    long peakKbFirstView = 0;  // VmHWM then
    int headsReached = 0;      // heads whose whole map was made
    double headMedianMs = 0.0;
    double headMaxMs = 0.0;
    long peakKb = 0;  // VmHWM at the end
};

ModelLongResult runModelLongBenchmark(const ModelLongOptions& options, QTextStream& log);

}  // namespace attnlab
