// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/log_ticker.h"

#include <cmath>

namespace attnlab {

LogTicker::LogTicker(Labels labels, double base) : labels_(labels)
{
    setLogBase(base);
    setSubTickCount(base > 10.0 ? 4 : (base == 10.0 ? 8 : 0));
}

QString powerOfTen(int exponent)
{
    static const char16_t digits[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString power;
    for (const QChar c : QString::number(std::abs(exponent)))
        power.append(QChar(digits[c.digitValue()]));
    return QStringLiteral("10") + (exponent < 0 ? QStringLiteral("⁻") : QString()) + power;
}

QString LogTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    switch (labels_) {
    case Labels::Powers: {
        const double e = std::log10(tick);
        if (std::abs(e - std::round(e)) < 1e-9) return powerOfTen(static_cast<int>(std::round(e)));
        break;
    }
    case Labels::Numbers:
        if (tick >= 1.0) return QLocale().toString(std::llround(tick));
        break;
    case Labels::Bytes:
        return QLocale().formattedDataSize(std::llround(tick), 0, QLocale::DataSizeIecFormat);
    }
    return QCPAxisTickerLog::getTickLabel(tick, locale, formatChar, precision);
}

void setLogAxis(QCPAxis* axis, LogTicker::Labels labels, double base)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<LogTicker>::create(labels, base));
}

}  // namespace attnlab
