// SPDX-License-Identifier: GPL-3.0-or-later
// Export ▸ Figure's dialog as a user reads it, in both languages.
#include <gtest/gtest.h>

#include <QLabel>

#include "support/export_test_support.h"
#include "ui/export/figure_dialog.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

// What a QLabel shows: with a buddy, "&S" is a mnemonic (S underlined) and "&&" an ampersand;
// without one, every "&" is printed as it is.
QString visibleText(const QLabel& label)
{
    QString text = label.text();
    if (label.buddy() == nullptr) return text;
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'&' && i + 1 < text.size()) ++i;
        out += text[i];
    }
    return out;
}

QStringList labelsOfDialog()
{
    const Session session = testing::exportSession();
    attn::AttentionResult result;
    EXPECT_TRUE(attn::computeAttention<double>(session.input, result).ok());
    FigureSource source;
    source.session = &session;
    source.result = &result;
    FigureDialog dialog(source, FigureExportSettings{});
    QStringList out;
    for (const QLabel* l : dialog.findChildren<QLabel*>())
        if (!l->text().isEmpty()) out << visibleText(*l);
    return out;
}

TEST(ExportDialog, LabelsShowNoLiteralAmpersandInEitherLanguage)
{
    for (const char* code : {"en", "zh_CN"}) {
        setLanguage(QLatin1String(code));
        const QStringList labels = labelsOfDialog();
        EXPECT_GE(labels.size(), 4) << code;
        for (const QString& text : labels)
            EXPECT_FALSE(text.contains(u'&')) << code << ": \"" << text.toStdString() << '"';
    }
    setLanguage(QStringLiteral("en"));
}

}  // namespace
}  // namespace attnlab
