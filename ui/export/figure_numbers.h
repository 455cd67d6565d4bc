// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How figures print numbers: in cells, on colour-bar ticks and in captions. One place, so
// that every figure path (Export ▸ Figure, attnlab render, the clipboard) follows the same
// two rules: a non-zero value keeps at least two significant digits (0.0042, not 0.00),
// and a value that prints as zero never carries a minus sign (0.000, not -0.000).

#include <QString>

namespace attnlab {

// A cell's number with `decimals` digits after the point, or more when the value needs them
// for two significant digits (0.0042 at 3 decimals; 0.00042 at up to `decimals` + 3); smaller
// values switch to two significant digits in exponent form (4.2e-07). Zero, of either sign,
// prints as 0 with `decimals` zeros.
QString figureCellNumber(double value, int decimals);

// A short number for ticks and captions: `precision` significant digits ('g' format), never
// "-0".
QString figureShortNumber(double value, int precision = 3);

// Removes the minus sign from a number's text whose digits are all zero ("-0.000" -> "0.000",
// "-0" -> "0"); other texts are returned as they are.
QString withoutNegativeZero(const QString& text);

}  // namespace attnlab
