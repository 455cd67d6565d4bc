#include "ui/window/main_window.h"

#include <gtest/gtest.h>

namespace attnlab {
namespace {

TEST(MainWindow, OpensWithItsTitle)
{
    MainWindow window;
    window.show();
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("AttnLab")));
}

}  // namespace
}  // namespace attnlab
