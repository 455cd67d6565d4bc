// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sessions for the export and command-line tests, and what an exported SVG holds.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "core/attention.h"
#include "ui/readers/session.h"

class QJsonValue;

namespace attnlab::testing {

// Two heads, causal, Chinese tokens, one key edit (so the difference map has something).
Session exportSession();

// What an SVG holds: its texts, shapes (rectangles; paths and polygons), images, and the font
// families and fills its elements name.
struct SvgSummary {
    QStringList texts;
    int rects = 0;
    int paths = 0;  // paths and polygons
    int images = 0;
    QStringList fontFamilies;
    QStringList fills;
    bool wellFormed = false;
};
SvgSummary readSvg(const QByteArray& svg);

// Bit-for-bit equality of a JSON list of rows with a matrix (false with a message).
bool equalsJsonRows(const QJsonValue& rows, const attn::Matrix& m, QString& why);

}  // namespace attnlab::testing
