// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the session-file, bad-file and autosave tests (with io/support/sessions.h).

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "io/support/sessions.h"
#include "ui/readers/session.h"
#include "ui/window/file_actions.h"

namespace attnlab::testing {

// Points QSettings at a private folder for the rest of the test run.
void isolateSettings();

// The session of a built-in lesson; a failure to load is reported as a test failure.
Session lessonSession(const char* id);

// A session of n tokens (t1, t2, …) and one head: n * n score cells.
Session tokenSession(int n);

// A recovery file as a crashed process would leave it in `dir`: session, source and no live
// lock; its path, or "" when it could not be written.
QString plantOrphan(const QString& dir, const QString& id, const Session& s, const QString& source);

// Dialog stand-ins that record what would have been shown and answer `answer`.
struct RecordingDialogs {
    QStringList warnings;
    QStringList questions;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    QString savePath;
    FileDialogs dialogs();
};

}  // namespace attnlab::testing
