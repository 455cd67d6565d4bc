// SPDX-License-Identifier: GPL-3.0-or-later
// Show working: every number it prints is the row's own, after any edit and for either
// score function.
#include "ui/panels/working_panel.h"

#include <gtest/gtest.h>

#include <QTableWidget>

#include "core/scores.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"

namespace attnlab {
namespace {

QString num(double v)
{
    return QString::number(v, 'f', 4);
}

// In the default session, halving key 1 takes the incremental path, whose softmax shift for
// row 1 stays at the old maximum (1.784). Show working printed that shift as "the row's
// largest scaled score" and derived its exps from it.
TEST(ShowWorking, AfterAnIncrementalKeyEditPrintsTheRowsTrueMaxAndItsExps)
{
    Document doc;
    doc.flush();
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 0;
    e.scale = 0.5;
    ASSERT_TRUE(doc.editVector(e));
    doc.flush();
    WorkingPanel panel(&doc);
    doc.select(0, 0);
    const attn::HeadResult& h = *doc.currentHead();
    const double trueMax = h.scaled.row(0).maxCoeff();
    EXPECT_TRUE(panel.headerText().contains(QStringLiteral("m = ") + num(trueMax)))
        << panel.headerText().toStdString() << " wanted m = " << trueMax;
    QTableWidget* t = panel.table();
    double sum = 0;
    for (int j = 0; j < h.weights.cols(); ++j) {
        const double expected = std::exp(h.scaled(0, j) - trueMax);
        sum += expected;
        EXPECT_EQ(t->item(j, WorkingPanel::ExpColumn)->text(), num(expected)) << "key " << j;
    }
    EXPECT_EQ(t->item(static_cast<int>(h.weights.cols()), WorkingPanel::ExpColumn)->text(),
              num(sum));
}

TEST(ShowWorking, AdditiveScoresShowTheirFormulaNumbersAndTheDivision)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("additive"), [](Session& s) {
        s.input.score = attn::ScoreFunction::Additive;
    }));
    doc.flush();
    WorkingPanel panel(&doc);
    doc.select(1, 0);
    QTableWidget* t = panel.table();
    const QString header = t->horizontalHeaderItem(WorkingPanel::DotColumn)->text();
    EXPECT_FALSE(header.contains(QStringLiteral("q·k"))) << header.toStdString();
    EXPECT_TRUE(header.contains(QStringLiteral("tanh"))) << header.toStdString();
    // The cell writes v · h out with the numbers of h = tanh(W_a q + U_a k) from the core.
    const attn::HeadResult& hr = *doc.currentHead();
    const attn::AttentionInput& in = doc.session().input;
    const attn::Vector hidden =
        attn::additiveHidden(in, 0, hr.Q.row(1).transpose(), hr.K.row(0).transpose());
    EXPECT_NEAR(in.heads[0].additive.v.dot(hidden), hr.scores(1, 0), 1e-12);
    const QString cell = t->item(0, WorkingPanel::DotColumn)->text();
    EXPECT_TRUE(cell.contains(QString::number(hidden[0], 'f', 3))) << cell.toStdString();
    EXPECT_TRUE(cell.contains(QString::number(in.heads[0].additive.v[0], 'f', 3)))
        << cell.toStdString();
    EXPECT_TRUE(panel.headerText().contains(QStringLiteral("divided by d")))
        << panel.headerText().toStdString();
}

// A number drawn at the top of its row beside centred text reads as belonging to the row above.
TEST(ShowWorking, NumberAndTextColumnsShareTheRowsMiddleLine)
{
    Document doc;
    doc.flush();
    WorkingPanel panel(&doc);
    QTableWidget* t = panel.table();
    ASSERT_GT(t->rowCount(), 1);
    for (int r = 0; r < t->rowCount(); ++r) {
        for (int c = 0; c < t->columnCount(); ++c) {
            const QTableWidgetItem* item = t->item(r, c);
            ASSERT_NE(item, nullptr) << r << ", " << c;
            const auto align = Qt::Alignment(item->textAlignment());
            EXPECT_EQ(align & Qt::AlignVertical_Mask, Qt::AlignVCenter) << r << ", " << c;
            const bool number = c != WorkingPanel::KeyColumn && c != WorkingPanel::DotColumn;
            EXPECT_EQ(align & Qt::AlignHorizontal_Mask, number ? Qt::AlignRight : Qt::AlignLeft)
                << r << ", " << c;
        }
    }
}

}  // namespace
}  // namespace attnlab
