// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Quit closes every window (the workbench, the model window) after at most one
// question that lists all unsaved work (a model trained in the model window and not saved
// too); a lesson opened and left as it is counts as saved, and the window is titled by the
// lesson's name, or by the model's head once Open in Workbench replaced the lesson.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "support/model_folder.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/model/head_link.h"
#include "ui/model/model_document.h"
#include "ui/model/model_train_run.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/readers/session_file.h"
#include "ui/window/file_actions.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

QAction* quitAction(MainWindow& window)
{
    // By its text: the offscreen platform has no key sequence for QKeySequence::Quit.
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == QLatin1String("&Quit")) return a;
    return nullptr;
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
    QPointer<QWidget> model = window.modelWindows()->window();
    model->show();
    QAction* quit = quitAction(window);
    ASSERT_NE(quit, nullptr);
    quit->trigger();
    EXPECT_TRUE(dialogs.questions.isEmpty())
        << dialogs.questions.join(QLatin1Char('\n')).toStdString();
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model)) << "the model window stays open";
}

TEST(Quit, OneQuestionListsTheUnsavedWorkOfEveryWindowAndCancelKeepsThemAll)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    QPointer<QWidget> model = window.modelWindows()->window();
    model->show();
    Document* doc = window.document();
    doc->select(0, 1);
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 1;
    e.scale = 2.0;
    ASSERT_TRUE(doc->editVector(e));
    doc->flush();

    dialogs.answer = QMessageBox::Cancel;
    quitAction(window)->trigger();
    ASSERT_EQ(dialogs.questions.size(), 1);
    const QString question = dialogs.questions.first();
    EXPECT_TRUE(question.contains(QStringLiteral("Untitled"))) << question.toStdString();
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(model && model->isVisible());

    dialogs.answer = QMessageBox::Discard;
    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 2);  // one more question, and no other
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model));
}

TEST(Quit, SaveAllWritesTheUnsavedSessionThenCloses)
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

    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 1);
    EXPECT_FALSE(window.isVisible());
    SessionFile bench;
    FileError error;
    ASSERT_TRUE(readSessionFile(dialogs.savePath, bench, error)) << error.message().toStdString();
    EXPECT_EQ(bench.session.input.edits.size(), 1U);
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

// A model small enough to take a step in a millisecond (d 16, context 16, two heads), one
// step trained with the trainer's own button.
bool trainOneStep(ModelTrainerPanel& trainer)
{
    for (QLabel* l : trainer.findChildren<QLabel*>()) {
        auto* box = qobject_cast<QSpinBox*>(l->buddy());
        if (!box) continue;
        if (l->text() == QLatin1String("&Width:") || l->text() == QLatin1String("&Context:"))
            box->setValue(16);
        if (l->text() == QLatin1String("&Heads:")) box->setValue(2);
    }
    trainer.stepButton()->click();
    return QTest::qWaitFor(
        [&] { return trainer.run() && trainer.run()->settledRun() && trainer.run()->steps() == 1; },
        testing::kTrainerWaitMs);
}

TEST(Quit, ATrainedModelNotSavedIsListedByNameAndSaveAllWritesIt)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    QPointer<ModelWindow> model = window.modelWindows()->window();
    model->show();
    ModelTrainerPanel* trainer = model->trainer();
    ASSERT_TRUE(trainOneStep(*trainer));
    ASSERT_FALSE(window.fileActions()->hasUnsavedChanges());  // only the model is unsaved
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("trained"));
    int folderAsked = 0;
    ModelTrainerDialogs trainerDialogs;
    trainerDialogs.saveFolder = [&](const QString&) {
        ++folderAsked;
        return folder;
    };
    trainer->setDialogs(trainerDialogs);

    dialogs.answer = QMessageBox::Cancel;
    quitAction(window)->trigger();
    ASSERT_EQ(dialogs.questions.size(), 1) << "the trained model was not asked about";
    EXPECT_TRUE(dialogs.questions.first().contains(
        QStringLiteral("Trained model, step 1 of 3000 (the model trainer)")))
        << dialogs.questions.first().toStdString();
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(model && model->isVisible());
    EXPECT_EQ(folderAsked, 0);

    dialogs.answer = QMessageBox::SaveAll;
    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 2);
    EXPECT_EQ(folderAsked, 1);
    EXPECT_TRUE(QFileInfo(QDir(folder).filePath(QStringLiteral("model.safetensors"))).isFile());
    EXPECT_TRUE(QFileInfo(QDir(folder).filePath(QStringLiteral("config.json"))).isFile());
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model));
}

TEST(Quit, ATrainedModelAlreadySavedAsksNothing_NotChoosingAFolderKeepsEveryWindow)
{
    testing::isolateSettings();
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    QPointer<ModelWindow> model = window.modelWindows()->window();
    model->show();
    ModelTrainerPanel* trainer = model->trainer();
    ASSERT_TRUE(trainOneStep(*trainer));

    // Save all, then no folder chosen: nothing quits.
    ModelTrainerDialogs cancelled;
    cancelled.saveFolder = [](const QString&) { return QString(); };
    trainer->setDialogs(cancelled);
    dialogs.answer = QMessageBox::SaveAll;
    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(model && model->isVisible());

    // Saved with the trainer's own Save Model…: nothing left to ask about.
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(trainer->saveTo(dir.filePath(QStringLiteral("saved")), error))
        << error.toStdString();
    quitAction(window)->trigger();
    EXPECT_EQ(dialogs.questions.size(), 1) << dialogs.questions.last().toStdString();
    EXPECT_FALSE(window.isVisible());
    EXPECT_TRUE(gone(model));
}

TEST(LessonTitle, AHeadOpenedInTheWorkbenchOverALessonNamesTheTitleAndTheQuitQuestion)
{
    testing::isolateSettings();
    setLessonLanguage(QStringLiteral("en"));
    const ForgetLayout forget;
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    ASSERT_TRUE(window.findChild<LessonActions*>()->openLesson(QStringLiteral("hand-exercise")));
    window.document()->flush();
    ASSERT_TRUE(window.windowTitle().startsWith(QStringLiteral("Lesson 1 — ")));

    QTemporaryDir dir;
    ModelWindow* model = window.modelWindows()->window();
    ModelWindowDialogs d;
    d.warn = [](const QString&, const QString&) {};
    model->setDialogs(d);
    ASSERT_TRUE(model->openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
    model->setText(QStringLiteral("the cat sat."));
    ASSERT_TRUE(testing::settled(model->document()));
    ASSERT_TRUE(model->document()->openInWorkbench(1, 2));
    window.headLink()->flush();
    window.document()->flush();
    ASSERT_TRUE(window.document()->session().provenance.has_value());

    const QString head = QStringLiteral("Layer 2, head 3 of gpt2");
    EXPECT_TRUE(window.windowTitle().startsWith(head)) << window.windowTitle().toStdString();
    EXPECT_FALSE(window.windowTitle().contains(QStringLiteral("Lesson 1")));
    dialogs.answer = QMessageBox::Cancel;
    quitAction(window)->trigger();
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.first().contains(head + QStringLiteral(" (the workbench)")))
        << dialogs.questions.first().toStdString();
    EXPECT_FALSE(dialogs.questions.first().contains(QStringLiteral("Lesson 1")));

    // Undone, the lesson is what is open again, and names the window.
    window.document()->undoStack()->undo();
    window.document()->flush();
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Lesson 1 — ")))
        << window.windowTitle().toStdString();
    setLessonLanguage(QString());
}

}  // namespace
}  // namespace attnlab
