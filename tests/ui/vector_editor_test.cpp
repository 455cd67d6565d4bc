// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QTest>
#include <QUndoStack>

#include "ui/document/document.h"
#include "ui/panels/vector_editor_panel.h"

namespace attnlab {
namespace {

const attn::HeadResult& head(Document& doc)
{
    doc.flush();
    return *doc.currentHead();
}

// Drags a slider through the real widget: press, several value changes, release.
void drag(QSlider* slider, const std::vector<int>& values)
{
    slider->setSliderDown(true);
    for (int v : values) slider->setValue(v);
    slider->setSliderDown(false);
}

TEST(VectorEditor, MovingAKeySliderChangesThatKeysColumn)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    QSlider* slider = panel.slider(1, 0);
    ASSERT_NE(slider, nullptr);
    EXPECT_EQ(slider->value(), static_cast<int>(std::lround(before.K(1, 0) * 100)));
    drag(slider, {slider->value() + 50, slider->value() + 150});
    const attn::HeadResult& after = head(doc);

    EXPECT_NEAR(after.K(1, 0), before.K(1, 0) + 1.5, 0.006);
    EXPECT_EQ(after.K.row(0), before.K.row(0));
    // Only key 1's column of scores moves; every other column stays bit-identical.
    EXPECT_GT((after.scores.col(1) - before.scores.col(1)).cwiseAbs().maxCoeff(), 0.1);
    for (long j = 0; j < after.scores.cols(); ++j) {
        if (j == 1) continue;
        EXPECT_EQ(after.scores.col(j), before.scores.col(j)) << "column " << j;
    }
    EXPECT_GT((after.weights.col(1) - before.weights.col(1)).cwiseAbs().maxCoeff(), 1e-3);
}

TEST(VectorEditor, DoubleThenUndoRestoresExactWeights)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    ASSERT_NE(panel.doubleButton(2), nullptr);
    panel.doubleButton(2)->click();
    const attn::HeadResult& doubled = head(doc);
    EXPECT_EQ(doubled.K.row(2), (2.0 * before.K.row(2)).eval());
    EXPECT_NE(doubled.weights, before.weights);
    ASSERT_EQ(doc.session().input.edits.size(), 1u);
    EXPECT_EQ(doc.session().input.edits[0].scale, 2.0);

    doc.undoStack()->undo();
    EXPECT_EQ(head(doc).K, before.K);
    EXPECT_EQ(head(doc).scores, before.scores);
    EXPECT_EQ(head(doc).weights, before.weights)
        << "max |difference| = " << (head(doc).weights - before.weights).cwiseAbs().maxCoeff();
    EXPECT_TRUE(doc.session().input.edits.empty());
}

TEST(VectorEditor, DoubleTwiceQuadruplesTheVector)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    panel.doubleButton(0)->click();
    head(doc);
    panel.doubleButton(0)->click();
    EXPECT_EQ(head(doc).K.row(0), (4.0 * before.K.row(0)).eval());
    EXPECT_EQ(doc.undoStack()->count(), 2);
}

TEST(VectorEditor, ASliderDragOfManyStepsIsOneUndoStep)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    const int count = doc.undoStack()->count();
    QSlider* slider = panel.slider(3, 1);
    ASSERT_NE(slider, nullptr);
    std::vector<int> steps;
    for (int i = 1; i <= 60; ++i) steps.push_back(slider->value() - 3 * i);
    drag(slider, steps);
    EXPECT_EQ(doc.undoStack()->count(), count + 1);
    EXPECT_NEAR(head(doc).K(3, 1), steps.back() / 100.0, 1e-12);

    // A second drag of the same vector is its own step.
    drag(slider, {slider->value() + 10, slider->value() + 20});
    EXPECT_EQ(doc.undoStack()->count(), count + 2);

    doc.undoStack()->undo();
    doc.undoStack()->undo();
    EXPECT_EQ(head(doc).K, before.K);
    EXPECT_TRUE(head(doc).weights.isApprox(before.weights, 1e-14));
}

TEST(VectorEditor, AMouseDragThroughTheWidgetIsOneUndoStep)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Query);
    panel.resize(900, 400);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QSlider* slider = panel.slider(0, 0);
    ASSERT_NE(slider, nullptr);
    const int start = slider->value();
    const int count = doc.undoStack()->count();
    const QPoint handle(static_cast<int>((start - slider->minimum()) * (slider->width() - 1.0) /
                                         (slider->maximum() - slider->minimum())),
                        slider->height() / 2);
    QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, handle);
    for (int dx = 4; dx <= 40; dx += 4) QTest::mouseMove(slider, handle + QPoint(dx, 0));
    QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, handle + QPoint(40, 0));
    EXPECT_GT(slider->value(), start);
    EXPECT_EQ(doc.undoStack()->count(), count + 1);
    EXPECT_NEAR(head(doc).Q(0, 0), slider->value() / 100.0, 1e-12);
}

