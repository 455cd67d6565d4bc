// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Log-scale axis ticks with readable labels for the lesson plots: powers of ten as 10³,
// plain numbers (1,000) or data sizes (1 GiB). QCustomPlot's own "eb" format prints 1E+03
// with Qt 6's locale.

#include <qcustomplot.h>

namespace attnlab {

class LogTicker : public QCPAxisTickerLog {
public:
    enum class Labels { Powers, Numbers, Bytes };
    explicit LogTicker(Labels labels, double base = 10.0);

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    Labels labels_;
};

// Makes `axis` logarithmic with LogTicker labels.
void setLogAxis(QCPAxis* axis, LogTicker::Labels labels, double base = 10.0);

// "10³", "10⁻⁴": a power of ten with superscript digits.
QString powerOfTen(int exponent);

}  // namespace attnlab
