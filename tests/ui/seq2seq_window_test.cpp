// SPDX-License-Identifier: GPL-3.0-or-later
// The translator window on the tiny Marian, T5 and BART checkpoints with real tokenizer files
// (tests/reference/fixtures/seq2seq/*_tokenizer): Translate fills the target, the three grids
// show the run's maps, the enlarged map and the head view follow the selection, a cross head
// switched off from its menu changes the predictions and Ctrl+Z takes it back, the map exports,
// and the model window hands an encoder-decoder folder to it. Offscreen.
#include "ui/model/seq2seq_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "support/layout_check.h"
#include "support/waits.h"
#include "ui/model/model_window.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/seq2seq_grid_view.h"
#include "ui/model/seq2seq_head_view.h"
#include "ui/presenter/presenter_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/panel_message.h"

namespace attnlab {
namespace {

using testing::settled;

using attn::model::AttentionKind;

QString fixture(const char* name)
{
    return QStringLiteral(ATTNLAB_FIXTURE_DIR "/seq2seq/") + QLatin1String(name);
}

TEST(Seq2SeqWindow, TranslateFillsTheTargetAndTheThreeGridsShowTheRun)
{
    Seq2SeqWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.openFolder(fixture("marian_tokenizer")));
    Seq2SeqDocument* doc = w.document();
    ASSERT_TRUE(settled(doc));
    w.setSource(QStringLiteral("the program is free software"));
    ASSERT_TRUE(settled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_TRUE(snap->translated);
    EXPECT_EQ(snap->source.count(), 6);  // five pieces and </s>
    EXPECT_FALSE(w.targetBox()->text().isEmpty());
    EXPECT_EQ(w.targetBox()->text(), doc->translationText());
    EXPECT_EQ(w.predictions()->rowCount(), snap->target.count());
    // Every head of each kind has a thumbnail on screen.
    for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                EXPECT_FALSE(w.grid(k)->cellRect(l, h).isEmpty()) << k << " " << l << " " << h;
    // Clicking an encoder head enlarges it: source rows and columns; the line says so.
    QTest::mouseClick(w.grid(0), Qt::LeftButton, {}, w.grid(0)->cellRect(1, 2).center());
    EXPECT_EQ(doc->selection().kind, AttentionKind::Encoder);
    EXPECT_EQ(doc->selection().layer, 1);
    EXPECT_EQ(doc->selection().head, 2);
    EXPECT_TRUE(w.explanation()->text().contains(QStringLiteral("source")));
    // A cross head: target rows, source columns.
    QTest::mouseClick(w.grid(2), Qt::LeftButton, {}, w.grid(2)->cellRect(0, 1).center());
    ASSERT_NE(doc->selectedMap(), nullptr);
    EXPECT_EQ(doc->selectedMap()->rows(), snap->target.count());
    EXPECT_EQ(doc->selectedMap()->cols(), snap->source.count());
    EXPECT_TRUE(w.explanation()->text().contains(QStringLiteral("Cross-attention")));
    w.tabs()->setCurrentWidget(w.headView());
    ASSERT_TRUE(QTest::qWaitFor([&w] { return !w.headView()->tokenRect(true, 0).isEmpty(); }));
    EXPECT_FALSE(w.headView()->tokenRect(false, 0).isEmpty());
    EXPECT_TRUE(testing::clippedTexts(&w).isEmpty())
        << testing::clippedTexts(&w).join(QStringLiteral("; ")).toStdString();
}

TEST(Seq2SeqWindow, SwitchingOffACrossHeadChangesTheRunAndUndoRestoresIt)
{
    Seq2SeqWindow w;
    ASSERT_TRUE(w.openFolder(fixture("marian_tokenizer")));
    Seq2SeqDocument* doc = w.document();
    doc->setTarget(QString::fromUtf8("床前明月光"));
    doc->setSource(QStringLiteral("the program is free software"));
    ASSERT_TRUE(settled(doc));
    const auto before = doc->snapshot();
    ASSERT_TRUE(before && !before->translated);
    for (int h = 0; h < 4; ++h) ASSERT_TRUE(doc->ablateHead(AttentionKind::Cross, 1, h));
    ASSERT_TRUE(settled(doc));
    const auto after = doc->snapshot();
    ASSERT_TRUE(after->edited());
    EXPECT_TRUE(doc->headAblated(AttentionKind::Cross, 1, 0));
    EXPECT_FALSE(doc->headAblated(AttentionKind::Encoder, 1, 0));
    double moved = 0.0;
    for (std::size_t i = 0; i < after->predictions.size(); ++i)
        moved = std::max(moved, std::abs(after->predictions[i].top[0].probability -
                                         after->predictions[i].top[0].before));
    EXPECT_GT(moved, 1e-4);
    EXPECT_EQ(doc->undoStack()->count(), 4);
    for (int i = 0; i < 4; ++i) {
        doc->undoStack()->undo();
        ASSERT_TRUE(settled(doc));
    }
    EXPECT_TRUE(doc->edits().empty());
    EXPECT_FALSE(doc->snapshot()->edited());
    // A key of a source token scaled through the same document: only that head's map changes
    // at layer 1 (its queries still come from the unedited decoder input).
    ASSERT_TRUE(
        doc->scaleVector(AttentionKind::Cross, attn::model::HeadEditKind::Key, 0, 2, 1, 4.0f));
    ASSERT_TRUE(settled(doc));
    const auto& change = doc->snapshot()->change.cross;
    ASSERT_EQ(change.size(), 2u);
    EXPECT_GT(change[0][2], 1e-3f);
    EXPECT_EQ(change[0][1], 0.0f);
    // The cross grid frames what moved: layer 1 head 3 (and what its output fed), not head 2.
    EXPECT_GT(w.grid(2)->changeAt(0, 2), 1e-3f);
    EXPECT_EQ(w.grid(2)->changeAt(0, 1), 0.0f);
    EXPECT_EQ(w.grid(0)->changeAt(0, 2), 0.0f);  // the encoder runs before the cross heads
    // An edit outside the source is refused and changes nothing.
    EXPECT_FALSE(
        doc->scaleVector(AttentionKind::Cross, attn::model::HeadEditKind::Key, 0, 2, 40, 2.0f));
    EXPECT_EQ(doc->edits().size(), 1u);
}

TEST(Seq2SeqWindow, T5SaysItAddsABiasPerDistanceAndTheMapExports)
{
    Seq2SeqWindow w;
    ASSERT_TRUE(w.openFolder(fixture("t5_tokenizer")));
    ASSERT_TRUE(settled(w.document()));
    w.document()->select({AttentionKind::Decoder, 0, 0});
    EXPECT_TRUE(w.explanation()->text().contains(QStringLiteral("bias per distance")));
    EXPECT_TRUE(w.explanation()->text().contains(QStringLiteral("√d")));
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(w.exportMap(dir.filePath(QStringLiteral("map.png")), error)) << error.toStdString();
    EXPECT_FALSE(QImage(dir.filePath(QStringLiteral("map.png"))).isNull());
}

TEST(Seq2SeqWindow, ThePresenterShowsTheHeadViewOrTheGridsLargeAndFollowsTheRun)
{
    Seq2SeqWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.openFolder(fixture("marian_tokenizer")));
    ASSERT_TRUE(settled(w.document()));
    ASSERT_TRUE(w.present(QStringLiteral("head-view")));
    ASSERT_NE(w.presenterWindow(), nullptr);
    auto* shown = qobject_cast<Seq2SeqHeadView*>(w.presenterWindow()->content());
    ASSERT_NE(shown, nullptr);
    EXPECT_GT(shown->font().pointSizeF(), w.headView()->font().pointSizeF() * 1.4);
    ASSERT_TRUE(w.present(QStringLiteral("grids")));
    const auto grids = w.presenterWindow()->content()->findChildren<Seq2SeqGridView*>();
    ASSERT_EQ(grids.size(), 3);
    EXPECT_TRUE(QTest::qWaitFor([&grids] { return !grids[2]->cellRect(1, 3).isEmpty(); }));
    // An edit in the window shows in the presented grid too.
    ASSERT_TRUE(w.document()->ablateHead(AttentionKind::Cross, 0, 0));
    ASSERT_TRUE(settled(w.document()));
    EXPECT_GT(grids[2]->changeAt(1, 0), 0.0f);
    EXPECT_FALSE(w.present(QStringLiteral("nothing")));
    w.presenterWindow()->close();
}

// The action of the window's menus with `shortcut`.
QAction* actionWithShortcut(QWidget& w, const QKeySequence& shortcut)
{
    for (QAction* a : w.findChildren<QAction*>())
        if (a->shortcut() == shortcut) return a;
    return nullptr;
}

TEST(Seq2SeqWindow, F5PresentsTheFigureInFrontAndThePresentedMapFollowsTheSelection)
{
    Seq2SeqWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.openFolder(fixture("marian_tokenizer")));
    ASSERT_TRUE(settled(w.document()));
    w.document()->select({AttentionKind::Cross, 1, 1});
    QAction* f5 = actionWithShortcut(w, QKeySequence(Qt::Key_F5));
    ASSERT_NE(f5, nullptr);
    w.tabs()->setCurrentWidget(w.map());
    f5->trigger();
    ASSERT_NE(w.presenterWindow(), nullptr);
    auto* map = qobject_cast<HeatmapView*>(w.presenterWindow()->content());
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(map->content().title, w.map()->content().title);
    EXPECT_EQ(map->content().rowLabels, w.map()->content().rowLabels);
    EXPECT_EQ(map->content().columnLabels, w.map()->content().columnLabels);
    ASSERT_NE(map->content().floats, nullptr);
    EXPECT_TRUE(*map->content().floats == *w.map()->content().floats);
    // Choosing another head in the window changes the presented map too.
    w.document()->select({AttentionKind::Encoder, 0, 0});
    EXPECT_EQ(map->content().title, w.map()->content().title);
    EXPECT_EQ(map->content().rowLabels, map->content().columnLabels);
    w.tabs()->setCurrentWidget(w.headView());
    f5->trigger();
    EXPECT_NE(qobject_cast<Seq2SeqHeadView*>(w.presenterWindow()->content()), nullptr);
    w.presenterWindow()->close();
}

