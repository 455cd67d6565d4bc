// SPDX-License-Identifier: GPL-3.0-or-later
// The Export menu of the main window.
#include "ui/window/export_actions.h"

#include <gtest/gtest.h>

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/export/figure.h"
#include "ui/export/figure_dialog.h"
#include "ui/export/last_folder.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

TEST(ExportActions, MainWindowHasAnExportMenuWithFigureAndNumbers)
{
    MainWindow window;
    const auto* menu = window.findChild<QMenu*>(QStringLiteral("ExportMenu"));
    ASSERT_NE(menu, nullptr);
    EXPECT_TRUE(window.menuBar()->actions().contains(menu->menuAction()));
    QStringList texts;
    for (const QAction* a : menu->actions())
        if (!a->isSeparator()) texts << a->text();
    EXPECT_EQ(texts.size(), 5);
}

TEST(ExportActions, TheCurrentTabChoosesTheFigure)
{
    MainWindow window;
    auto* actions = window.findChild<ExportActions*>();
    ASSERT_NE(actions, nullptr);
    QTabWidget* tabs = window.centralTabs();
    const FigureStage expected[] = {FigureStage::Weights, FigureStage::Difference,
                                    FigureStage::Pipeline, FigureStage::Weights};
    for (int i = 0; i < 4; ++i) {
        tabs->setCurrentIndex(i);
        const FigureRequest r = actions->currentTabRequest();
        EXPECT_EQ(r.stage, expected[i]) << i;
        EXPECT_EQ(r.allHeads, i == 3) << i;
    }
}

TEST(ExportActions, DifferenceFigureUsesThePinnedWeights)
{
    MainWindow window;
    auto* actions = window.findChild<ExportActions*>();
    Document* doc = window.document();
    doc->flush();
    FigureRequest r;
    r.stage = FigureStage::Difference;
    Figure f;
    QString error;
    EXPECT_FALSE(actions->figureFor(r, f, error));
    doc->pinWeights();
    ASSERT_TRUE(actions->figureFor(r, f, error)) << error.toStdString();
    EXPECT_EQ(f.panels.front().values.cwiseAbs().maxCoeff(), 0.0);
}

TEST(ExportActions, CopyPutsTheFigureOnTheClipboard)
{
    MainWindow window;
    auto* actions = window.findChild<ExportActions*>();
    QGuiApplication::clipboard()->clear();
    actions->copyFigure()->trigger();
    const QImage image = QGuiApplication::clipboard()->image();
    EXPECT_FALSE(image.isNull());
    EXPECT_GT(image.width(), 400);
}

TEST(FigureDialog, KeepsTheInitialSettingsAndFollowsTheFigureSize)
{
    Session session = defaultSession();
    attn::AttentionResult result;
    ASSERT_TRUE(attn::computeAttention<double>(session.input, result).ok());
    FigureSource source;
    source.session = &session;
    source.result = &result;
    FigureExportSettings initial;
    initial.request.stage = FigureStage::Pipeline;
    initial.request.fixedRange = ValueRange(-1.0, 1.0);
    initial.scale = 3.0;
    FigureDialog dialog(source, initial);
    const FigureExportSettings s = dialog.settings();
    EXPECT_EQ(s.request.stage, FigureStage::Pipeline);
    ASSERT_TRUE(s.request.fixedRange.has_value());
    EXPECT_EQ(s.request.fixedRange->lower, -1.0);
    EXPECT_EQ(s.scale, 3.0);
    Figure f;
    QString error;
    ASSERT_TRUE(buildFigure(source, s.request, f, error));
    EXPECT_EQ(s.size, defaultFigureSize(f));
}

// Every export dialog started in the home folder, however often the user had gone elsewhere.
TEST(ExportActions, EveryDialogStartsInTheFolderLastUsedAlsoAfterARestart)
{
    testing::isolateSettings();
    QSettings().remove(QStringLiteral("files"));
    QTemporaryDir first;
    QTemporaryDir second;
    ASSERT_TRUE(first.isValid() && second.isValid());
    QStringList asked;  // where each dialog started
    ExportDialogs dialogs;
    QString answer;
    dialogs.savePath = [&](const QString&, const QString& suggestion, const QString&, QString*) {
        asked << QFileInfo(suggestion).absolutePath();
        return answer;
    };
    dialogs.folder = [&](const QString&, const QString& start) {
        asked << start;
        return answer;
    };
    {
        MainWindow window;
        auto* actions = window.findChild<ExportActions*>();
        ASSERT_NE(actions, nullptr);
        actions->setDialogs(dialogs);
        answer = first.filePath(QStringLiteral("numbers.json"));
        actions->exportJson();
        EXPECT_TRUE(QFileInfo::exists(answer));
        answer = QString();  // cancelled: the folder stays
        actions->exportCsvTable();
        actions->exportCsvFiles();
        ASSERT_EQ(asked.size(), 3);
        EXPECT_EQ(asked[1], first.path());
        EXPECT_EQ(asked[2], first.path());
        answer = second.path();
        actions->exportCsvFiles();
    }
    // A new window, as after a restart: it starts where the last export went.
    asked.clear();
    answer = QString();  // cancelled: only where the dialog starts counts (a folder is no file)
    MainWindow window;
    auto* actions = window.findChild<ExportActions*>();
    actions->setDialogs(dialogs);
    actions->exportCsvTable();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_EQ(asked[0], second.path());
    // And so does saving the untitled session.
    QString suggested;
    FileDialogs files;
    files.savePath = [&](const QString& suggestion) {
        suggested = suggestion;
        return QString();
    };
    window.fileActions()->setDialogs(files);
    window.fileActions()->saveAs();
    EXPECT_EQ(QFileInfo(suggested).absolutePath(), second.path());
}

}  // namespace
}  // namespace attnlab
