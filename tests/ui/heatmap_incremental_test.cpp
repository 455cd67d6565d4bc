// SPDX-License-Identifier: GPL-3.0-or-later
// One vector edit redraws only what it changed: the document says which rows of weights
// changed (MapChange), the weights panel copies and recolours only those, and the heatmap's
// pyramid rebuilds only their blocks, to the same pixels as a full rebuild.

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSignalBlocker>

#include "ui/document/document.h"
#include "ui/panels/weights_panel.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

Session sessionOfLength(int n, attn::Mode mode)
{
    Session s;
    s.dModel = 16;
    s.seed = 7;
    for (int i = 1; i <= n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, s.seed);
    randomiseProjections(s, 1, 16, 16, s.seed);
    s.input.mode = mode;
    return s;
}

attn::VectorEdit scaled(attn::Role role, int index, double scale)
{
    attn::VectorEdit e;
    e.role = role;
    e.index = index;
    e.scale = scale;
    return e;
}

// Rows outside [first, end) are bit for bit what they were.
void expectOnlyRowsChanged(const attn::Matrix& before, const attn::Matrix& after, int first,
                           int end)
{
    for (long i = 0; i < before.rows(); ++i) {
        if (i >= first && i < end) continue;
        EXPECT_TRUE(before.row(i) == after.row(i)) << "row " << i << " changed outside the range";
    }
}

TEST(MapChange, EachVectorEditNamesTheRowsOfWeightsItChanged)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(sessionOfLength(40, attn::Mode::Causal), QStringLiteral("s")));
    doc.flush();
    EXPECT_TRUE(doc.lastChange().whole) << "a new session changes everything";
    const quint64 opened = doc.lastChange().serial;

    attn::Matrix before = doc.result().heads[0].weights;
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Key, 12, 1.7)));
    MapChange c = doc.lastChange();
    EXPECT_FALSE(c.whole);
    EXPECT_EQ(c.serial, opened + 1);
    EXPECT_EQ(c.head, 0);
    EXPECT_EQ(c.firstRow, 12) << "causal: rows before key 12 cannot attend to it";
    EXPECT_EQ(c.endRow, 40);
    expectOnlyRowsChanged(before, doc.result().heads[0].weights, c.firstRow, c.endRow);

    before = doc.result().heads[0].weights;
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Query, 5, 0.4)));
    c = doc.lastChange();
    EXPECT_EQ(c.firstRow, 5);
    EXPECT_EQ(c.endRow, 6);
    expectOnlyRowsChanged(before, doc.result().heads[0].weights, 5, 6);

    before = doc.result().heads[0].weights;
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Value, 9, 3.0)));
    c = doc.lastChange();
    EXPECT_EQ(c.firstRow, c.endRow) << "a value edit changes no weights";
    EXPECT_TRUE(before == doc.result().heads[0].weights);

    ASSERT_TRUE(doc.setMode(attn::Mode::Self));
    doc.flush();
    EXPECT_TRUE(doc.lastChange().whole);
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Key, 12, 1.3)));
    EXPECT_EQ(doc.lastChange().firstRow, 0) << "no mask: a key edit rescales every row";
    EXPECT_EQ(doc.lastChange().endRow, 40);
}

// The panel's map after its own incremental steps, against a pyramid built afresh from the
// same numbers, at several zooms.
void expectDrawnLikeAFreshBuild(WeightsPanel& panel)
{
    const HeatmapContent& c = panel.view()->content();
    HeatmapPyramid& kept = panel.view()->heatmap()->pyramid();
    HeatmapPyramid fresh;
    fresh.reset(kept.source());
    const auto& lut = colorLutFor(ColorScale::Weights);
    for (int px : {300, 150, 97, 40, 9}) {
        const auto rows = spansForPixels(static_cast<int>(c.values.rows()), px);
        const auto cols = spansForPixels(static_cast<int>(c.values.cols()), px);
        QImage a, b;
        kept.render(rows, cols, lut, a);
        fresh.render(rows, cols, lut, b);
        EXPECT_TRUE(a == b) << px << " pixels";
    }
}

TEST(WeightsPanel, QueryAndKeyStepsRedrawOnlyTheirRowsAndMatchAFullRebuild)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(sessionOfLength(300, attn::Mode::Causal), QStringLiteral("s")));
    doc.flush();
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    expectDrawnLikeAFreshBuild(panel);  // builds levels 1..5 at the zooms tried
    HeatmapPyramid& pyramid = panel.view()->heatmap()->pyramid();
    for (int step = 1; step <= 6; ++step) {
        const bool query = step % 2 == 1;
        const int index = 37 * step;
        const long long read = pyramid.cellsRead();
        ASSERT_TRUE(doc.editVector(
            scaled(query ? attn::Role::Query : attn::Role::Key, index, 1.0 + 0.3 * step), true));
        QCoreApplication::processEvents();  // the panel rebuilds lazily
        const HeatmapContent& c = panel.view()->content();
        ASSERT_TRUE(c.changedRows.has_value()) << "step " << step << " took the full path";
        EXPECT_EQ(c.changedRows->first, index);
        EXPECT_TRUE(c.values == doc.result().heads[0].weights) << "the copied rows";
        expectDrawnLikeAFreshBuild(panel);
        if (query) {
            // One row: its two-row block of the matrix and a block row of each coarser level.
            EXPECT_LE(pyramid.cellsRead() - read, 2 * 300 + 2 * 150 * 5) << "step " << step;
        }
    }
}

TEST(WeightsPanel, PerRowColoursUpdatedForOneRowEqualTheWholeMapRecoloured)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(sessionOfLength(64, attn::Mode::Self), QStringLiteral("s")));
    doc.flush();
    doc.setWeightColors(WeightColors::PerRow);
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    QCoreApplication::processEvents();
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Query, 20, 2.5), true));
    QCoreApplication::processEvents();
    const HeatmapContent& c = panel.view()->content();
    ASSERT_TRUE(c.changedRows.has_value());
    HeatmapContent full = weightsContent(doc);
    applyWeightColors(full, WeightColors::PerRow);
    EXPECT_TRUE(c.values == full.values);
    EXPECT_EQ(c.title, full.title);
    expectDrawnLikeAFreshBuild(panel);
}

TEST(WeightsPanel, DataRangeColoursAndSkippedSnapshotsTakeTheFullPath)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(sessionOfLength(64, attn::Mode::Self), QStringLiteral("s")));
    doc.flush();
    WeightsPanel panel(&doc, WeightsPanel::Kind::Weights);
    // The panel misses a snapshot (its signal blocked): the next one is two edits away from
    // what it shows, so it copies everything.
    {
        const QSignalBlocker quiet(&doc);
        ASSERT_TRUE(doc.editVector(scaled(attn::Role::Query, 3, 2.0), true));
    }
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Query, 9, 2.0), true));
    QCoreApplication::processEvents();
    EXPECT_FALSE(panel.view()->content().changedRows.has_value());
    EXPECT_TRUE(panel.view()->content().values == doc.result().heads[0].weights);
    doc.setWeightColors(WeightColors::DataRange);
    QCoreApplication::processEvents();
    ASSERT_TRUE(doc.editVector(scaled(attn::Role::Query, 4, 2.0), true));
    QCoreApplication::processEvents();
    EXPECT_FALSE(panel.view()->content().changedRows.has_value())
        << "the colour range depends on every cell";
    expectDrawnLikeAFreshBuild(panel);
}

}  // namespace
}  // namespace attnlab
