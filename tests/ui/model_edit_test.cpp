// SPDX-License-Identifier: GPL-3.0-or-later
// Head edits in the real-model window: switching a head off, replacing it by its mean and
// doubling a key re-run the model from that layer; the predictions show before and after and
// the change grid says which later heads moved; each edit is one undo step; an edit outside
// the text is refused and changes nothing.
#include <gtest/gtest.h>

#include <QLineEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "core/model/head_edit.h"
#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/model/model_change_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/model/predictions_panel.h"

namespace attnlab {
namespace {

using testing::OpenModel;
using testing::openModel;
using testing::settled;

TEST(ModelEdits, SwitchingAHeadOffReRunsTheModelAndShowsBeforeAndAfter)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o));
    ModelDocument* doc = o.window->document();
    const auto plain = doc->snapshot();
    ASSERT_TRUE(doc->ablateHead(0, 1, false));
    ASSERT_TRUE(settled(doc));
    const auto edited = doc->snapshot();
    ASSERT_TRUE(edited->edited());

    // The same as the core's runEdited on the unedited run.
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(o.folder.toStdString(), model).ok());
    attn::model::ForwardResult want;
    const std::vector<attn::model::HeadEdit> edits{
        {attn::model::HeadEditKind::AblateZero, 0, 1, 0, 1.0f}};
    ASSERT_TRUE(attn::model::runEdited(model, plain->result, edits, {}, want).ok());
    for (std::size_t h = 0; h < 4; ++h)
        EXPECT_LT((edited->result.layers[1].attention[h] - want.layers[1].attention[h])
                      .cwiseAbs()
                      .maxCoeff(),
                  1e-6f);
    EXPECT_EQ(edited->predictions[0].top[0].id, want.predictions[0].top[0].id);

    // Predictions: before, after and the change; the change grid: layer 1 unchanged (the
    // switched-off head's own map is the same, only its output is gone), layer 2 moved.
    QTreeWidget* tree = o.window->predictions()->tree();
    ASSERT_EQ(tree->columnCount(), 4);
    const QTreeWidgetItem* first = tree->topLevelItem(0)->child(0);
    const double before = edited->predictions[0].top[0].before;
    EXPECT_EQ(first->text(1), QStringLiteral("%1 %").arg(before * 100.0, 0, 'f', 1));
    EXPECT_NE(edited->predictions[0].top[0].before, edited->predictions[0].top[0].probability);
    QTableWidget* change = o.window->changePanel()->grid();
    EXPECT_TRUE(o.window->changePanel()->isVisibleTo(o.window.get()));
    ASSERT_EQ(change->rowCount(), 2);
    ASSERT_EQ(change->columnCount(), 4);
    bool laterMoved = false;
    for (int h = 0; h < 4; ++h) {
        EXPECT_TRUE(change->item(0, h)->toolTip().endsWith(QStringLiteral(": 0.0000")))
            << change->item(0, h)->toolTip().toStdString();
        laterMoved =
            laterMoved || !change->item(1, h)->toolTip().endsWith(QStringLiteral(": 0.0000"));
    }
    EXPECT_TRUE(laterMoved);
    EXPECT_GT(
        edited->change[1][0] + edited->change[1][1] + edited->change[1][2] + edited->change[1][3],
        0.0f);

    // One undo step: back to the unedited run; redo brings the edit back.
    doc->undoStack()->undo();
    ASSERT_TRUE(settled(doc));
    EXPECT_FALSE(doc->snapshot()->edited());
    EXPECT_EQ(tree->columnCount(), 2);
    EXPECT_FALSE(o.window->changePanel()->isVisibleTo(o.window.get()));
    doc->undoStack()->redo();
    ASSERT_TRUE(settled(doc));
    EXPECT_TRUE(doc->snapshot()->edited());
    EXPECT_TRUE(doc->headAblated(0, 1));
}

TEST(ModelEdits, DoublingAKeyTwiceScalesItByFourAndRestoreUndoesTheHead)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o));
    ModelDocument* doc = o.window->document();
    using Kind = attn::model::HeadEditKind;
    ASSERT_TRUE(doc->scaleVector(Kind::Key, 1, 2, 3, 2.0f));
    ASSERT_TRUE(doc->scaleVector(Kind::Key, 1, 2, 3, 2.0f));
    ASSERT_TRUE(doc->ablateHead(1, 0, true));
    ASSERT_TRUE(settled(doc));
    ASSERT_EQ(doc->edits().size(), 2u);
    EXPECT_EQ(doc->edits()[0].scale, 4.0f);
    EXPECT_EQ(doc->snapshot()->edits.size(), 2u);
    EXPECT_EQ(doc->undoStack()->count(), 3);
    ASSERT_TRUE(doc->restoreHead(1, 2));
    ASSERT_TRUE(settled(doc));
    ASSERT_EQ(doc->edits().size(), 1u);
    EXPECT_FALSE(doc->headEdited(1, 2));
    ASSERT_TRUE(doc->clearEdits());
    ASSERT_TRUE(settled(doc));
    EXPECT_FALSE(doc->snapshot()->edited());
}

TEST(ModelEdits, AnEditOutsideTheTextIsRefusedAndChangesNothing)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o));
    ModelDocument* doc = o.window->document();
    QString said;
    QObject::connect(doc, &ModelDocument::errorOccurred, [&](const QString& m) { said = m; });
    const auto before = doc->snapshot();
    EXPECT_FALSE(doc->scaleVector(attn::model::HeadEditKind::Key, 0, 0, 40, 2.0f));
    EXPECT_TRUE(said.contains(QStringLiteral("11 tokens"))) << said.toStdString();
    EXPECT_FALSE(doc->ablateHead(2, 0, false));  // the model has 2 layers
    EXPECT_TRUE(said.contains(QStringLiteral("2 layers"))) << said.toStdString();
    EXPECT_TRUE(doc->edits().empty());
    EXPECT_EQ(doc->undoStack()->count(), 0);
    EXPECT_EQ(doc->snapshot(), before);
}

}  // namespace
}  // namespace attnlab
