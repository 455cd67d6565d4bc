// SPDX-License-Identifier: GPL-3.0-or-later
// figure_numbers.h: the one formatting rule of every number a figure prints.
#include <gtest/gtest.h>
#include <limits>

#include "ui/export/figure_numbers.h"

namespace attnlab {
namespace {

std::string cell(double v, int decimals)
{
    return figureCellNumber(v, decimals).toStdString();
}

TEST(FigureNumbers, CellNumbersKeepTwoSignificantDigits)
{
    EXPECT_EQ(cell(0.0042, 3), "0.0042");
    EXPECT_EQ(cell(0.0042, 2), "0.0042");
    EXPECT_EQ(cell(0.042, 2), "0.042");
    EXPECT_EQ(cell(0.25, 1), "0.25");
    EXPECT_EQ(cell(0.25, 0), "0.25");
    EXPECT_EQ(cell(3.4, 0), "3.4");
    EXPECT_EQ(cell(0.5, 3), "0.500");
    EXPECT_EQ(cell(-0.00042, 3), "-0.00042");
    EXPECT_EQ(cell(12.345, 1), "12.3");
    EXPECT_EQ(cell(1234.4, 0), "1234");
}

TEST(FigureNumbers, TinyValuesSwitchToExponentForm)
{
    EXPECT_EQ(cell(0.0000042, 3), "4.2e-06");
    EXPECT_EQ(cell(-3e-7, 3), "-3.0e-07");
    EXPECT_EQ(cell(1e-300, 2), "1.0e-300");
}

TEST(FigureNumbers, ZeroNeverCarriesAMinusSign)
{
    EXPECT_EQ(cell(0.0, 3), "0.000");
    EXPECT_EQ(cell(-0.0, 3), "0.000");
    EXPECT_EQ(cell(-0.0, 0), "0");
    EXPECT_EQ(figureShortNumber(-0.0).toStdString(), "0");
    EXPECT_EQ(figureShortNumber(-1e-20, 3).toStdString(), "-1e-20");
    EXPECT_EQ(figureShortNumber(-0.25).toStdString(), "-0.25");
    EXPECT_EQ(withoutNegativeZero(QStringLiteral("-0.000")).toStdString(), "0.000");
    EXPECT_EQ(withoutNegativeZero(QStringLiteral("-0")).toStdString(), "0");
    EXPECT_EQ(withoutNegativeZero(QStringLiteral("-0.0e+00")).toStdString(), "0.0e+00");
    EXPECT_EQ(withoutNegativeZero(QStringLiteral("-0.001")).toStdString(), "-0.001");
    EXPECT_EQ(withoutNegativeZero(QStringLiteral("-1e-05")).toStdString(), "-1e-05");
}

TEST(FigureNumbers, NonFiniteValuesPrintAsQtDoes)
{
    EXPECT_EQ(cell(std::numeric_limits<double>::infinity(), 3), "inf");
    EXPECT_EQ(cell(std::numeric_limits<double>::quiet_NaN(), 3), "nan");
}

}  // namespace
}  // namespace attnlab
