// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <QTest>

#include "ui/document/document.h"
#include "ui/panels/heads_grid_panel.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

void useThreeHeads(Document& doc)
{
    ASSERT_TRUE(doc.changeSession(QStringLiteral("heads"),
                                  [](Session& s) { randomiseProjections(s, 3, 3, 2, 7); }));
    doc.flush();
}

TEST(HeadsGrid, ShowsOneMapPerHead)
{
    Document doc;
    HeadsGridPanel panel(&doc);
    EXPECT_EQ(panel.headMapCount(), 1);
    useThreeHeads(doc);
    ASSERT_EQ(panel.headMapCount(), 3);
    for (int h = 0; h < 3; ++h) {
        const HeatmapContent& c = panel.headMap(h)->content();
        EXPECT_EQ(c.title, QStringLiteral("Head %1").arg(h + 1));
        EXPECT_TRUE(c.values.isApprox(doc.result().heads[static_cast<std::size_t>(h)].weights));
    }
    const HeatmapContent& out = panel.outputMap()->content();
    EXPECT_EQ(out.values.rows(), 4);
    EXPECT_EQ(out.values.cols(), doc.session().dModel);
    EXPECT_TRUE(out.values.isApprox(doc.result().output));
    EXPECT_EQ(out.scale, ColorScale::Diverging);
}

TEST(HeadsGrid, ClickingAMapSelectsItsHead)
{
    Document doc;
    HeadsGridPanel panel(&doc);
    useThreeHeads(doc);
    panel.resize(900, 900);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    HeatmapView* map = panel.headMap(2);
    map->replot();
    const QPoint cell(static_cast<int>(map->xAxis->coordToPixel(1.0)),
                      static_cast<int>(map->yAxis->coordToPixel(3.0)));
    QTest::mouseClick(map, Qt::LeftButton, Qt::NoModifier, cell);
    EXPECT_EQ(doc.head(), 2);
    EXPECT_EQ(doc.selectedRow(), 3);
    EXPECT_EQ(doc.selectedColumn(), 1);
    QCoreApplication::processEvents();  // the queued replots, before a picture is taken
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR"))
        panel.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                          QStringLiteral("/heads_grid.png"));
}

}  // namespace
}  // namespace attnlab
