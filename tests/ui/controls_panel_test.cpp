// SPDX-License-Identifier: GPL-3.0-or-later
// The Controls panel as a teacher uses it: typed numbers arrive as typed, and a refused change
// is explained beside the control that caused it.
#include "ui/panels/controls_panel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTest>

#include "ui/document/document.h"
#include "ui/panels/matrices_panel.h"
#include "ui/views/panel_message.h"

namespace attnlab {
namespace {

// Applying each keystroke would reformat the box under the cursor: "0.2" becomes "0.20", so
// typing 0.25 would end as 0.20.
TEST(ControlsPanel, TypingATemperatureAppliesWhatWasTyped)
{
    Document doc;
    ASSERT_TRUE(doc.setScaling(attn::Scaling::Temperature));
    ControlsPanel panel(&doc);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QDoubleSpinBox* box = panel.temperatureBox();
    ASSERT_TRUE(box->isEnabled());
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("0.25"));
    QTest::keyClick(box, Qt::Key_Return);
    EXPECT_DOUBLE_EQ(doc.session().input.temperature, 0.25);
    EXPECT_EQ(doc.undoStack()->undoText(), QStringLiteral("Change temperature"));
}

// Cross-attention with no source snapped back, and its reason appeared (clipped) in the
// Matrices panel instead of here.
TEST(ControlsPanel, CrossModeWithoutASourceSaysWhyHereAndOnlyHere)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("no source"), [](Session& s) {
        s.sourceTokens.clear();
        s.input.Y.resize(0, s.dModel);
    }));
    ControlsPanel controls(&doc);
    MatricesPanel matrices(&doc);
    controls.modeBox()->setCurrentIndex(2);
    Q_EMIT controls.modeBox()->activated(2);
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Self);
    EXPECT_EQ(controls.modeBox()->currentIndex(), 0);  // shows the session as it is
    EXPECT_TRUE(controls.message().contains(QStringLiteral("source")))
        << controls.message().toStdString();
    for (const PanelMessage* m : matrices.findChildren<PanelMessage*>())
        EXPECT_TRUE(m->isHidden() || m->text().isEmpty());
    for (const QLabel* l : matrices.findChildren<QLabel*>())
        EXPECT_FALSE(l->isVisibleTo(&matrices) && l->text().contains(QStringLiteral("source")))
            << l->text().toStdString();
    // The next accepted change clears the message.
    controls.modeBox()->setCurrentIndex(1);
    Q_EMIT controls.modeBox()->activated(1);
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Causal);
    EXPECT_TRUE(controls.message().isEmpty());
}

}  // namespace
}  // namespace attnlab
