// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a user's file can take seconds (a slow disk, a network share that stalls), and none
// of it may stop the window painting. Where the caller needs the answer before it goes on
// (a folder dropped on the window, a pattern taken from a file), the reading runs on a worker
// while the GUI thread waits in an event loop that keeps painting and timers going but holds
// back the user's input: a second request meanwhile would act on a half-changed window.

#include <utility>

#include <QCoreApplication>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace attnlab {

// `work()` on a worker thread when called on the GUI thread, else directly; returns its result.
template <class Work>
auto runAway(Work work) -> decltype(work())
{
    using Result = decltype(work());
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread()) return work();
    QFutureWatcher<Result> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Result>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run(std::move(work)));
    if (!watcher.isFinished()) loop.exec(QEventLoop::ExcludeUserInputEvents);
    return watcher.result();
}

}  // namespace attnlab