TEST(Seq2SeqWindow, AnOverlongSourceIsRefusedWithTheLimitAndTheLastRunStays)
{
    Seq2SeqWindow w;
    ASSERT_TRUE(w.openFolder(fixture("marian_tokenizer")));
    Seq2SeqDocument* doc = w.document();
    ASSERT_TRUE(settled(doc));
    const auto before = doc->snapshot();
    ASSERT_TRUE(before);
    QStringList errors;
    QObject::connect(doc, &Seq2SeqDocument::errorOccurred,
                     [&errors](const QString& m) { errors << m; });
    doc->setSource(QStringLiteral("free ").repeated(70));
    ASSERT_TRUE(settled(doc));
    ASSERT_EQ(errors.size(), 1);
    EXPECT_TRUE(errors.front().contains(QStringLiteral("64"))) << errors.front().toStdString();
    EXPECT_EQ(doc->snapshot(), before);
    EXPECT_TRUE(w.message()->isVisibleTo(&w));
}

TEST(Seq2SeqWindow, AFolderThatIsNoEncoderDecoderIsRefusedAndTheOpenOneStays)
{
    Seq2SeqWindow w;
    ASSERT_TRUE(w.openFolder(fixture("bart_tokenizer")));
    ASSERT_TRUE(settled(w.document()));
    EXPECT_FALSE(w.openFolder(QStringLiteral(ATTNLAB_FIXTURE_DIR "/models/gpt2_tiny")));
    EXPECT_TRUE(w.message()->text().contains(QStringLiteral("not an encoder-decoder")))
        << w.message()->text().toStdString();
    EXPECT_EQ(w.document()->modelType(), QStringLiteral("bart"));
}

TEST(Seq2SeqWindow, TheModelWindowOpensAnEncoderDecoderInTheTranslator)
{
    ModelWindow model;
    ASSERT_TRUE(model.openFolder(fixture("t5_tokenizer")));
    Seq2SeqWindow* translator = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* t = qobject_cast<Seq2SeqWindow*>(top)) translator = t;
    ASSERT_NE(translator, nullptr);
    EXPECT_EQ(translator->document()->modelType(), QStringLiteral("t5"));
    EXPECT_TRUE(translator->isVisible());
    const QPointer<Seq2SeqWindow> watched(translator);
    translator->close();  // deletes itself, later
    EXPECT_TRUE(QTest::qWaitFor([&watched] { return watched.isNull(); }));
}

}  // namespace
}  // namespace attnlab
