// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Session files (NAME.attnlab.json): the whole session plus the view state, as UTF-8
// JSON documented in docs/session-format.md. Reading validates everything and reports
// the file, the field and the problem; writing is atomic (QSaveFile), so a failure
// leaves any existing file intact.

#include <QString>

#include "ui/readers/session.h"
#include "ui/readers/view_state.h"

namespace attnlab {

struct SessionFile {
    Session session;
    ViewState view;
    // Every stage in double would exceed the memory budget, but the long path (float, only the
    // weights kept: core/long_attention.h) fits: the file opens in the main window's Long map tab,
    // and whatever computes every stage refuses it.
    bool onlyWeightsFit = false;
};

struct FileError {
    QString file;     // path as given
    QString field;    // JSON path, lists from 1: "projections.W_Q[1][3][2]"; may be empty
    QString problem;  // translated description
    // "FILE: FIELD: PROBLEM" (without the field part when there is none; "FIELD (counted
    // from 1)" when it names an element of a list).
    [[nodiscard]] QString message() const;
};

// Version 2 adds per-head biases (b_Q, b_K, b_V) and `provenance`, version 3 rotary
// positions (`options.rope`). A session is written with the lowest version that holds what it
// uses, so that older AttnLabs still read the ones that use nothing newer.
inline constexpr int kSessionFormatVersion = 3;
inline constexpr qint64 kMaxSessionFileBytes = qint64{512} << 20;  // 512 MiB

// Reads and validates a session file. On failure `out` is untouched.
bool readSessionFile(const QString& path, SessionFile& out, FileError& error);
// Parses session JSON already in memory (`origin` names it in errors).
bool parseSessionJson(const QByteArray& bytes, const QString& origin, SessionFile& out,
                      FileError& error);
// The format version a session needs: 3 with rotary positions, 2 with biases or a provenance,
// else 1.
int sessionFormatVersion(const Session& session);
// The JSON text of a session; doubles are written so that they read back bit-identical.
QByteArray sessionToJson(const SessionFile& file);
// Writes atomically. On failure the target is untouched and `error` says why.
bool writeSessionFile(const QString& path, const SessionFile& file, FileError& error);

}  // namespace attnlab
