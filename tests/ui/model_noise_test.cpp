// SPDX-License-Identifier: GPL-3.0-or-later
// What the Model panel calls a change: a head carried back from the workbench as it came, or
// changed by less than the float rounding of a re-run, changes nothing that the change grid
// colours or the predictions sign; a change above the threshold still shows, however small.
#include <gtest/gtest.h>

#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/model/head_link.h"
#include "ui/model/model_change_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_link_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/predictions_panel.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/views/color_scales.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

// The tiny GPT-2 (2 layers of 4 heads) on a text, its layer 2 head 3 taken into the workbench
// and left as it is, or with key 2 scaled by `keyScale`.
struct UnchangedHead {
    QTemporaryDir dir;
    MainWindow workbench;
    ModelWindow model;
    explicit UnchangedHead(double keyScale = 1.0)
    {
        workbench.show();
        workbench.adoptModelWindow(&model);
        ModelWindowDialogs d;
        d.warn = [](const QString&, const QString&) {};
        model.setDialogs(d);
        EXPECT_TRUE(model.openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
        model.setText(QStringLiteral("the cat sat on the mat."));
        EXPECT_TRUE(testing::settled(model.document()));
        EXPECT_TRUE(model.document()->openInWorkbench(1, 2));
        workbench.headLink()->flush();
        if (keyScale != 1.0) {
            attn::VectorEdit e;
            e.role = attn::Role::Key;
            e.index = 1;
            e.scale = keyScale;
            EXPECT_TRUE(workbench.document()->editVector(e));
            workbench.document()->flush();
            workbench.headLink()->flush();
        }
    }
    [[nodiscard]] ModelLinkPanel* panel() const { return workbench.findChild<ModelLinkPanel*>(); }
};

TEST(ModelChange, ChangesBelowTheNoiseFloorAreNoChange_AboveItTheyAre)
{
    EXPECT_FALSE(isAttentionChange(0.0f));
    EXPECT_FALSE(isAttentionChange(5e-7f));  // a re-run's rounding, seen on GPT-2 small
    EXPECT_FALSE(isAttentionChange(9.9e-6f));
    EXPECT_TRUE(isAttentionChange(1e-5f));
    EXPECT_TRUE(isAttentionChange(0.01f));
    EXPECT_FALSE(isProbabilityChange(0.3, 0.3));
    EXPECT_FALSE(isProbabilityChange(0.3, 0.3 + 9e-6));
    EXPECT_FALSE(isProbabilityChange(0.5, 0.5000003));
    EXPECT_TRUE(isProbabilityChange(0.01152, 0.01148));  // 0.004 points: a change, and shown
    EXPECT_TRUE(isProbabilityChange(0.3, 0.3 - 2e-5));
}

TEST(ModelChange, AnUnchangedWorkbenchHeadColoursNoCellAndSignsNoPrediction)
{
    // Left as it came: the model runs again with the workbench's map of the head, which differs
    // from its own by float rounding (4.5e-8 in a weight here, 5e-7 in GPT-2 small).
    UnchangedHead b;
    ASSERT_NE(b.panel(), nullptr);
    const auto snap = b.workbench.headLink()->snapshot();
    ASSERT_TRUE(snap && snap->fromWorkbench);
    float largest = 0.0f;
    for (const auto& row : snap->change)
        for (const float v : row) largest = std::max(largest, v);
    EXPECT_LT(largest, kAttentionNoiseFloor) << "not noise: " << largest;
    EXPECT_GT(largest, 0.0f) << "no rounding to hide: the test would prove nothing";

    ModelChangePanel* change = b.panel()->changes();
    const QString title = change->title()->text();
    EXPECT_TRUE(title.contains(QStringLiteral("no weight changed"))) << title.toStdString();
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    const QColor none(lut.color(0.0, ValueRange(0.0, 1.0)));
    QTableWidget* grid = change->grid();
    for (int l = 0; l < grid->rowCount(); ++l)
        for (int h = 0; h < grid->columnCount(); ++h)
            EXPECT_EQ(grid->item(l, h)->background().color().name().toStdString(),
                      none.name().toStdString())
                << "L" << l + 1 << " H" << h + 1;

    QTreeWidget* tree = b.panel()->predictions()->tree();
    ASSERT_EQ(tree->columnCount(), 4);
    int rows = 0;
    for (int t = 0; t < tree->topLevelItemCount(); ++t)
        for (int k = 0; k < tree->topLevelItem(t)->childCount(); ++k, ++rows) {
            const QTreeWidgetItem* item = tree->topLevelItem(t)->child(k);
            EXPECT_EQ(item->text(3).toStdString(), "0.0 pp") << item->text(0).toStdString();
            EXPECT_EQ(item->foreground(3).style(), Qt::NoBrush)
                << item->text(0).toStdString() << " is coloured as a change";
        }
    EXPECT_GT(rows, 0);
}

TEST(ModelChange, ARealEditAboveTheFloorStillColoursAndSigns)
{
    UnchangedHead b(3.0);
    ASSERT_NE(b.panel(), nullptr);
    const auto snap = b.workbench.headLink()->snapshot();
    ASSERT_TRUE(snap);
    ModelChangePanel* change = b.panel()->changes();
    EXPECT_FALSE(change->title()->text().contains(QStringLiteral("no weight changed")));
    QTreeWidget* tree = b.panel()->predictions()->tree();
    int signed_ = 0;
    for (int t = 0; t < tree->topLevelItemCount(); ++t)
        for (int k = 0; k < tree->topLevelItem(t)->childCount(); ++k) {
            const QTreeWidgetItem* item = tree->topLevelItem(t)->child(k);
            if (item->foreground(3).style() != Qt::NoBrush) ++signed_;
        }
    EXPECT_GT(signed_, 0);
}

}  // namespace
}  // namespace attnlab
