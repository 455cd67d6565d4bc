// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sessions and byte comparisons of the file tests, shared by io_tests (the readers alone)
// and ui_tests (through the window): no widget here.

#include <QByteArray>
#include <QString>

#include "ui/readers/session.h"
#include "ui/readers/session_file.h"

namespace attnlab::testing {

// A session that uses every field: 2 heads, d_k != d_v, cross mode with a source, W_O,
// additive parameters, a custom mask, edits with overrides, awkward token text, a seed
// beyond 2^53.
Session richSession();
// richSession() with a view that is not the default one.
SessionFile richFile();

QString writeBytes(const QString& dir, const QString& name, const QByteArray& bytes);
QByteArray readBytes(const QString& path);

// True when both doubles have the same bit pattern.
bool sameBits(double a, double b);
bool sameBits(const attn::Matrix& a, const attn::Matrix& b);
bool sameBits(const attn::Vector& a, const attn::Vector& b);

}  // namespace attnlab::testing
