// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the session-file, bad-file and autosave tests.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "ui/readers/session.h"
#include "ui/window/file_actions.h"

namespace attnlab::testing {

// Points QSettings at a private folder for the rest of the test run.
void isolateSettings();

// A session that uses every field: 2 heads, d_k != d_v, cross mode with a source, W_O,
// additive parameters, a custom mask, edits with overrides, awkward token text, a seed
// beyond 2^53.
Session richSession();

// The session of a built-in lesson; a failure to load is reported as a test failure.
Session lessonSession(const char* id);

// Dialog stand-ins that record what would have been shown and answer `answer`.
struct RecordingDialogs {
    QStringList warnings;
    QStringList questions;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    QString savePath;
    FileDialogs dialogs();
};

QString writeBytes(const QString& dir, const QString& name, const QByteArray& bytes);
QByteArray readBytes(const QString& path);

// True when both doubles have the same bit pattern.
bool sameBits(double a, double b);
bool sameBits(const attn::Matrix& a, const attn::Matrix& b);
bool sameBits(const attn::Vector& a, const attn::Vector& b);

}  // namespace attnlab::testing
