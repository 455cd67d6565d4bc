// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/lesson_figures.h"

#include <gtest/gtest.h>

#include <QFile>

namespace attnlab::testing {

QString lessonMarkdown(const QString& id, const char* language)
{
    QFile f(QStringLiteral(":/lessons/%1.%2.md").arg(id, QLatin1String(language)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    return QString::fromUtf8(f.readAll());
}

void expectInBothTexts(const QString& id, const QString& figure)
{
    for (const char* language : {"en", "zh"})
        EXPECT_TRUE(lessonMarkdown(id, language).contains(figure))
            << language << ": " << figure.toStdString();
}

QString decimals(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

}  // namespace attnlab::testing
