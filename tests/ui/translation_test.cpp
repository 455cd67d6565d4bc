// SPDX-License-Identifier: GPL-3.0-or-later
// The translations: every entry of the .ts files is finished, the compiled catalogue is
// embedded at :/i18n, and switching the language rebuilds the window around the same
// document (session, undo stack, pinned weights).
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTranslator>
#include <QXmlStreamReader>

#include "ui/document/document.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

QString tsPath(const char* name)
{
    const QDir here = QFileInfo(QStringLiteral(__FILE__)).absoluteDir();
    return here.absoluteFilePath(QStringLiteral("../../resources/translations/") +
                                 QLatin1String(name));
}

struct TsMessage {
    QString context;
    QString source;
    QString type;              // the translation's type attribute ("unfinished", ...)
    QStringList translations;  // one, or the numerus forms
    bool hasTranslation = false;
};

QList<TsMessage> readTs(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    QList<TsMessage> out;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            m = TsMessage{context, {}, {}, {}, false};
        } else if (name == QLatin1String("source")) {
            m.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            m.hasTranslation = true;
            m.type = xml.attributes().value(QLatin1String("type")).toString();
            QString text;
            while (!(xml.isEndElement() && xml.name() == QLatin1String("translation"))) {
                xml.readNext();
                if (xml.isCharacters()) text += xml.text();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                    m.translations << xml.readElementText();
            }
            if (m.translations.isEmpty()) m.translations << text;
            out << m;
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    return out;
}

QSet<QString> placeholders(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
    QSet<QString> found;
    for (const QRegularExpressionMatch& m : re.globalMatch(text)) found << m.captured(0);
    return found;
}

bool hasAccelerator(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("&[^&\\s]"));
    return text.contains(re);
}

QMenu* menuTitled(MainWindow& window, const QString& title)
{
    for (QAction* a : window.menuBar()->actions()) {
        if (a->menu() && a->text() == title) return a->menu();
    }
    return nullptr;
}

