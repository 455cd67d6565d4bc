// SPDX-License-Identifier: GPL-3.0-or-later
// GoogleTest main for widget tests: one QApplication on the offscreen platform.
// gtest_discover_tests runs this binary at build time without the test's
// environment, so the platform is set here when no display is present.
#include <gtest/gtest.h>

#include <QApplication>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
