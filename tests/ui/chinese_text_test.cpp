// SPDX-License-Identifier: GPL-3.0-or-later
// Chinese text as a Chinese reader expects it: no ASCII space between two Chinese characters
// (also once a placeholder between Chinese text is filled with a Chinese name), no doubled
// quotation marks, in the catalogue, the lessons and the guide; the lesson panel wraps Chinese
// lines only where a line is full; and every panel a lesson's text names is one its layout
// shows, or the text says where to open it.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>
#include <QXmlStreamReader>

#include "ui/panels/lesson_panel.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/views/help_dialogs.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

// Han characters, CJK and full-width punctuation, and the curly quotes Chinese text uses.
const QString kCjk = QStringLiteral(
    "[\\x{3400}-\\x{4DBF}\\x{4E00}-\\x{9FFF}\\x{F900}-\\x{FAFF}"
    "\\x{3000}-\\x{303F}\\x{FF00}-\\x{FFEF}“”‘’]");
const QString kHan = QStringLiteral("[\\x{3400}-\\x{4DBF}\\x{4E00}-\\x{9FFF}\\x{F900}-\\x{FAFF}]");

// The defects of one Chinese text, each with a little context.
QStringList chineseDefects(const QString& text)
{
    QStringList found;
    auto around = [&text](qsizetype at, qsizetype length) {
        return QStringLiteral("“…%1…”").arg(text.mid(std::max<qsizetype>(0, at - 8), length + 16));
    };
    static const QRegularExpression space(kCjk + QStringLiteral(" +(?=") + kCjk + QLatin1Char(')'));
    for (const QRegularExpressionMatch& m : space.globalMatch(text))
        found << QStringLiteral("a space between Chinese characters in ") +
                     around(m.capturedStart(), m.capturedLength());
    static const QRegularExpression doubled(QStringLiteral("““|””|‘‘|’’|「「|」」|\"\""));
    for (const QRegularExpressionMatch& m : doubled.globalMatch(text))
        found << QStringLiteral("doubled quotation marks in ") +
                     around(m.capturedStart(), m.capturedLength());
    // A placeholder between Chinese text is filled with a name as often as with a number: a
    // space beside it puts a space between Chinese characters ("对 未命名的会话 的"). A number
    // after 第/头/键/… or before a measure word (个, 层, 行, …) is written with spaces.
    static const QRegularExpression placeholder(QStringLiteral("(") + kHan +
                                                QStringLiteral(")( *)(%\\d+|%n)( *)(") + kHan +
                                                QStringLiteral(")"));
    static const QString numberBefore = QStringLiteral("第到约共头键询置值量子率宽重化达");
    static const QString numberAfter = QStringLiteral("个层行列步课次倍秒毫字处点项位版到");
    for (const QRegularExpressionMatch& m : placeholder.globalMatch(text)) {
        if (m.captured(2).isEmpty() && m.captured(4).isEmpty()) continue;
        if (numberBefore.contains(m.captured(1)) || numberAfter.contains(m.captured(5))) continue;
        found << QStringLiteral("a space beside a placeholder between Chinese text in ") +
                     around(m.capturedStart(), m.capturedLength());
    }
    return found;
}

QString sourcePath(const QString& relative)
{
    return QDir(QStringLiteral(ATTNLAB_SOURCE_DIR)).filePath(relative);
}

// Every translation (each plural form) of the Chinese catalogue, with its source.
QList<QPair<QString, QString>> chineseTranslations()
{
    QFile file(sourcePath(QStringLiteral("resources/translations/attnlab_zh_CN.ts")));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    QList<QPair<QString, QString>> out;
    QXmlStreamReader xml(&file);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            QString text;
            QStringList forms;
            while (!(xml.isEndElement() && xml.name() == QLatin1String("translation"))) {
                xml.readNext();
                if (xml.isCharacters()) text += xml.text();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                    forms << xml.readElementText();
            }
            if (forms.isEmpty()) forms << text;
            for (const QString& f : forms) out.append({source, f});
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    return out;
}

TEST(ChineseText, TheCheckFindsEachKindOfDefect)
{
    EXPECT_EQ(chineseDefects(QStringLiteral("对 %1 的未保存更改")).size(), 1);
    EXPECT_EQ(chineseDefects(QStringLiteral("差值 之后")).size(), 1);
    EXPECT_EQ(chineseDefects(QStringLiteral("打开课程““它”指谁")).size(), 1);
    EXPECT_TRUE(chineseDefects(QStringLiteral("第 %1 层，头 %2：%3 个键")).isEmpty());
    EXPECT_TRUE(chineseDefects(QStringLiteral("按 Ctrl+P 固定权重；d_k 为 16。")).isEmpty());
}

TEST(ChineseText, TheCatalogueHasNoSpaceBetweenChineseCharactersNorDoubledQuotes)
{
    const QList<QPair<QString, QString>> all = chineseTranslations();
    ASSERT_GT(all.size(), 300);
    for (const auto& [source, translation] : all) {
        for (const QString& d : chineseDefects(translation))
            ADD_FAILURE() << d.toStdString() << "\n  (source: " << source.toStdString() << ")";
    }
}

TEST(ChineseText, EveryCatalogueMessageHasTheContextTheProgramLooksItUpIn)
{
    // A tr() that lupdate cannot place (through an alias such as `using S = StageContent`)
    // lands in an empty context, which the program never asks: its text stays English.
    QFile file(sourcePath(QStringLiteral("resources/translations/attnlab_zh_CN.ts")));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_FALSE(QString::fromUtf8(file.readAll()).contains(QStringLiteral("<name></name>")));
}

