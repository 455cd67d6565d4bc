// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sessions for the export and command-line tests.

#include <QString>

#include "core/attention.h"
#include "ui/readers/session.h"

class QJsonValue;

namespace attnlab::testing {

// Two heads, causal, Chinese tokens, one key edit (so the difference map has something).
Session exportSession();

// Bit-for-bit equality of a JSON list of rows with a matrix (false with a message).
bool equalsJsonRows(const QJsonValue& rows, const attn::Matrix& m, QString& why);

}  // namespace attnlab::testing
