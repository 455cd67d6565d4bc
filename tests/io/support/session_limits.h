// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Session files that ask for far more than they hold, written straight as text (a QJsonDocument
// of them would cost what the tests are about): for the limit tests of the reader and of the
// command line.

#include <QByteArray>

namespace attnlab::testing {

// `tokens` tokens with d_model = `dModel`: the first embedding row full, every other row [].
QByteArray sessionWithEmbeddingRows(long tokens, long dModel);
// `tokens` tokens (d_model 1) in self mode with a mask of `tokens` empty rows.
QByteArray sessionWithMaskRows(long tokens);
// A session whose first field holds a list nested `depth` deep.
QByteArray sessionNested(long depth);

}  // namespace attnlab::testing
