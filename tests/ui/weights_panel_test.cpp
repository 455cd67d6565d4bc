// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/weights_panel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

#include "ui/document/cell_info.h"
#include "ui/document/document.h"
#include "ui/panels/controls_panel.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

// The colour the heatmap draws at (row, column): its picture has one pixel per cell.
QRgb drawn(const WeightsPanel& panel, int row, int column)
{
    return panel.view()->drawnImage().pixel(column, row);
}

QRgb weightColor(double w)
{
    return colorLutFor(ColorScale::Weights).color(w, ValueRange(0.0, 1.0));
}

TEST(WeightsPanel, TogglingCausalZeroesEveryCellAboveTheDiagonalInTheDrawnData)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    ControlsPanel controls(&doc);
    controls.modeBox()->setCurrentIndex(1);
    Q_EMIT controls.modeBox()->activated(1);
    doc.flush();
    ASSERT_EQ(doc.session().input.mode, attn::Mode::Causal);
    const attn::Matrix& w = doc.result().heads[0].weights;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            if (j > i) {
                EXPECT_EQ(w(i, j), 0.0);
                EXPECT_EQ(drawn(panel, i, j), maskedCellColor().rgb())
                    << "masked cell drawn as masked";
                EXPECT_NE(drawn(panel, i, j), weightColor(0.0));
            } else {
                EXPECT_EQ(panel.view()->content().values(i, j), w(i, j));
                EXPECT_EQ(drawn(panel, i, j), weightColor(w(i, j)));
            }
        }
    }
}

TEST(WeightsPanel, CrossModeDrawsAnNByMMapWithLabelsFromEachSequence)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("cross"),
                                  [](Session& s) { s.input.mode = attn::Mode::Cross; }));
    doc.flush();
    const HeatmapContent& c = panel.view()->content();
    EXPECT_EQ(c.values.rows(), 4);
    EXPECT_EQ(c.values.cols(), 3);
    EXPECT_EQ(panel.view()->drawnImage().width(), 3);
    EXPECT_EQ(panel.view()->drawnImage().height(), 4);
    EXPECT_EQ(c.rowLabels, doc.session().targetTokens);
    EXPECT_EQ(c.columnLabels, doc.session().sourceTokens);
}

TEST(WeightsPanel, HoverTextHoldsTheCellsNumbers)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    const attn::HeadResult& hr = doc.result().heads[0];
    const QString text = panel.hoverText(2, 1);
    EXPECT_TRUE(text.contains(QStringLiteral("“sat” → key “cat”"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QString::number(hr.scores(2, 1), 'g', 6))) << text.toStdString();
    EXPECT_TRUE(text.contains(QString::number(hr.scaled(2, 1), 'g', 6))) << text.toStdString();
    EXPECT_TRUE(text.contains(QString::number(hr.weights(2, 1), 'f', 6))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("masked: no")));
}

// A score below the printed precision read as e-notation (8e-11) instead of 0.
TEST(WeightsPanel, HoverPrintsAScoreBelowItsPrecisionAsZero)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    ASSERT_TRUE(
        doc.changeSession(QStringLiteral("tiny"), [](Session& s) { s.input.X.row(0) *= 1e-11; }));
    doc.flush();
    ASSERT_GT(std::abs(doc.result().heads[0].scores(0, 1)), 0.0);
    const QString text = panel.hoverText(0, 1);
    EXPECT_TRUE(text.contains(QStringLiteral("q·k = 0\n"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("e-"))) << text.toStdString();
}

TEST(WeightsPanel, ClickingACellSelectsItsRowAndColumn)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    Q_EMIT panel.view()->cellClicked(3, 1, Qt::NoModifier);
    EXPECT_EQ(doc.selectedRow(), 3);
    EXPECT_EQ(doc.selectedColumn(), 1);
}

TEST(WeightsPanel, CtrlClickPaintsTheMaskAndUndoRemovesIt)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    Q_EMIT panel.view()->cellClicked(0, 2, Qt::ControlModifier);
    doc.flush();
    EXPECT_EQ(doc.result().heads[0].weights(0, 2), 0.0);
    EXPECT_EQ(drawn(panel, 0, 2), maskedCellColor().rgb());
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_GT(doc.result().heads[0].weights(0, 2), 0.0);
    EXPECT_EQ(drawn(panel, 0, 2), weightColor(doc.result().heads[0].weights(0, 2)));
}