void applyLanguageChange()
{
    // Qt posts QEvent::LanguageChange to the windows; MainWindow rebuilds on it.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

TEST(Translations, ChineseTsFile_EveryMessageIsTranslatedWithItsPlaceholders)
{
    const QList<TsMessage> messages = readTs(tsPath("attnlab_zh_CN.ts"));
    ASSERT_GT(messages.size(), 300);
    for (const TsMessage& m : messages) {
        const std::string where = (m.context + QStringLiteral(" | ") + m.source).toStdString();
        EXPECT_TRUE(m.hasTranslation) << where;
        EXPECT_TRUE(m.type.isEmpty()) << "type=\"" << m.type.toStdString() << "\": " << where;
        for (const QString& t : m.translations) {
            EXPECT_FALSE(t.trimmed().isEmpty()) << where;
            EXPECT_EQ(placeholders(t), placeholders(m.source)) << where;
            if (hasAccelerator(m.source)) {
                EXPECT_TRUE(hasAccelerator(t)) << where;
            }
        }
    }
}

TEST(Translations, EnglishTsFile_HoldsFinishedPluralForms)
{
    const QList<TsMessage> messages = readTs(tsPath("attnlab_en.ts"));
    for (const TsMessage& m : messages) {
        EXPECT_TRUE(m.type.isEmpty()) << m.source.toStdString();
        EXPECT_EQ(m.translations.size(), 2) << m.source.toStdString();
    }
}

TEST(Translations, CatalogueLoadsFromTheEmbeddedResource)
{
    ASSERT_TRUE(QFile::exists(QStringLiteral(":/i18n/attnlab_zh_CN.qm")));
    ASSERT_TRUE(QFile::exists(QStringLiteral(":/i18n/attnlab_en.qm")));
    QTranslator zh;
    ASSERT_TRUE(zh.load(QStringLiteral("attnlab_zh_CN"), QStringLiteral(":/i18n")));
    EXPECT_EQ(zh.translate("attnlab::WindowActions", "&File"), QStringLiteral("文件(&F)"));
    QTranslator en;
    ASSERT_TRUE(en.load(QStringLiteral("attnlab_en"), QStringLiteral(":/i18n")));
    EXPECT_EQ(en.translate("attnlab::Figure", "%n vector edit(s)", nullptr, 1),
              QStringLiteral("%n vector edit"));
}

TEST(Translations, SetLanguage_InstallsAttnLabAndQtCataloguesAndRemovesThem)
{
    setLanguage(QStringLiteral("zh_CN"));
    EXPECT_EQ(currentLanguage(), QStringLiteral("zh_CN"));
    EXPECT_EQ(QCoreApplication::translate("attnlab::WindowActions", "&Edit"),
              QStringLiteral("编辑(&E)"));
    // Qt's own strings (the buttons of QMessageBox) come from qtbase_zh_CN.qm.
    EXPECT_NE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    setLanguage(QStringLiteral("en"));
    EXPECT_EQ(currentLanguage(), QStringLiteral("en"));
    EXPECT_EQ(QCoreApplication::translate("attnlab::WindowActions", "&Edit"),
              QStringLiteral("&Edit"));
    EXPECT_EQ(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    applyLanguageChange();
}

TEST(Translations, SwitchingLanguage_RebuildsTheMenusAndKeepsTheDocument)
{
    setLanguage(QStringLiteral("en"));
    MainWindow window;
    window.show();
    Document* doc = window.document();
    ASSERT_NE(menuTitled(window, QStringLiteral("&File")), nullptr);
    doc->select(0, 1);
    doc->pinWeights();
    QAction* twice = nullptr;
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_D)) twice = a;
    }
    ASSERT_NE(twice, nullptr);
    twice->trigger();
    doc->flush();
    const attn::Matrix edited = doc->result().heads[0].weights;
    const int undoCount = doc->undoStack()->count();
    const int docks = int(window.findChildren<QDockWidget*>().size());
    ASSERT_GE(undoCount, 1);

    setLanguage(QStringLiteral("zh_CN"));
    applyLanguageChange();
    EXPECT_NE(menuTitled(window, QStringLiteral("文件(&F)")), nullptr);
    EXPECT_EQ(menuTitled(window, QStringLiteral("&File")), nullptr);
    EXPECT_EQ(window.centralTabs()->tabText(0), QStringLiteral("权重(&W)"));
    EXPECT_EQ(int(window.findChildren<QDockWidget*>().size()), docks);
    EXPECT_EQ(window.document(), doc);
    EXPECT_EQ(doc->undoStack()->count(), undoCount);
    EXPECT_EQ(doc->result().heads[0].weights, edited);
    EXPECT_TRUE(doc->pinnedWeights().has_value());
    EXPECT_EQ(doc->selectedColumn(), 1);
    // The undo step's label follows the language too (it stayed English before).
    const QString zhLabel = QCoreApplication::translate("attnlab::Commands", "Edit key %1")
                                .arg(doc->selectedColumn() + 1);
    EXPECT_NE(zhLabel, QStringLiteral("Edit key 2"));
    EXPECT_EQ(doc->undoStack()->undoText(), zhLabel);

    setLanguage(QStringLiteral("en"));
    applyLanguageChange();
    EXPECT_NE(menuTitled(window, QStringLiteral("&File")), nullptr);
    EXPECT_EQ(menuTitled(window, QStringLiteral("文件(&F)")), nullptr);
    EXPECT_EQ(doc->undoStack()->count(), undoCount);
    EXPECT_EQ(doc->result().heads[0].weights, edited);

    // The rebuilt actions still drive the same undo stack.
    QAction* undo = nullptr;
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut() == QKeySequence::Undo) undo = a;
    }
    ASSERT_NE(undo, nullptr);
    undo->trigger();
    doc->flush();
    EXPECT_EQ(doc->undoStack()->index(), undoCount - 1);
    EXPECT_NE(doc->result().heads[0].weights, edited);
}

}  // namespace
}  // namespace attnlab
