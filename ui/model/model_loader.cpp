// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_loader.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace attnlab {

namespace {

struct Loaded {
    std::shared_ptr<const LoadedModel> model;
    QString error;
};

}  // namespace

std::shared_ptr<const LoadedModel> loadModelFolderAway(const QString& folder, QString& error)
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread()) return loadModelFolder(folder, error);
    QFutureWatcher<Loaded> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Loaded>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run([folder] {
        Loaded out;
        out.model = loadModelFolder(folder, out.error);
        return out;
    }));
    // Input waits: a second folder dropped or the window closed mid-way would act on a
    // document that is between two models.
    if (!watcher.isFinished()) loop.exec(QEventLoop::ExcludeUserInputEvents);
    Loaded out = watcher.result();
    error = out.error;
    return out.model;
}

}  // namespace attnlab
