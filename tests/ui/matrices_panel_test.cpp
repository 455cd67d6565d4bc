// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/matrices_panel.h"

#include <gtest/gtest.h>
#include <limits>

#include <QAbstractButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>

#include "ui/document/document.h"

namespace attnlab {
namespace {

attn::Matrix weights(Document& doc)
{
    doc.flush();
    return doc.currentHead()->weights;
}

TEST(MatricesPanel, EditingAWKCellChangesTheSessionAndTheWeights)
{
    Document doc;
    MatricesPanel panel(&doc);
    const attn::Matrix before = weights(doc);
    ASSERT_TRUE(panel.setMatrix(EditableMatrix::WK));
    SessionMatrixModel* model = panel.model();
    ASSERT_EQ(model->rowCount(), 3);
    ASSERT_EQ(model->columnCount(), 3);
    const int count = doc.undoStack()->count();
    EXPECT_TRUE(model->setData(model->index(0, 1), QStringLiteral("2.5"), Qt::EditRole));
    EXPECT_EQ(doc.session().input.heads[0].W_K(0, 1), 2.5);
    EXPECT_EQ(doc.undoStack()->count(), count + 1);
    EXPECT_NE(weights(doc), before);
    EXPECT_EQ(model->data(model->index(0, 1), Qt::DisplayRole).toString(),
              QLocale().toString(2.5, 'f', 4));

    doc.undoStack()->undo();
    EXPECT_EQ(weights(doc), before);
}

TEST(MatricesPanel, InvalidValuesAreRefusedAndTheSessionIsUnchanged)
{
    Document doc;
    MatricesPanel panel(&doc);
    panel.setMatrix(EditableMatrix::WK);
    SessionMatrixModel* model = panel.model();
    QSignalSpy refused(model, &SessionMatrixModel::refused);
    const attn::Matrix wk = doc.session().input.heads[0].W_K;
    const int count = doc.undoStack()->count();
    for (const QString& text :
         {QStringLiteral("abc"), QStringLiteral("nan"), QStringLiteral("inf"),
          QStringLiteral("1e400"), QStringLiteral(""), QStringLiteral("2e7")}) {
        EXPECT_FALSE(model->setData(model->index(1, 1), text, Qt::EditRole)) << text.toStdString();
    }
    EXPECT_FALSE(
        model->setData(model->index(1, 1), std::numeric_limits<double>::quiet_NaN(), Qt::EditRole));
    EXPECT_EQ(refused.count(), 7);
    EXPECT_EQ(doc.session().input.heads[0].W_K, wk);
    EXPECT_EQ(doc.undoStack()->count(), count);
}

TEST(MatricesPanel, RandomiseWithASeedIsOneUndoStepAndReproducible)
{
    Document doc;
    MatricesPanel panel(&doc);
    const Session original = doc.session();
    const attn::Matrix before = weights(doc);
    const int count = doc.undoStack()->count();
    panel.seedBox()->setValue(42);
    panel.randomiseButton()->click();
    EXPECT_EQ(doc.undoStack()->count(), count + 1);
    EXPECT_EQ(doc.session().seed, 42u);
    const attn::Matrix first = doc.session().input.heads[0].W_Q;
    const attn::Matrix firstWeights = weights(doc);
    EXPECT_NE(first, original.input.heads[0].W_Q);
    EXPECT_NE(firstWeights, before);

    Session expected = original;
    randomiseProjections(expected, 1, 3, 3, 42);
    EXPECT_EQ(first, expected.input.heads[0].W_Q);
    EXPECT_EQ(doc.session().input.heads[0].W_V, expected.input.heads[0].W_V);

    doc.undoStack()->undo();
    EXPECT_EQ(weights(doc), before);
    EXPECT_EQ(doc.session().seed, original.seed);
    EXPECT_EQ(panel.seedBox()->value(), static_cast<int>(original.seed));

    panel.seedBox()->setValue(42);
    panel.randomiseButton()->click();
    EXPECT_EQ(doc.session().input.heads[0].W_Q, first);
    EXPECT_EQ(weights(doc), firstWeights);
}

TEST(MatricesPanel, ResetRedrawsTheProjectionsOfTheSessionSeed)
{
    Document doc;
    MatricesPanel panel(&doc);
    panel.seedBox()->setValue(9);
    panel.randomiseButton()->click();
    const Session drawn = doc.session();
    panel.setMatrix(EditableMatrix::WQ);
    ASSERT_TRUE(panel.model()->setData(panel.model()->index(2, 0), 3.0, Qt::EditRole));
    EXPECT_NE(doc.session().input.heads[0].W_Q, drawn.input.heads[0].W_Q);
    panel.seedBox()->setValue(123);  // not applied: Reset uses the session's seed
    panel.resetButton()->click();
    EXPECT_EQ(doc.session().input.heads[0].W_Q, drawn.input.heads[0].W_Q);
    EXPECT_EQ(doc.session().seed, 9u);
}

TEST(MatricesPanel, OffersYInCrossModeAndAdditiveParametersWhenAdditive)
{
    Document doc;
    MatricesPanel panel(&doc);
    EXPECT_FALSE(panel.availableMatrices().contains(EditableMatrix::Y));
    EXPECT_FALSE(panel.setMatrix(EditableMatrix::Va));
    ASSERT_TRUE(doc.changeSession(QStringLiteral("cross"), [](Session& s) {
        s.input.mode = attn::Mode::Cross;
        s.input.score = attn::ScoreFunction::Additive;
    }));
    doc.flush();
    EXPECT_TRUE(panel.setMatrix(EditableMatrix::Y));
    EXPECT_EQ(panel.model()->headerData(1, Qt::Vertical, Qt::DisplayRole).toString(),
              doc.session().sourceTokens[1]);
    EXPECT_TRUE(panel.setMatrix(EditableMatrix::Va));
    EXPECT_EQ(panel.model()->columnCount(), 1);
    const attn::Matrix before = weights(doc);
    ASSERT_TRUE(panel.model()->setData(panel.model()->index(0, 0), 1.75, Qt::EditRole));
    EXPECT_EQ(doc.session().input.heads[0].additive.v(0), 1.75);
    EXPECT_NE(weights(doc), before);
}

TEST(MatricesPanel, EmbeddingRowsAreLabelledWithTokens)
{
    Document doc;
    MatricesPanel panel(&doc);
    EXPECT_EQ(panel.matrix(), EditableMatrix::X);
    EXPECT_EQ(panel.model()->rowCount(), 4);
    EXPECT_EQ(panel.model()->headerData(1, Qt::Vertical, Qt::DisplayRole).toString(),
              QStringLiteral("cat"));
    ASSERT_TRUE(
        panel.model()->setData(panel.model()->index(1, 2), QStringLiteral("-0.5"), Qt::EditRole));
    EXPECT_EQ(doc.session().input.X(1, 2), -0.5);
}

}  // namespace
}  // namespace attnlab
