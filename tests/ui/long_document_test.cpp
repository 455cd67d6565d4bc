// SPDX-License-Identifier: GPL-3.0-or-later
// The long-session document and its map page: what the worker computes is the full path's
// map (within float's tolerance), edits are undo steps that recompute in the background,
// Cancel leaves the session as it was, when two maps do not fit the memory the old weights'
// memory is reused, and the page shows, hovers and inspects the float map in place.
#include "ui/document/long_document.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/attention.h"
#include "core/random_init.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/long_panel.h"
#include "ui/views/color_scales.h"

namespace attnlab {
namespace {

using testing::idle;
using testing::longSession;

constexpr double kFloatTolerance = 2e-5;

double maxDiff(const attn::MatrixT<float>& got, const attn::Matrix& want)
{
    return (got.cast<double>() - want).cwiseAbs().maxCoeff();
}

attn::AttentionResult fullPath(const Session& s)
{
    attn::AttentionResult r;
    EXPECT_TRUE(attn::computeAttention<double>(s.input, r).ok());
    return r;
}

TEST(LongDocument, ComputesOnAWorkerWhatTheFullPathComputesWithin2e5)
{
    LongDocument doc;
    QSignalSpy progress(&doc, &LongDocument::progressed);
    const Session s = longSession(300, attn::Mode::Causal, 2);
    ASSERT_TRUE(doc.open(s));
    EXPECT_TRUE(doc.computing());
    EXPECT_EQ(doc.result(), nullptr);  // nothing is shown before it is computed
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    const attn::AttentionResult want = fullPath(s);
    for (std::size_t h = 0; h < 2; ++h)
        EXPECT_LE(maxDiff(doc.result()->heads[h].weights, want.heads[h].weights), kFloatTolerance);
    EXPECT_FALSE(progress.isEmpty());
    EXPECT_EQ(doc.undoStack()->count(), 0);  // opening is not an undo step
}

TEST(LongDocument, AScaledKeyIsOneUndoStepAndUndoRestoresTheMapBitForBit)
{
    LongDocument doc;
    const Session s = longSession(300, attn::Mode::Self);
    ASSERT_TRUE(doc.open(s));
    ASSERT_TRUE(idle(&doc));
    const attn::MatrixT<float> before = doc.result()->heads[0].weights;
    ASSERT_TRUE(doc.scaleKey(0, 40, 2.0));
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.undoStack()->count(), 1);
    Session edited = s;
    edited.input.edits.push_back(attn::VectorEdit{attn::Role::Key, 0, 40, 2.0, {}});
    EXPECT_LE(maxDiff(doc.result()->heads[0].weights, fullPath(edited).heads[0].weights),
              kFloatTolerance);
    EXPECT_GT((doc.result()->heads[0].weights - before).cwiseAbs().maxCoeff(), 1e-3);
    doc.undoStack()->undo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_TRUE(doc.result()->heads[0].weights == before);
    EXPECT_TRUE(doc.session().input.edits.empty());
    doc.undoStack()->redo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.session().input.edits.size(), 1U);
}

