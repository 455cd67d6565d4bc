// SPDX-License-Identifier: GPL-3.0-or-later
// The fonts that every layout test measures text in. Without them (a font cache that lists
// nothing, say) Qt draws no text and measures every label as empty, and some thirty layout
// tests fail for a reason none of them names; this one names it.

#include <gtest/gtest.h>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QStringList>

namespace {

TEST(SystemFonts, TheLatinAndChineseFontsTheLayoutsAreMeasuredInAreVisibleToQt)
{
    const QStringList families = QFontDatabase::families();
    const auto has = [&](const QString& prefix) {
        for (const QString& f : families)
            if (f.startsWith(prefix)) return true;
        return false;
    };
    EXPECT_TRUE(has(QStringLiteral("DejaVu Sans")))
        << "Qt sees no DejaVu Sans (" << families.size()
        << " families): is fonts-dejavu-core installed, and does fc-list list it? If not, "
           "rebuild the cache with fc-cache -f -s (scripts/setup.sh does).";
    // Chinese is drawn by fontconfig's fallback (the family may not be listed by name): its
    // advance below says whether it is there.
    // A font that is listed but draws nothing would fail the layouts the same way.
    const QFontMetricsF metrics(QFont(QStringLiteral("DejaVu Sans"), 10));
    EXPECT_GT(metrics.horizontalAdvance(QStringLiteral("attention")), 30.0);
    EXPECT_GT(metrics.horizontalAdvance(QStringLiteral("注意力")), 20.0);
}

}  // namespace
