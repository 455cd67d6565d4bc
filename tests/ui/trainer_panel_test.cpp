// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/trainer_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QXmlStreamReader>

#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/document/train_ops.h"
#include "ui/readers/session_file.h"
#include "ui/train/loss_plot.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_display.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/dock_layout.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::kTrainerWaitMs;
using testing::runSettled;
using testing::train;
using testing::waitSettled;

QByteArray bytesOf(const Session& s)
{
    SessionFile f;
    f.session = s;
    return sessionToJson(f);
}

TEST(TrainerPanel, StartingARunMakesTheLossFallAndSnapshotsArrive)
{
    Document doc;
    TrainerPanel panel(&doc);
    int snapshots = 0;
    QObject::connect(&panel, &TrainerPanel::snapshotShown, [&] { ++snapshots; });
    ASSERT_TRUE(train(panel, 200));
    const std::vector<double>& losses = panel.run()->losses();
    ASSERT_EQ(losses.size(), 200u);
    EXPECT_LT(panel.run()->last().loss, losses.front());
    EXPECT_GE(snapshots, 1);
    const attn::Matrix& live = panel.display()->liveMatrix();
    EXPECT_EQ(live.rows(), 4);
    EXPECT_EQ(panel.display()->liveView()->content().values.rows(), 4);
    EXPECT_EQ(panel.display()->lossPlot()->curve(0)->dataCount(), 201);
}

TEST(TrainerPanel, PauseStopsTheSteps)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    panel.stepsBox()->setValue(1000000);
    panel.startButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.run()->last().steps > 0; }, kTrainerWaitMs));
    EXPECT_TRUE(panel.pauseButton()->isEnabled());
    panel.pauseButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    const int stopped = panel.run()->last().steps;
    EXPECT_LT(stopped, 1000000);
    // Settled means the worker has sent its last snapshot: deliver whatever is queued, and
    // nothing may have moved.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(panel.run()->last().steps, stopped);
    EXPECT_EQ(static_cast<int>(panel.run()->losses().size()), stopped);
    EXPECT_FALSE(panel.pauseButton()->isEnabled());
}

TEST(TrainerPanel, StepTakesExactlyOneStep)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.run()->last().steps, 0);
    panel.stepButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return runSettled(panel) && panel.run()->last().steps == 1; },
                                kTrainerWaitMs));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(panel.run()->last().steps, 1);
    panel.stepButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return runSettled(panel) && panel.run()->last().steps == 2; },
                                kTrainerWaitMs));
    EXPECT_EQ(panel.run()->losses().size(), 2u);
}

TEST(TrainerPanel, ResetGoesBackToStepZeroAndUnlocksTheSettings)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(train(panel, 20));
    EXPECT_FALSE(panel.taskBox()->isEnabled());
    EXPECT_TRUE(panel.resetButton()->isEnabled());
    panel.resetButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.run()->last().steps, 0);
    EXPECT_TRUE(panel.run()->losses().empty());
    EXPECT_EQ(panel.display()->lossPlot()->curve(0)->dataCount(), 1);  // the loss at step 0 only
    EXPECT_TRUE(panel.taskBox()->isEnabled());
    EXPECT_FALSE(panel.keepButton()->isEnabled());
}

TEST(TrainerPanel, KeepIsOneUndoStepAndUndoRestoresTheSessionBitForBit)
{
    Document doc;
    const QByteArray before = bytesOf(doc.session());
    TrainerPanel panel(&doc);
    panel.setKeepQuestion([](const QString&) { return TrainerPanel::KeepAnswer::WithSequence; });
    ASSERT_TRUE(train(panel, 50));
    const std::shared_ptr<const attn::Trainer> trainer = panel.run()->settledTrainer();
    const QByteArray expected = bytesOf(ops::keepTraining(doc.session(), *trainer).session);
    const int undoSteps = doc.undoStack()->count();
    ASSERT_TRUE(panel.keepButton()->isEnabled());
    panel.keepButton()->click();
    doc.flush();
    EXPECT_EQ(doc.undoStack()->count(), undoSteps + 1);
    EXPECT_EQ(bytesOf(doc.session()), expected);
    EXPECT_NE(bytesOf(doc.session()), before);
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_EQ(bytesOf(doc.session()), before);
}

TEST(TrainerPanel, DiscardLeavesTheSessionUntouched)
{
    Document doc;
    const QByteArray before = bytesOf(doc.session());
    const int undoSteps = doc.undoStack()->count();
    TrainerPanel panel(&doc);
    ASSERT_TRUE(train(panel, 30));
    ASSERT_TRUE(panel.discardButton()->isEnabled());
    panel.discardButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(bytesOf(doc.session()), before);
    EXPECT_EQ(doc.undoStack()->count(), undoSteps);
    EXPECT_EQ(panel.run()->last().steps, 0);
}

TEST(TrainerPanel, SharedCheckboxTrainsWithSharedProjections)
{
    Document doc;
    TrainerPanel panel(&doc);
    panel.sharedBox()->setChecked(true);
    ASSERT_TRUE(train(panel, 10));
    const std::shared_ptr<const attn::Trainer> t = panel.run()->settledTrainer();
    EXPECT_TRUE(t->settings().shared);
    EXPECT_TRUE(t->learned().sharedProjections);
}

