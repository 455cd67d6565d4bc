// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab-bench ui --train`: opens the real window offscreen with the Trainer dock, trains the
// previous-token task at full speed for a while and measures what the person at the window
// would feel: the GUI thread's tick-to-tick intervals of a 16 ms timer (p50, p95, max), the
// time from a snapshot being posted by the worker until the live map has been replotted, and
// the training steps per second.

#include <QString>
#include <QTextStream>

namespace attnlab {

struct TrainBenchmarkOptions {
    double seconds = 5.0;
    int tokens = 8;  // the session's length (d_model = 8, d_k = 4, one head)
};

struct TrainBenchmarkResult {
    double tickP50Ms = 0, tickP95Ms = 0, tickMaxMs = 0;
    double latencyP50Ms = 0, latencyP95Ms = 0;
    double stepsPerSecond = 0;
    int steps = 0, snapshots = 0, ticks = 0;
    QString error;
};

TrainBenchmarkResult runTrainBenchmark(const TrainBenchmarkOptions& options, QTextStream& log);

}  // namespace attnlab