TEST(WeightsPanel, DifferenceMapShowsAfterMinusBefore)
{
    Document doc;
    WeightsPanel diff(&doc, WeightsPanel::Kind::Difference);
    doc.pinWeights();
    const attn::Matrix before = doc.result().heads[0].weights;
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 2;
    e.scale = 2.0;
    ASSERT_TRUE(doc.editVector(e));
    doc.flush();
    const attn::Matrix after = doc.result().heads[0].weights;
    const ValueRange range = diff.view()->drawnRange();
    EXPECT_DOUBLE_EQ(range.lower, -range.upper) << "diverging map centred on no change";
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            const double change = after(i, j) - before(i, j);
            EXPECT_DOUBLE_EQ(diff.view()->content().values(i, j), change);
            EXPECT_EQ(drawn(diff, i, j), colorLutFor(ColorScale::Diverging).color(change, range));
        }
    }
}

// The status bar's readout of the hovered cell went stale after an edit or a Ctrl+click mask
// until the mouse moved.
TEST(WeightsPanel, TheHoverReadoutFollowsAnEditAndAMaskWithoutAMouseMove)
{
    Document doc;
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    panel.resize(600, 500);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    HeatmapView* view = panel.view();
    QSignalSpy readout(&panel, &WeightsPanel::hoverTextChanged);
    const QPointF at(view->xAxis->coordToPixel(1), view->yAxis->coordToPixel(2));
    QMouseEvent move(QEvent::MouseMove, at, view->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(view, &move);
    ASSERT_EQ(view->hoveredRow(), 2);
    ASSERT_EQ(view->hoveredColumn(), 1);
    ASSERT_GE(readout.count(), 1);
    const QString before = readout.last().at(0).toString();
    EXPECT_EQ(before, panel.hoverText(2, 1));

    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 1;
    e.scale = 3.0;
    ASSERT_TRUE(doc.editVector(e));
    ASSERT_TRUE(QTest::qWaitFor([&] { return readout.last().at(0).toString() != before; }));
    EXPECT_EQ(readout.last().at(0).toString(), panel.hoverText(2, 1));

    const QString edited = readout.last().at(0).toString();
    ASSERT_TRUE(doc.toggleMaskCell(2, 1));  // what Ctrl+click does
    ASSERT_TRUE(QTest::qWaitFor([&] { return readout.last().at(0).toString() != edited; }));
    EXPECT_EQ(readout.last().at(0).toString(), panel.hoverText(2, 1));
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// At 500 tokens every weight is near 1/500: on [0, 1] the whole map was almost black.
TEST(WeightsPanel, PerRowAndLogColoursKeepLongRowsVisibleAndSaySo)
{
    Document doc;
    QStringList tokens;
    for (int i = 1; i <= 500; ++i) tokens << QStringLiteral("t%1").arg(i);
    ASSERT_TRUE(doc.setTokens(false, tokens));
    doc.flush();
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    const QRgb top = weightColor(1.0);
    const attn::Matrix& w = doc.result().heads[0].weights;
    auto rowsAtTop = [&] {
        int count = 0;
        for (long i = 0; i < w.rows(); ++i) {
            Eigen::Index j = 0;
            w.row(i).maxCoeff(&j);
            count += drawn(panel, static_cast<int>(i), static_cast<int>(j)) == top ? 1 : 0;
        }
        return count;
    };
    EXPECT_LT(rowsAtTop(), 50);  // [0, 1]: most rows never get near the top colour
    EXPECT_FALSE(panel.view()->content().title.contains(QStringLiteral("colours")));

    doc.setWeightColors(WeightColors::PerRow);
    QCoreApplication::processEvents();
    EXPECT_EQ(rowsAtTop(), 500);  // every row's largest weight is drawn at the top colour
    EXPECT_TRUE(panel.view()->content().title.contains(QStringLiteral("each row")));
    // What is drawn changed, not the numbers a hover reads.
    EXPECT_EQ(panel.hoverText(3, 4), describeCell(doc, 3, 4));

    doc.setWeightColors(WeightColors::Log);
    QCoreApplication::processEvents();
    EXPECT_EQ(panel.view()->drawnRange(), ValueRange(-4.0, 0.0));
    EXPECT_TRUE(panel.view()->content().title.contains(QStringLiteral("log")));
    EXPECT_EQ(doc.view().colors, WeightColors::Log);
}

}  // namespace
}  // namespace attnlab