TEST(TrainerPanel, CompareDrawsBothCurvesAndTheSharedRunEndsHigher)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    panel.stepsBox()->setValue(300);
    panel.compareButton()->click();
    ASSERT_NE(panel.comparisonRun(), nullptr);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return runSettled(panel) && panel.comparisonRun()->settledTrainer() &&
                   panel.run()->last().steps == 300 && panel.comparisonRun()->last().steps == 300;
        },
        kTrainerWaitMs));
    EXPECT_GT(panel.comparisonRun()->last().loss, panel.run()->last().loss);
    EXPECT_TRUE(panel.display()->lossPlot()->legend->visible());
    EXPECT_EQ(panel.display()->lossPlot()->curve(1)->dataCount(), 301);
}

TEST(TrainerPanel, CoreferenceOnADModel3SessionIsRefusedWithTheSentence)
{
    Document doc;
    ASSERT_EQ(doc.session().input.modelDim(), 3);
    TrainerPanel panel(&doc);
    panel.taskBox()->setCurrentIndex(
        panel.taskBox()->findData(static_cast<int>(attn::TaskKind::Coreference)));
    const QString why = ops::taskRefusal(attn::TaskKind::Coreference, doc.session());
    ASSERT_FALSE(why.isEmpty());
    EXPECT_EQ(panel.message(), why);
    EXPECT_EQ(panel.run(), nullptr);
    EXPECT_FALSE(panel.startButton()->isEnabled());
    EXPECT_FALSE(panel.stepButton()->isEnabled());
    EXPECT_TRUE(panel.startButton()->toolTip().contains(why));
}

TEST(TrainerPanel, ExportWritesAPngAnSvgAFilmStripAndACsvWithStepsPlusTwoLines)
{
    QTemporaryDir dir;
    Document doc;
    TrainerPanel panel(&doc);
    panel.resize(1200, 320);
    ASSERT_TRUE(train(panel, 12));
    QString error;
    const QString png = dir.filePath(QStringLiteral("loss.png"));
    ASSERT_TRUE(panel.exportLossCurve(png, error)) << error.toStdString();
    EXPECT_FALSE(QImage(png).isNull());
    const QString svg = dir.filePath(QStringLiteral("loss.svg"));
    ASSERT_TRUE(panel.exportLossCurve(svg, error)) << error.toStdString();
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svgFile);
    bool sawSvg = false;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))
            sawSvg = true;
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_TRUE(sawSvg);
    const QString pdf = dir.filePath(QStringLiteral("loss.pdf"));
    ASSERT_TRUE(panel.exportLossCurve(pdf, error)) << error.toStdString();
    QFile pdfFile(pdf);
    ASSERT_TRUE(pdfFile.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdfFile.readAll().startsWith("%PDF"));
    const QString strip = dir.filePath(QStringLiteral("strip.png"));
    ASSERT_TRUE(panel.exportFilmStrip(strip, error)) << error.toStdString();
    const QImage stripImage(strip);
    ASSERT_FALSE(stripImage.isNull());
    EXPECT_GT(stripImage.width(), stripImage.height());  // frames side by side: 0, 10, 12
    const QString csv = dir.filePath(QStringLiteral("curve.csv"));
    ASSERT_TRUE(panel.exportCurveCsv(csv, error)) << error.toStdString();
    QFile csvFile(csv);
    ASSERT_TRUE(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().split('\n');
    ASSERT_EQ(lines.size(), 12 + 2 + 1);  // header, steps + 1 losses, the final newline
    EXPECT_EQ(lines.front(), "step,loss");
    EXPECT_TRUE(lines[13].startsWith("12,"));
    EXPECT_TRUE(lines.back().isEmpty());
}

TEST(TrainerPanel, PaintingTheOwnPatternTrainsTowardsIt)
{
    Document doc;
    TrainerPanel panel(&doc);
    panel.taskBox()->setCurrentIndex(
        panel.taskBox()->findData(static_cast<int>(attn::TaskKind::Pattern)));
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_TRUE(panel.pattern().isApprox(doc.result().heads[0].weights));
    Q_EMIT panel.display()->targetClicked(0, 3, Qt::NoModifier);
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.pattern()(0, 3), 1.0);
    EXPECT_EQ(panel.pattern()(0, 0), 0.0);
    EXPECT_EQ(panel.display()->targetMatrix()(0, 3), 1.0);
    ASSERT_TRUE(train(panel, 100));
    EXPECT_LT(panel.run()->last().loss, panel.run()->losses().front());
}

TEST(TrainerPanel, DestroyingTheWindowMidRunIsClean)
{
    for (int i = 0; i < 3; ++i) {
        auto window = std::make_unique<MainWindow>();
        auto* panel = window->findChild<TrainerPanel*>();
        ASSERT_NE(panel, nullptr);
        ASSERT_TRUE(waitSettled(*panel));
        panel->stepsBox()->setValue(1000000);
        panel->startButton()->click();
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return panel->run()->last().steps > 0; }, kTrainerWaitMs));
        window.reset();                        // joins the worker; its queued snapshots are dropped
        QCoreApplication::sendPostedEvents();  // delivering them must not touch the dead panel
        QCoreApplication::processEvents();
    }
}

TEST(TrainerDock, IsInTheWindowTheViewMenuAndLessonLayouts)
{
    MainWindow window;
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("TrainerDock"));
    ASSERT_NE(dock, nullptr);
    EXPECT_EQ(dock->windowTitle(), QStringLiteral("Trainer"));
    bool inMenu = false;
    for (QMenu* m : window.menuBar()->findChildren<QMenu*>())
        inMenu = inMenu || m->actions().contains(dock->toggleViewAction());
    EXPECT_TRUE(inMenu);
    DockLayout l;
    l.bottom = {{QStringLiteral("TrainerDock")}};
    window.show();
    applyDockLayout(&window, l);
    EXPECT_TRUE(dock->isVisible());
    EXPECT_EQ(window.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
}

}  // namespace
}  // namespace attnlab
