// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <utility>
#include <vector>

#include <QTest>
#include <qcustomplot.h>

#include "ui/document/document.h"
#include "ui/panels/row_inspector_panel.h"

namespace attnlab {
namespace {

void expectRow(const QVector<double>& shown, const attn::Matrix& matrix, int row)
{
    ASSERT_EQ(shown.size(), matrix.cols());
    for (int j = 0; j < shown.size(); ++j) EXPECT_DOUBLE_EQ(shown[j], matrix(row, j)) << j;
}

TEST(RowInspector, SelectingARowShowsItsWeights)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    doc.select(2, 1);
    const attn::HeadResult* hr = doc.currentHead();
    ASSERT_NE(hr, nullptr);
    EXPECT_EQ(panel.shownRow(), 2);
    expectRow(panel.shownWeights(), hr->weights, 2);
    expectRow(panel.shownScores(), hr->scaled, 2);
    // Row 2 differs from row 0, so a panel stuck on the old row would fail.
    EXPECT_NE(hr->weights(2, 0), hr->weights(0, 0));
    EXPECT_TRUE(panel.titleText().contains(doc.session().targetTokens[2]));
    EXPECT_TRUE(panel.shownPinnedWeights().isEmpty());
}

TEST(RowInspector, ShowsTheRowDiagnostics)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    doc.select(1, 0);
    const attn::RowDiagnostics& d = doc.currentHead()->diagnostics;
    EXPECT_TRUE(panel.entropyText().contains(QString::number(d.entropy(1), 'f', 3)))
        << panel.entropyText().toStdString();
    EXPECT_TRUE(panel.maxWeightText().contains(QString::number(d.maxWeight(1), 'f', 3)));
    EXPECT_TRUE(panel.maxWeightText().contains(doc.session().targetTokens[d.argmax(1)]));
    EXPECT_TRUE(panel.jacobianText().contains(QString::number(d.jacobianNorm(1), 'f', 3)));
}

TEST(RowInspector, PinnedWeightsStayAsGhostsAfterAnEdit)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    doc.select(0, 0);
    doc.pinWeights();
    const attn::Matrix before = doc.currentHead()->weights;
    attn::VectorEdit edit;
    edit.role = attn::Role::Key;
    edit.index = 1;
    edit.scale = 2.0;
    ASSERT_TRUE(doc.editVector(edit));
    doc.flush();
    expectRow(panel.shownPinnedWeights(), before, 0);
    expectRow(panel.shownWeights(), doc.currentHead()->weights, 0);
    EXPECT_NE(panel.shownWeights()[1], panel.shownPinnedWeights()[1]);
    doc.clearPin();
    EXPECT_TRUE(panel.shownPinnedWeights().isEmpty());
}

TEST(RowInspector, FullyMaskedRowIsSaid)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("mask"), [](Session& s) {
        attn::BoolMatrix mask = attn::BoolMatrix::Constant(4, 4, true);
        mask.row(1).setConstant(false);
        s.input.mask = mask;
    }));
    doc.flush();
    doc.select(1, 0);
    EXPECT_TRUE(panel.showsFullyMaskedRow());
    for (double w : panel.shownWeights()) EXPECT_EQ(w, 0.0);
    EXPECT_FALSE(panel.noteText().isEmpty());
    doc.select(0, 0);
    EXPECT_FALSE(panel.showsFullyMaskedRow());
}

// An all-zero row of scores (here a zero query) put 8e-11 on the score axis.
TEST(RowInspector, AFlatRowKeepsAnAxisOfReadableNumbers)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    attn::VectorEdit e;
    e.role = attn::Role::Query;
    e.index = 1;
    e.scale = 0.0;
    ASSERT_TRUE(doc.editVector(e));
    doc.flush();
    doc.select(1, 0);
    for (double s : panel.shownScores()) ASSERT_EQ(s, 0.0);
    panel.resize(420, 420);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.plot()->replot();
    QCPAxis* scores = panel.plot()->axisRects().first()->axis(QCPAxis::atLeft);
    EXPECT_GE(scores->range().upper, 0.5);
    ASSERT_FALSE(scores->tickVectorLabels().isEmpty());
    for (const QString& label : scores->tickVectorLabels()) {
        EXPECT_FALSE(label.contains(QLatin1Char('e'), Qt::CaseInsensitive)) << label.toStdString();
        EXPECT_FALSE(label.contains(QChar(0x00b7))) << label.toStdString();  // 8·10⁻¹¹
    }
}

// The pixel spans the tick labels of `axis` take along it, in tick order.
std::vector<std::pair<double, double>> labelSpans(QCPAxis* axis)
{
    const QFontMetricsF fm(axis->tickLabelFont());
    const double rotation = std::abs(axis->tickLabelRotation()) * std::numbers::pi / 180.0;
    std::vector<std::pair<double, double>> spans;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
        if (labels.value(i).isEmpty()) continue;
        const double at = axis->coordToPixel(ticks[i]);
        // Across a vertical axis a label takes a line; along a horizontal one its width, or
        // when rotated, a line across the slant.
        const double extent = axis->orientation() == Qt::Vertical ? fm.height()
                              : rotation > 0                      ? fm.height() / std::sin(rotation)
                                                                  : fm.horizontalAdvance(labels[i]);
        spans.emplace_back(at - extent / 2, at + extent / 2);
    }
    std::sort(spans.begin(), spans.end());
    return spans;
}

