// SPDX-License-Identifier: GPL-3.0-or-later
// The model view's thumbnails: the selected one's frame never covers a column title, in the
// window and in the presenter's full-screen grid.
#include "ui/model/model_grid_paint.h"

#include <gtest/gtest.h>

namespace attnlab {
namespace {

TEST(ModelGridGeometry, TheSelectedFrameStaysBelowEveryColumnTitle)
{
    struct Case {
        QRectF area;
        int layers, heads, group;
        double basePx;
    };
    const Case cases[] = {{{0, 0, 430, 660}, 2, 4, 1, 11.0},     // the window's model view
                          {{0, 0, 1320, 700}, 2, 4, 1, 16.0},    // presenter, 1366 x 768
                          {{0, 0, 1870, 1010}, 3, 4, 1, 22.0},   // presenter, 1920 x 1080
                          {{0, 0, 1320, 700}, 1, 8, 2, 16.0},    // grouped heads
                          {{0, 0, 430, 660}, 12, 12, 1, 11.0}};  // GPT-2 small in the window
    for (const Case& c : cases) {
        const ModelGridGeometry g = modelGridGeometry(c.area, c.layers, c.heads, c.basePx, c.group);
        ASSERT_GT(g.side, 0.0);
        for (int column = 0; column < g.columns; ++column) {
            const QRectF title = g.columnTitleRect(column, c.area);
            SCOPED_TRACE(::testing::Message()
                         << c.area.width() << " x " << c.area.height() << ", column " << column);
            EXPECT_GE(title.height(), c.basePx * 1.6) << "a line of text fits";
            EXPECT_LE(title.bottom(), g.ringRect(0, column).top() + 1e-9);
            EXPECT_GE(title.top(), c.area.top());
        }
    }
}

}  // namespace
}  // namespace attnlab
