// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/figure_numbers.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kMinSignificant = 2;
constexpr int kExtraDecimals = 3;  // beyond `decimals`, before switching to exponent form

}  // namespace

QString withoutNegativeZero(const QString& text)
{
    if (!text.startsWith(u'-')) return text;
    // Only the mantissa counts: "-1e-05" is not zero, "-0.0e+00" is.
    const qsizetype e = text.indexOf(u'e', 0, Qt::CaseInsensitive);
    const QStringView mantissa = QStringView(text).mid(1, e < 0 ? -1 : e - 1);
    for (const QChar c : mantissa)
        if (c.isDigit() && c != u'0') return text;
    return text.mid(1);
}

QString figureCellNumber(double value, int decimals)
{
    decimals = std::max(decimals, 0);
    if (!std::isfinite(value)) return QString::number(value);
    if (value == 0.0) return QString::number(0.0, 'f', decimals);
    // Decimals that leave `kMinSignificant` significant digits: the first significant digit
    // of 0.0042 is the 3rd after the point, so two digits need 4.
    const int leading = static_cast<int>(std::floor(std::log10(std::abs(value))));
    const int needed = kMinSignificant - 1 - leading;
    if (needed > decimals + kExtraDecimals)
        return withoutNegativeZero(QString::number(value, 'e', kMinSignificant - 1));
    QString text = QString::number(value, 'f', std::max(decimals, needed));
    // Rounding can carry into a new digit (0.00996 at 4 decimals is 0.0100): still two
    // significant digits, so nothing to do; a sign on an all-zero text cannot remain.
    return withoutNegativeZero(text);
}

QString figureShortNumber(double value, int precision)
{
    if (value == 0.0) value = 0.0;  // -0.0 == 0.0: drops the sign bit
    return withoutNegativeZero(QString::number(value, 'g', std::max(precision, 1)));
}

}  // namespace attnlab