TEST(VectorEditor, SpinBoxEditsAreSeparateUndoSteps)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Value);
    QDoubleSpinBox* spin = panel.spinBox(1, 2);
    ASSERT_NE(spin, nullptr);
    const int count = doc.undoStack()->count();
    spin->setValue(0.75);
    spin->setValue(-1.25);
    EXPECT_EQ(doc.undoStack()->count(), count + 2);
    EXPECT_EQ(head(doc).V(1, 2), -1.25);
    EXPECT_EQ(panel.slider(1, 2)->value(), -125);
}

TEST(VectorEditor, SliderOnADoubledVectorShowsTheValueSet)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    panel.doubleButton(1)->click();
    head(doc);
    panel.spinBox(1, 0)->setValue(1.0);
    const attn::HeadResult& after = head(doc);
    EXPECT_DOUBLE_EQ(after.K(1, 0), 1.0);
    EXPECT_EQ(after.K(1, 1), 2.0 * before.K(1, 1));
    EXPECT_EQ(panel.slider(1, 0)->value(), 100);
}

TEST(VectorEditor, ResetRemovesTheEditAndMarksTheRow)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const attn::HeadResult before = head(doc);
    EXPECT_FALSE(panel.resetButton(0)->isEnabled());
    panel.doubleButton(0)->click();
    head(doc);
    EXPECT_TRUE(panel.resetButton(0)->isEnabled());
    panel.resetButton(0)->click();
    EXPECT_EQ(head(doc).K, before.K);
    EXPECT_TRUE(head(doc).weights.isApprox(before.weights, 1e-14));
    EXPECT_TRUE(doc.session().input.edits.empty());
    EXPECT_FALSE(panel.resetButton(0)->isEnabled());
}

TEST(VectorEditor, DocumentChangesMoveSlidersWithoutPushingEdits)
{
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    const int count = doc.undoStack()->count();
    ASSERT_TRUE(doc.changeSession(QStringLiteral("x"), [](Session& s) { s.input.X *= 2.0; }));
    const attn::HeadResult& hr = head(doc);
    EXPECT_EQ(doc.undoStack()->count(), count + 1);
    EXPECT_TRUE(doc.session().input.edits.empty());
    EXPECT_EQ(panel.slider(1, 1)->value(), static_cast<int>(std::lround(hr.K(1, 1) * 100)));
    EXPECT_DOUBLE_EQ(panel.spinBox(1, 1)->value(), hr.K(1, 1));
}

TEST(VectorEditor, LongSequencesShowAWindowAroundTheSelection)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("long"), [](Session& s) {
        QStringList tokens;
        for (int i = 0; i < 200; ++i) tokens << QStringLiteral("t%1").arg(i);
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
    }));
    doc.flush();
    VectorEditorPanel panel(&doc, attn::Role::Key);
    EXPECT_LE(panel.shownTokens().size(), 2 * VectorEditorPanel::kWindowRadius + 1);
    doc.select(3, 120);
    EXPECT_NE(panel.slider(120, 0), nullptr);
    EXPECT_EQ(panel.slider(0, 0), nullptr);
    panel.setCentreToken(199);
    EXPECT_NE(panel.doubleButton(199), nullptr);
    EXPECT_EQ(panel.doubleButton(120), nullptr);
}

TEST(VectorEditor, LongVectorsShowChosenComponents)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("wide"),
                                  [](Session& s) { randomiseProjections(s, 1, 16, 12, 7); }));
    doc.flush();
    VectorEditorPanel panel(&doc, attn::Role::Key);
    EXPECT_EQ(panel.shownComponents(), (QVector<int>{0, 1, 2, 3}));
    EXPECT_NE(panel.slider(0, 3), nullptr);
    EXPECT_EQ(panel.slider(0, 4), nullptr);
    EXPECT_TRUE(panel.setComponentsText(QStringLiteral("2, 10-12")));
    EXPECT_EQ(panel.shownComponents(), (QVector<int>{1, 9, 10, 11}));
    EXPECT_NE(panel.slider(2, 11), nullptr);
    EXPECT_FALSE(panel.setComponentsText(QStringLiteral("0,17")));
    EXPECT_FALSE(panel.setComponentsText(QStringLiteral("abc")));
    EXPECT_EQ(panel.shownComponents(), (QVector<int>{1, 9, 10, 11}));

    panel.spinBox(2, 11)->setValue(1.25);  // the spin box keeps 4 decimals
    EXPECT_EQ(head(doc).K(2, 11), 1.25);
}

TEST(VectorEditor, DoublingAKeyLeavesTheSlidersWhereTheyWere)
{
    // The edit tag must not widen its column: the slider under the mouse stays put.
    Document doc;
    VectorEditorPanel panel(&doc, attn::Role::Key);
    panel.resize(640, 400);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    QSlider* slider = panel.slider(0, 0);
    ASSERT_NE(slider, nullptr);
    const QPoint before = slider->mapTo(&panel, QPoint(0, 0));
    panel.doubleButton(0)->click();
    head(doc);
    QApplication::processEvents();  // the layout settles
    EXPECT_EQ(slider->mapTo(&panel, QPoint(0, 0)), before);
    EXPECT_TRUE(panel.resetButton(0)->isEnabled());
}

}  // namespace
}  // namespace attnlab
