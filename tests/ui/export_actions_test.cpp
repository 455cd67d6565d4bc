// The Export menu of the main window.
#include "ui/window/export_actions.h"

#include <gtest/gtest.h>

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

#include "ui/document/document.h"
#include "ui/export/figure.h"
#include "ui/export/figure_dialog.h"
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
    initial.request.fixedRange = QCPRange(-1.0, 1.0);
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

}  // namespace
}  // namespace attnlab
