// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/cell_info.h"

#include <cmath>

#include <QCoreApplication>

namespace attnlab {

namespace {
class CellInfoTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::CellInfo)
};

// A score as the hover prints it: six significant digits, but never e-notation for a small
// value: a rounding residue such as 8e-11 reads 0, and 0.000015 stays a decimal.
QString scoreText(double v)
{
    if (!std::isfinite(v) || std::abs(v) >= 1e-4) return QString::number(v, 'g', 6);
    QString text = QString::number(v, 'f', 6);
    while (text.endsWith(QLatin1Char('0'))) text.chop(1);
    if (text.endsWith(QLatin1Char('.'))) text.chop(1);
    return text == QLatin1String("-0") ? QStringLiteral("0") : text;
}

}  // namespace

bool cellInfo(const Document& doc, int row, int column, CellInfo& out)
{
    const attn::HeadResult* hr = doc.currentHead();
    if (hr == nullptr || row < 0 || column < 0 || row >= hr->weights.rows() ||
        column >= hr->weights.cols())
        return false;
    const Session& s = doc.session();
    out.queryToken = shownLabel(labelsFor(s.targetTokens, row + 1).at(row), kMaxHoverLabel);
    out.keyToken = shownLabel(labelsFor(keyTokens(s), column + 1).at(column), kMaxHoverLabel);
    out.rawScore = hr->scores(row, column);
    out.scaledScore = hr->scaled(row, column);
    out.masked = !hr->mask(row, column);
    out.weight = hr->weights(row, column);
    return true;
}

QString describeCell(const Document& doc, int row, int column)
{
    CellInfo c;
    if (!cellInfo(doc, row, column, c)) return {};
    const bool dot = doc.session().input.score == attn::ScoreFunction::Dot;
    QStringList lines;
    lines << CellInfoTr::tr("query “%1” → key “%2”").arg(c.queryToken, c.keyToken);
    lines << (dot ? CellInfoTr::tr("q·k = %1") : CellInfoTr::tr("additive score = %1"))
                 .arg(scoreText(c.rawScore));
    lines << CellInfoTr::tr("scaled score = %1").arg(scoreText(c.scaledScore));
    lines << (c.masked ? CellInfoTr::tr("masked: yes (weight forced to 0)")
                       : CellInfoTr::tr("masked: no"));
    lines << CellInfoTr::tr("weight = %1").arg(c.weight, 0, 'f', 6);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attnlab
