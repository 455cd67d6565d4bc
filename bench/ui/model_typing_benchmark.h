// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab-bench model DIR`: opens a checkpoint in the real model window (offscreen), sets a
// text of about `tokens` tokens and types `keys` keystrokes into the text box (a letter, then
// Backspace, and so on). For each keystroke it measures the time from the key press until the
// new run's model view has been painted: the typing pause (ModelDocument::kDebounceMs), the
// forward pass on the worker and the repaint, as a user sees it. Also the time to open the
// folder.

#include <QString>
#include <QTextStream>

namespace attnlab {

struct ModelTypingOptions {
    QString folder;
    int tokens = 32;
    int keys = 20;
    int timeoutMs = 20000;  // per keystroke
};

struct ModelTypingResult {
    QString error;  // empty when it ran
    double openMs = 0.0;
    long tokens = 0;        // of the text typed into
    double medianMs = 0.0;  // key press to painted model view
    double p95Ms = 0.0;
    double maxMs = 0.0;
    double runMedianMs = 0.0;  // of which the worker's run (tokenize, forward, aggregates)
    int keys = 0;
};

ModelTypingResult runModelTypingBenchmark(const ModelTypingOptions& options, QTextStream& log);

}  // namespace attnlab
