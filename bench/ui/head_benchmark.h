// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab-bench ui --model DIR`: a real head in the workbench. For each layer it
// opens the model window on the text, hands head `head` of that layer to the workbench (Open in
// Workbench) and moves a key slider there through `steps` values. One step is timed from the
// slider's change until the workbench's map is repainted and the head, carried into the model,
// has re-run the layers after it and the Model panel shows the new predictions.

#include <QList>
#include <QString>
#include <QTextStream>

namespace attnlab {

struct HeadBenchmarkOptions {
    QString folder;
    // 32 GPT-2 tokens: the length the head-in-the-workbench goals are set for.
    QString text = QStringLiteral(
        "The animal didn't cross the street because it was too tired, so it lay down and slept "
        "there for a long while in the warm sun of the afternoon.");
    QList<int> layers;  // from 1; empty: the first and the last
    int head = 1;       // from 1
    int steps = 100;
    int timeoutMs = 10000;  // per step
};

struct HeadBenchmarkRow {
    int layer = 0;  // from 1
    long tokens = 0;
    int steps = 0;
    double medianMs = 0.0, p95Ms = 0.0, maxMs = 0.0;
    int modelRuns = 0;           // completed runs of the model with the workbench's head
    double cacheMiB = 0.0;       // the unedited run's per-layer cache (residual streams)
    double cacheLimitMiB = 0.0;  // 2 x n x d_model x layers floats
};

struct HeadBenchmarkResult {
    QList<HeadBenchmarkRow> rows;
    QString error;
};

HeadBenchmarkResult runHeadBenchmark(const HeadBenchmarkOptions& options, QTextStream& log);

}  // namespace attnlab
