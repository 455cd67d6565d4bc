#include <gtest/gtest.h>

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
QCPTextElement* caption(const RowInspectorPanel& panel)
{
    return qobject_cast<QCPTextElement*>(panel.plot()->plotLayout()->element(1, 0));
}

TEST(RowInspector, NarrowDockBreaksTheCaptionAndLegendIntoLines)
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
    const QString text = caption(panel)->text();
    EXPECT_TRUE(text.contains(QLatin1Char('\n'))) << text.toStdString();
    // Every line fits, and so does each row of the legend.
    const QFontMetrics fm(caption(panel)->font());
    for (const QString& line : text.split(QLatin1Char('\n')))
        EXPECT_LE(fm.horizontalAdvance(line), panel.plot()->width()) << line.toStdString();
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
