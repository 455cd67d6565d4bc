// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Waiting for the window in the UI benchmarks (attnlab-bench ui, model, head).

#include <functional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

namespace attnlab {

// Processes events until `done` (false after `timeoutMs`), asleep until an event comes, as the
// window waits: the worker's result is one, so nothing is added to a measured latency, and a busy
// loop of processEvents() would take a core from the model's threads (on two cores it cost a
// third of a 2,048-token run).
inline bool waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QTimer tick;  // wakes the loop now and then to look at the clock
    tick.start(20);
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

}  // namespace attnlab