TEST(LongDocument, ABadKeyIsRefusedByNameAndNothingChanges)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(longSession(200, attn::Mode::Self)));
    ASSERT_TRUE(idle(&doc));
    const auto shown = doc.result();
    EXPECT_FALSE(doc.scaleKey(0, 200, 2.0));
    EXPECT_FALSE(doc.lastError().isEmpty());
    EXPECT_FALSE(doc.computing());
    EXPECT_EQ(doc.result(), shown);
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(LongDocument, CancelKeepsTheSessionAndTheMapShownWhenBothMapsFit)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(longSession(4000, attn::Mode::Self, 1, 64)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.keepsMapWhileComputing());
    const auto shown = doc.result();
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    EXPECT_EQ(doc.result(), shown);  // the old map stays while the new one computes
    doc.cancel();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.result(), shown);
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Self);
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(LongDocument, WhenTwoMapsDoNotFitTheOldWeightsMemoryIsReusedAndCancelLeavesNoMap)
{
    const Session s = longSession(4000, attn::Mode::Self, 1, 64);
    attn::Limits limits;
    limits.maxBytes = attn::estimateLongBytes(s.input) * 3 / 2;
    LongDocument doc(limits);
    QSignalSpy releasing(&doc, &LongDocument::releasing);
    ASSERT_TRUE(doc.open(s));
    ASSERT_TRUE(idle(&doc));
    ASSERT_FALSE(doc.keepsMapWhileComputing());
    const float* memory = doc.result()->heads[0].weights.data();
    const attn::MatrixT<float> original = doc.result()->heads[0].weights;
    releasing.clear();

    ASSERT_TRUE(doc.scaleKey(0, 7, 3.0));
    EXPECT_EQ(releasing.count(), 1);
    EXPECT_EQ(doc.result(), nullptr);
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    EXPECT_EQ(doc.result()->heads[0].weights.data(), memory);  // no fresh 64 MB
    Session edited = s;
    edited.input.edits.push_back(attn::VectorEdit{attn::Role::Key, 0, 7, 3.0, {}});
    EXPECT_LE(maxDiff(doc.result()->heads[0].weights, fullPath(edited).heads[0].weights),
              kFloatTolerance);

    // Cancelled: the session is the edited one still, the map is gone until computed again.
    ASSERT_TRUE(doc.setScaling(attn::Scaling::None));
    doc.cancel();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.result(), nullptr);
    EXPECT_EQ(doc.session().input.scaling, attn::Scaling::SqrtDk);
    EXPECT_EQ(doc.undoStack()->count(), 1);
    ASSERT_TRUE(doc.recompute());
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    doc.undoStack()->undo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_TRUE(doc.result()->heads[0].weights == original);
}

// The centre of cell (row, column) in the map's widget coordinates.
QPoint cellCentre(const HeatmapView* map, int row, int column)
{
    return QPoint(static_cast<int>(map->xAxis->coordToPixel(column)),
                  static_cast<int>(map->yAxis->coordToPixel(row)));
}

TEST(LongMapPanel, HoverShowsTheCellsWeightAndItsScoresRecomputedFromQAndK)
{
    LongDocument doc;
    LongMapPanel w(&doc);
    w.resize(1200, 800);
    const Session s = longSession(600, attn::Mode::Self);
    ASSERT_TRUE(doc.open(s));
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(w.showsMap());
    EXPECT_NE(w.map()->content().floats, nullptr);  // read in place, no double copy
    EXPECT_TRUE(w.panel()->keptText().contains(QStringLiteral("only the weights P are kept")))
        << w.panel()->keptText().toStdString();

    w.map()->zoom(0.05);  // a few cells across, so that the mouse lands on one
    QApplication::processEvents();
    const int row = static_cast<int>(std::lround(w.map()->yAxis->range().center()));
    const int col = static_cast<int>(std::lround(w.map()->xAxis->range().center()));
    QSignalSpy hovered(&w, &LongMapPanel::hoverTextChanged);
    QTest::mouseMove(w.map(), cellCentre(w.map(), row, col));
    QApplication::processEvents();
    ASSERT_EQ(w.map()->hoveredRow(), row);
    ASSERT_EQ(w.map()->hoveredColumn(), col);
    const attn::AttentionResult want = fullPath(s);
    const QString scaled = QLocale().toString(want.heads[0].scaled(row, col), 'f', 3);
    EXPECT_TRUE(w.hoverText().contains(scaled))
        << w.hoverText().toStdString() << " lacks " << scaled.toStdString();
    EXPECT_FALSE(hovered.isEmpty());

    // A click selects the row; the inspector's first key is the row's largest weight.
    QTest::mouseClick(w.map(), Qt::LeftButton, {}, cellCentre(w.map(), row, col));
    QApplication::processEvents();
    EXPECT_EQ(doc.selectedRow(), row);
    Eigen::Index best = 0;
    want.heads[0].weights.row(row).maxCoeff(&best);
    ASSERT_EQ(w.panel()->topKeys()->rowCount(), LongPanel::kTopKeys);
    EXPECT_TRUE(w.panel()->topKeys()->item(0, 0)->text().startsWith(QString::number(best + 1)))
        << w.panel()->topKeys()->item(0, 0)->text().toStdString();
    EXPECT_TRUE(w.panel()->rowText().contains(QStringLiteral("t%1").arg(row)));
}

