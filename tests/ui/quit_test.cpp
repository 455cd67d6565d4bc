// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Quit closes every window (the workbench, the model window, each long-sequence
// window) after at most one question that lists all unsaved work; a lesson opened and left as
// it is counts as saved, and the window is titled by the lesson's name.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QPointer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "core/random_init.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/long/long_document.h"
#include "ui/long/long_window.h"
#include "ui/model/model_window.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/readers/session_file.h"
#include "ui/window/file_actions.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

Session longSession(long n)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = 8;
    spec.dK = 8;
    spec.dV = 4;
    spec.seed = 3;
    Session s;
    s.input = attn::randomInput(spec);
    s.dModel = 8;
    for (long i = 0; i < n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    return s;
}

bool idle(const LongDocument* doc)
{
    return QTest::qWaitFor([doc] { return !doc->computing(); }, 60000);
}

QAction* quitAction(MainWindow& window)
{
    // By its text: the offscreen platform has no key sequence for QKeySequence::Quit.
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == QLatin1String("&Quit")) return a;
    return nullptr;
}

// A long-sequence window as File ▸ Open makes one (deleted when it closes).
QPointer<LongWindow> openLong(const QString& path = QString())
{
    auto* w = new LongWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    EXPECT_TRUE(w->open(longSession(300), path));
    w->show();
    EXPECT_TRUE(idle(w->document()));
    return w;
}

// Quitting saves the workbench's layout; later tests in this process start from none.
struct ForgetLayout {
    ~ForgetLayout() { QSettings().remove(QStringLiteral("window")); }
};

template <class W>
bool gone(const QPointer<W>& w)
{
    return QTest::qWaitFor(
        [&w] {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            return w.isNull() || !w->isVisible();
        },
        5000);
}

TEST(Quit, WithNothingUnsavedItAsksNothingAndClosesEveryWindow)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    QPointer<QWidget> model = ModelWindow::instance();
    model->show();
    QPointer<LongWindow> longWindow = openLong();
    QAction* quit = quitAction(window);
    ASSERT_NE(quit, nullptr);
    quit->trigger();
    EXPECT_TRUE(dialogs.questions.isEmpty())
        << dialogs.questions.join(QLatin1Char('\n')).toStdString();
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model)) << "the model window stays open";
    EXPECT_TRUE(gone(longWindow)) << "the long-sequence window stays open";
}

TEST(Quit, OneQuestionListsTheUnsavedWorkOfEveryWindowAndCancelKeepsThemAll)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    QPointer<QWidget> model = ModelWindow::instance();
    model->show();
    Document* doc = window.document();
    doc->select(0, 1);
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 1;
    e.scale = 2.0;
    ASSERT_TRUE(doc->editVector(e));
    doc->flush();
    QTemporaryDir dir;
    QPointer<LongWindow> edited = openLong(dir.filePath(QStringLiteral("long.attnlab.json")));
    QPointer<LongWindow> untouched = openLong(dir.filePath(QStringLiteral("other.attnlab.json")));
    ASSERT_TRUE(edited && untouched);
    ASSERT_TRUE(edited->document()->scaleKey(0, 5, 2.0));
    ASSERT_TRUE(idle(edited->document()));
    int longQuestions = 0;
    edited->setCloseQuestion([&longQuestions] {
        ++longQuestions;
        return QMessageBox::Cancel;
    });

    dialogs.answer = QMessageBox::Cancel;
    quitAction(window)->trigger();
    ASSERT_EQ(dialogs.questions.size(), 1);
    const QString question = dialogs.questions.first();
    EXPECT_TRUE(question.contains(QStringLiteral("Untitled"))) << question.toStdString();
    EXPECT_TRUE(question.contains(QStringLiteral("long.attnlab.json"))) << question.toStdString();
    EXPECT_FALSE(question.contains(QStringLiteral("other.attnlab.json"))) << question.toStdString();
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(model && model->isVisible());
    EXPECT_TRUE(edited && edited->isVisible());

    dialogs.answer = QMessageBox::Discard;
    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 2);  // one more question, and no other
    EXPECT_EQ(longQuestions, 0);
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model));
    EXPECT_TRUE(gone(edited));
    EXPECT_TRUE(gone(untouched));
}

TEST(Quit, SaveAllWritesEveryUnsavedSessionThenCloses)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    QTemporaryDir dir;
    dialogs.savePath = dir.filePath(QStringLiteral("bench.attnlab.json"));
    dialogs.answer = QMessageBox::SaveAll;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 0;
    e.scale = 2.0;
    ASSERT_TRUE(window.document()->editVector(e));
    window.document()->flush();
    const QString longPath = dir.filePath(QStringLiteral("long.attnlab.json"));
    QPointer<LongWindow> edited = openLong(longPath);
    ASSERT_TRUE(edited->document()->scaleKey(0, 7, 2.0));
    ASSERT_TRUE(idle(edited->document()));

    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 1);
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(edited));
    SessionFile bench, longFile;
    FileError error;
    ASSERT_TRUE(readSessionFile(dialogs.savePath, bench, error)) << error.message().toStdString();
    EXPECT_EQ(bench.session.input.edits.size(), 1U);
    ASSERT_TRUE(readSessionFile(longPath, longFile, error)) << error.message().toStdString();
    ASSERT_EQ(longFile.session.input.edits.size(), 1U);
    EXPECT_EQ(longFile.session.input.edits[0].index, 7);
}

TEST(LessonTitle, AnUnchangedLessonAsksNothingAndTheWindowIsTitledByItsName)
{
    testing::isolateSettings();
    setLessonLanguage(QStringLiteral("en"));
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    auto* lessons = window.findChild<LessonActions*>();
    ASSERT_NE(lessons, nullptr);
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("hand-exercise")));
    window.document()->flush();
    EXPECT_TRUE(window.windowTitle().startsWith(
        QStringLiteral("Lesson 1 — The hand exercise: double one key")))
        << window.windowTitle().toStdString();
    EXPECT_FALSE(window.windowTitle().contains(QStringLiteral("Untitled")));
    EXPECT_FALSE(window.isWindowModified());
    EXPECT_FALSE(window.fileActions()->hasUnsavedChanges());
    EXPECT_TRUE(window.fileActions()->confirmDiscard());
    EXPECT_TRUE(dialogs.questions.isEmpty())
        << dialogs.questions.join(QLatin1Char('\n')).toStdString();
    // Starting it again is not a change either; undo still goes back.
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("hand-exercise")));
    EXPECT_FALSE(window.fileActions()->hasUnsavedChanges());
    EXPECT_TRUE(window.document()->undoStack()->canUndo());

    // A change is asked about, by the lesson's name.
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 2;
    e.scale = 2.0;
    ASSERT_TRUE(window.document()->editVector(e));
    window.document()->flush();
    EXPECT_TRUE(window.isWindowModified());
    dialogs.answer = QMessageBox::Cancel;
    EXPECT_FALSE(window.fileActions()->confirmDiscard());
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.first().startsWith(QStringLiteral("Lesson 1 — ")))
        << dialogs.questions.first().toStdString();
    setLessonLanguage(QString());
}

TEST(LessonTitle, UnsavedWorkBeforeALessonIsStillAskedAbout)
{
    testing::isolateSettings();
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 0;
    e.scale = 2.0;
    ASSERT_TRUE(window.document()->editVector(e));
    window.document()->flush();
    ASSERT_TRUE(window.findChild<LessonActions*>()->openLesson(QStringLiteral("causal")));
    EXPECT_TRUE(window.fileActions()->hasUnsavedChanges());
}

}  // namespace
}  // namespace attnlab