TEST(ChineseText, TheLessonsAndTheGuideHaveNoSpaceBetweenChineseCharactersNorDoubledQuotes)
{
    setLessonLanguage(QStringLiteral("zh"));
    ASSERT_FALSE(lessons().isEmpty());
    for (const Lesson& l : lessons()) {
        SCOPED_TRACE(l.id.toStdString());
        for (const QString& text : {l.titleZh, l.summaryZh, l.textZh, l.numberedTitle()})
            for (const QString& d : chineseDefects(text)) ADD_FAILURE() << d.toStdString();
    }
    const QString guide = GuideDialog::guideText(QStringLiteral("zh_CN"));
    ASSERT_FALSE(guide.isEmpty());
    for (const QString& d : chineseDefects(guide)) ADD_FAILURE() << "guide: " << d.toStdString();
    setLessonLanguage(QString());
}

TEST(ChineseText, TheLessonPanelWrapsChineseLinesOnlyWhereTheLineIsFull)
{
    // Curly quotes glued their neighbours into one unbreakable run, so lines ended early:
    // "…含义：有生命、地" / "点、“累”、“宽”、代词、虚词。在真实模型" / "里，…".
    setLessonLanguage(QStringLiteral("zh"));
    LessonPanel panel;
    panel.resize(360, 900);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto* browser = panel.findChild<QTextBrowser*>();
    ASSERT_NE(browser, nullptr);
    const QFontMetricsF metrics(browser->font());
    const qreal em = metrics.horizontalAdvance(QChar(0x4E2D));  // 中
    int checked = 0;
    for (const char* id : {"coreference-tired", "coreference-wide", "hand-exercise", "scaling"}) {
        panel.setLesson(QLatin1String(id));
        QCoreApplication::processEvents();
        QTextDocument* doc = browser->document();
        ASSERT_GT(doc->textWidth(), 200);
        (void)doc->size();  // lays the whole text out
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            QTextLayout* layout = b.layout();
            const QString text = b.text();
            for (int i = 0; i + 1 < layout->lineCount(); ++i) {
                const QTextLine line = layout->lineAt(i);
                const int at = layout->lineAt(i + 1).textStart();
                const QChar next = at < text.size() ? text.at(at) : QChar();
                // A Latin word or number that does not fit moves down whole: that gap is right.
                if (next.unicode() < 0x2000) continue;
                ++checked;
                const qreal gap = line.width() - line.naturalTextWidth();
                // Two characters may move down with a closing mark that may not start a line.
                EXPECT_LT(gap, 3 * em)
                    << id << ": the line “"
                    << text.mid(line.textStart(), line.textLength()).toStdString()
                    << "” ends early, before “"
                    << text.mid(layout->lineAt(i + 1).textStart(), 8).toStdString() << "”";
            }
        }
    }
    EXPECT_GT(checked, 10);
    setLessonLanguage(QString());
}

// The docks' titles as the window shows them in `language`.
QHash<QString, QString> dockTitles(const QString& language)
{
    setLanguage(language);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    MainWindow window;
    QHash<QString, QString> titles;
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        titles.insert(d->objectName(), d->windowTitle());
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    return titles;
}

QStringList layoutDocks(const Lesson& lesson)
{
    QStringList docks;
    for (const QList<QStringList>* area :
         {&lesson.layout.left, &lesson.layout.right, &lesson.layout.bottom}) {
        for (const QStringList& group : *area) docks << group;
    }
    return docks;
}

// Whether `text` names the panel `title`: "the Controls panel", "「控制」面板", or a title of
// several words (or of three or more Chinese characters) anywhere.
bool namesPanel(const QString& text, const QString& title, bool chinese)
{
    const QString t = QRegularExpression::escape(title);
    const QString pattern =
        chinese ? (title.size() >= 3 ? t : QStringLiteral("「%1」面板|%1面板").arg(t))
                : (title.contains(QLatin1Char(' '))
                       ? QStringLiteral("\\b%1").arg(t)
                       : QStringLiteral("\\b%1\\b[\"”*]*\\s+(panel|dock)").arg(t));
    return text.contains(QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption));
}

TEST(ChineseText, EachPanelALessonNamesIsInItsLayoutOrTheTextSaysWhereToOpenIt)
{
    const QHash<QString, QString> en = dockTitles(QStringLiteral("en"));
    const QHash<QString, QString> zh = dockTitles(QStringLiteral("zh_CN"));
    ASSERT_EQ(zh.value(QStringLiteral("MatricesDock")), QStringLiteral("矩阵"));
    for (const Lesson& lesson : lessons()) {
        const QStringList shown = layoutDocks(lesson);
        for (const bool chinese : {false, true}) {
            const QString text = chinese ? lesson.textZh : lesson.textEn;
            const QHash<QString, QString>& titles = chinese ? zh : en;
            for (auto it = titles.begin(); it != titles.end(); ++it) {
                const QString& dock = it.key();
                // The lesson's own text; the Model panel comes with every head of a real
                // model (MainWindow lays it out then).
                if (dock == QLatin1String("LessonDock") || dock == QLatin1String("ModelDock"))
                    continue;
                if (!namesPanel(text, it.value(), chinese) || shown.contains(dock)) continue;
                const QString title = QRegularExpression::escape(it.value());
                const QString where =
                    chinese ? QStringLiteral("视图 ▸ 面板 ▸ %1|课程 ▸ %1").arg(title)
                            : QStringLiteral("View ▸ Panels ▸ %1|Lessons ▸ %1").arg(title);
                EXPECT_TRUE(text.contains(QRegularExpression(where)))
                    << lesson.id.toStdString() << (chinese ? " (zh)" : " (en)") << " names the "
                    << it.value().toStdString() << " panel, which its layout hides ("
                    << dock.toStdString() << "), and does not say where to open it";
            }
        }
    }
}

}  // namespace
}  // namespace attnlab