TEST(LongMapPanel, ACausalMapDrawsTheCellsPastTheDiagonalAsMaskedWithoutAMaskMatrix)
{
    LongDocument doc;
    LongMapPanel w(&doc);
    ASSERT_TRUE(doc.open(longSession(400, attn::Mode::Causal)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(w.showsMap());
    EXPECT_FALSE(w.map()->content().mask.has_value());
    const QImage cells = w.map()->drawnImage();
    ASSERT_EQ(cells.width(), 400);
    EXPECT_EQ(cells.pixelColor(399, 0), maskedCellColor());
    EXPECT_NE(cells.pixelColor(0, 399), maskedCellColor());
    EXPECT_NE(cells.pixelColor(0, 0), maskedCellColor());
}

TEST(LongMapPanel, TheProgressBarAndCancelShowWhileComputingAndCancelLeavesTheSession)
{
    LongDocument doc;
    LongMapPanel w(&doc);
    w.show();
    ASSERT_TRUE(doc.open(longSession(4000, attn::Mode::Self, 1, 64)));
    EXPECT_TRUE(w.progressBar()->isVisibleTo(&w));
    EXPECT_TRUE(w.cancelButton()->isVisibleTo(&w));
    QTest::mouseClick(w.cancelButton(), Qt::LeftButton);
    ASSERT_TRUE(idle(&doc));
    EXPECT_FALSE(w.progressBar()->isVisibleTo(&w));
    EXPECT_FALSE(w.showsMap());
    EXPECT_EQ(doc.session().input.queryCount(), 4000);
}

TEST(LongMapPanel, EachHeadIsDrawnFromItsOwnWeightsAndTheArrowsMoveTheSelectedRow)
{
    LongDocument doc;
    LongMapPanel w(&doc);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(doc.open(longSession(300, attn::Mode::Self, 2)));
    ASSERT_TRUE(idle(&doc));
    const auto result = doc.result();
    EXPECT_EQ(w.map()->content().floats->data(), result->heads[0].weights.data());
    doc.setHead(1);
    EXPECT_EQ(w.map()->content().floats->data(), result->heads[1].weights.data());
    EXPECT_TRUE(w.map()->content().title.contains(QStringLiteral("head 2")));
    doc.selectRow(10);
    w.map()->setFocus();
    QTest::keyClick(w.map(), Qt::Key_Down);
    EXPECT_EQ(doc.selectedRow(), 11);
    QTest::keyClick(w.map(), Qt::Key_Up);
    QTest::keyClick(w.map(), Qt::Key_Up);
    EXPECT_EQ(doc.selectedRow(), 9);
    // The inspector follows the head: its first key is head 2's largest weight of row 9.
    Eigen::Index best = 0;
    result->heads[1].weights.row(9).maxCoeff(&best);
    EXPECT_TRUE(w.panel()->topKeys()->item(0, 0)->text().startsWith(QString::number(best + 1)));
}

TEST(LongDocument, CloseDropsTheSessionItsMapAndItsHistory)
{
    LongDocument doc;
    QSignalSpy openChanged(&doc, &LongDocument::openChanged);
    QSignalSpy releasing(&doc, &LongDocument::releasing);
    ASSERT_TRUE(doc.open(longSession(300, attn::Mode::Self)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.scaleKey(0, 2, 2.0));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.isOpen());
    doc.close();
    EXPECT_FALSE(doc.isOpen());
    EXPECT_EQ(doc.result(), nullptr);
    EXPECT_EQ(doc.undoStack()->count(), 0);
    EXPECT_EQ(doc.session().input.queryCount(), 0);
    EXPECT_EQ(openChanged.count(), 2);
    EXPECT_GE(releasing.count(), 1);
}

}  // namespace
}  // namespace attnlab
