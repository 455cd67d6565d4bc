// SPDX-License-Identifier: GPL-3.0-or-later
// The RoPE switch of the Controls panel: it turns the map into what the core computes with
// rotary positions, its base θ appears only while it is on, each change is one undo step, and
// a refusal (odd d_k, additive scoring) is explained beside it.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QTest>

#include "core/attention.h"
#include "ui/document/document.h"
#include "ui/panels/controls_panel.h"

namespace attnlab {
namespace {

// The default session (the hand exercise) with d_k = 4, which rotary positions can turn.
void useEvenKeyWidth(Document& doc)
{
    ASSERT_TRUE(doc.setKeyDim(4));
    doc.undoStack()->clear();
}

attn::Matrix weightsOf(const attn::AttentionInput& in)
{
    attn::AttentionResult r;
    EXPECT_TRUE(attn::computeAttention<double>(in, r).ok());
    return r.heads.empty() ? attn::Matrix() : r.heads[0].weights;
}

TEST(RopeSwitch, TogglingItChangesTheMapAsTheCoreSaysAndUndoRestoresIt)
{
    Document doc;
    useEvenKeyWidth(doc);
    ControlsPanel panel(&doc);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    const attn::Matrix before = doc.currentHead()->weights;
    EXPECT_FALSE(panel.ropeThetaBox()->isVisible());

    // Keyboard: Tab to the switch is what a user does; the click is the same toggle.
    panel.ropeBox()->setFocus();
    QTest::keyClick(panel.ropeBox(), Qt::Key_Space);
    ASSERT_TRUE(doc.session().input.rope.has_value());
    EXPECT_EQ(doc.session().input.rope->theta, 10000.0);
    attn::AttentionInput want = doc.session().input;
    EXPECT_EQ(doc.currentHead()->weights, weightsOf(want));
    EXPECT_GT((doc.currentHead()->weights - before).cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_TRUE(panel.ropeThetaBox()->isVisible());
    EXPECT_EQ(doc.undoStack()->undoText(), QStringLiteral("Turn on rotary positions (RoPE)"));

    // A new θ, typed: one more step, and the map the core makes with it.
    QDoubleSpinBox* theta = panel.ropeThetaBox();
    theta->setFocus();
    theta->selectAll();
    QTest::keyClicks(theta, QStringLiteral("10"));
    QTest::keyClick(theta, Qt::Key_Return);
    EXPECT_EQ(doc.session().input.rope->theta, 10.0);
    want.rope->theta = 10.0;
    EXPECT_EQ(doc.currentHead()->weights, weightsOf(want));
    EXPECT_EQ(doc.undoStack()->undoText(), QStringLiteral("Change RoPE θ"));

    doc.undoStack()->undo();
    doc.flush();
    EXPECT_EQ(doc.session().input.rope->theta, 10000.0);
    EXPECT_EQ(theta->value(), 10000.0);
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_FALSE(doc.session().input.rope.has_value());
    EXPECT_FALSE(panel.ropeBox()->isChecked());
    EXPECT_FALSE(panel.ropeThetaBox()->isVisible());
    EXPECT_EQ(doc.currentHead()->weights, before);
    doc.undoStack()->redo();
    doc.flush();
    EXPECT_TRUE(panel.ropeBox()->isChecked());
    EXPECT_TRUE(doc.session().input.rope.has_value());
}

TEST(RopeSwitch, AnOddD_kIsRefusedWithItsReasonBesideTheSwitch)
{
    Document doc;  // the hand exercise: d_k = 3
    ControlsPanel panel(&doc);
    panel.ropeBox()->click();
    EXPECT_FALSE(doc.session().input.rope.has_value());
    EXPECT_FALSE(panel.ropeBox()->isChecked());
    EXPECT_TRUE(panel.message().contains(QStringLiteral("d_k must be even")))
        << panel.message().toStdString();
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(RopeSwitch, AdditiveScoringIsRefusedWhileItIsOn)
{
    Document doc;
    useEvenKeyWidth(doc);
    ASSERT_TRUE(doc.setRope(attn::Rope{}));
    EXPECT_FALSE(doc.setScore(attn::ScoreFunction::Additive));
    EXPECT_TRUE(doc.lastError().contains(QStringLiteral("dot-product")))
        << doc.lastError().toStdString();
    EXPECT_EQ(doc.session().input.score, attn::ScoreFunction::Dot);
    // And an odd d_k while it is on.
    EXPECT_FALSE(doc.setKeyDim(5));
    EXPECT_EQ(doc.session().input.keyDim(), 4);
}

TEST(RopeSwitch, KeyEditsWhileItIsOnEqualAFullRecomputation)
{
    Document doc;
    useEvenKeyWidth(doc);
    ASSERT_TRUE(doc.setRope(attn::Rope{}));
    ASSERT_TRUE(doc.editVector({attn::Role::Key, 0, 2, 2.0, {}}));
    ASSERT_TRUE(doc.editVector({attn::Role::Query, 0, 1, 1.0, {{0, 1.5}}}));
    const attn::Matrix full = weightsOf(doc.session().input);
    EXPECT_LT((doc.currentHead()->weights - full).cwiseAbs().maxCoeff(), 1e-12);
}

}  // namespace
}  // namespace attnlab
