// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the hover on a weights cell tells: query and key tokens, q.k, the scaled
// score, whether the cell is masked, and the weight. Read from the document's result.

#include <QString>

#include "ui/document/document.h"

namespace attnlab {

struct CellInfo {
    QString queryToken;
    QString keyToken;
    double rawScore = 0.0;
    double scaledScore = 0.0;
    bool masked = false;
    double weight = 0.0;
};

// False when (row, column) is outside the current head's matrices.
bool cellInfo(const Document& doc, int row, int column, CellInfo& out);
// Multi-line, translated text for a tooltip.
QString describeCell(const Document& doc, int row, int column);

}  // namespace attnlab