// In the dock at 1366 × 768 (about 360 × 430 px) the weight axis printed six numbers over each
// other in 50 px.
TEST(RowInspector, NoTickLabelsOverlapInASmallDock)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    QStringList tokens;
    for (int i = 0; i < 11; ++i) tokens << QStringLiteral("词%1").arg(i);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("eleven"), [&](Session& s) {
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
    }));
    doc.flush();
    for (const QSize size : {QSize(360, 430), QSize(360, 380), QSize(520, 700)}) {
        SCOPED_TRACE(size.height());
        panel.resize(size);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        panel.plot()->replot();
        QCoreApplication::processEvents();  // the replot the laid-out heights asked for
        panel.plot()->replot();
        for (QCPAxisRect* rect : panel.plot()->axisRects()) {
            for (QCPAxis* axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom)}) {
                if (!axis->tickLabels()) continue;
                const auto spans = labelSpans(axis);
                if (axis->orientation() == Qt::Vertical) {
                    EXPECT_GE(spans.size(), 1u);  // a short axis may keep only one number
                }
                for (std::size_t i = 1; i < spans.size(); ++i)
                    EXPECT_LE(spans[i - 1].second, spans[i].first + 0.5)
                        << axis->label().toStdString() << ": labels " << i - 1 << " and " << i;
            }
        }
    }
}

TEST(RowInspector, CausalRowNotesItsMaskedKeys)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("causal"),
                                  [](Session& s) { s.input.mode = attn::Mode::Causal; }));
    doc.flush();
    doc.select(1, 0);
    // Row 1 may attend to keys 0 and 1 only.
    EXPECT_GT(panel.shownWeights()[0], 0.0);
    EXPECT_EQ(panel.shownWeights()[2], 0.0);
    EXPECT_TRUE(panel.noteText().contains(QStringLiteral("2 of 4")))
        << panel.noteText().toStdString();
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR")) {
        doc.pinWeights();
        attn::VectorEdit edit;
        edit.role = attn::Role::Key;
        edit.index = 1;
        edit.scale = 2.0;
        doc.editVector(edit);
        doc.flush();
        panel.resize(640, 520);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();  // the queued replots
        panel.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                          QStringLiteral("/row_inspector.png"));
    }
}

TEST(RowInspector, LongRowDrawsEveryBarWithoutTokenLabels)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    QStringList tokens;
    for (int i = 0; i < 300; ++i) tokens << QStringLiteral("tok%1").arg(i);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("long"), [&](Session& s) {
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
    }));
    doc.flush();
    doc.select(7, 0);
    expectRow(panel.shownWeights(), doc.currentHead()->weights, 7);
    panel.resize(640, 520);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QCPAxis* keyAxis = panel.plot()->axisRects().last()->axis(QCPAxis::atBottom);
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(keyAxis->ticker());
    ASSERT_TRUE(ticker);
    EXPECT_LE(ticker->ticks().size(), 30);
    for (const QString& label : ticker->ticks())
        EXPECT_FALSE(label.startsWith(QStringLiteral("tok")));
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR"))
        panel.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                          QStringLiteral("/row_inspector_long.png"));
}

TEST(RowInspector, CrowdedLabelsAreRotated)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    QStringList tokens;
    for (int i = 0; i < 40; ++i) tokens << QStringLiteral("word%1").arg(i);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("forty"), [&](Session& s) {
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
    }));
    doc.flush();
    panel.resize(640, 520);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QCPAxis* keyAxis = panel.plot()->axisRects().last()->axis(QCPAxis::atBottom);
    EXPECT_NE(keyAxis->tickLabelRotation(), 0.0);
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(keyAxis->ticker());
    ASSERT_TRUE(ticker);
    EXPECT_EQ(ticker->ticks().value(0.0), QStringLiteral("word0"));
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR"))
        panel.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                          QStringLiteral("/row_inspector_40.png"));
}

// The text element between the scores and the weights.
// The softmax caption: under the scores' title and plot.
QCPTextElement* caption(const RowInspectorPanel& panel)
{
    return qobject_cast<QCPTextElement*>(panel.plot()->plotLayout()->element(2, 0));
}

TEST(RowInspector, NarrowDockKeepsTheCaptionOneLineAndBreaksTheLegendIntoLines)
{
    Document doc;
    RowInspectorPanel panel(&doc);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("causal"),
                                  [](Session& s) { s.input.mode = attn::Mode::Causal; }));
    doc.flush();
    doc.pinWeights();  // three legend items: weights now, pinned weights, masked key
    doc.select(1, 0);
    panel.resize(900, 520);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_NE(caption(panel), nullptr);
    EXPECT_FALSE(caption(panel)->text().contains(QLatin1Char('\n')));
    EXPECT_EQ(panel.plot()->legend->rowCount(), 1);

    panel.resize(330, 520);
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.plot()->width() <= 330; }));
    panel.plot()->replot();
    // The caption keeps one line (the height is the bars'); the sum goes to the weights' title.
    const QString text = caption(panel)->text();
    EXPECT_FALSE(text.contains(QLatin1Char('\n'))) << text.toStdString();
    const QFontMetrics fm(caption(panel)->font());
    EXPECT_LE(fm.horizontalAdvance(text), panel.plot()->width()) << text.toStdString();
    const auto* weightTitle =
        qobject_cast<QCPTextElement*>(panel.plot()->plotLayout()->element(3, 0));
    ASSERT_NE(weightTitle, nullptr);
    EXPECT_TRUE(weightTitle->text().contains(QStringLiteral("sum to 1")))
        << weightTitle->text().toStdString();
    // Each row of the legend fits.
    EXPECT_GT(panel.plot()->legend->rowCount(), 1);
    // No legend entry runs past the plot's right edge.
    QCPLegend* legend = panel.plot()->legend;
    for (int i = 0; i < legend->elementCount(); ++i) {
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            EXPECT_LE(item->outerRect().right(), panel.plot()->width()) << i;
        }
    }
}

}  // namespace
}  // namespace attnlab
