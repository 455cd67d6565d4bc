// SPDX-License-Identifier: GPL-3.0-or-later
// A real cross-attention head in the workbench: the translator window hands a cross head of the
// tiny Marian to the workbench, which opens it in cross mode (the target's tokens are the
// queries, the source's the keys and values) as one undo step; its map is the model's cross map
// of that head; doubling a key there is carried back into the translator, whose logits are then
// those the model computes under the same edit of its own. Without a workbench the menu's entry
// is off and the request says why. Offscreen.
#include <cmath>
#include <functional>
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include "core/model/head_edit.h"
#include "core/model/seq2seq_edit.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/seq2seq_grid_view.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::settled;

using attn::model::AttentionKind;
using attn::model::HeadEditKind;

constexpr int kLayer = 1;  // the tiny Marian has 2 decoder layers of 4 heads
constexpr int kHead = 2;
constexpr double kMapTolerance = 1e-5;  // workbench (double) against the model (float)

QString marian()
{
    return QStringLiteral(ATTNLAB_FIXTURE_DIR "/seq2seq/marian_tokenizer");
}

double largestGap(const attn::Matrix& a, const attn::model::FloatMatrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e9;
    return (a.cast<float>() - b).cwiseAbs().maxCoeff();
}

// The workbench and a translator window made by its holder, on the tiny Marian, with a run.
struct Bench {
    MainWindow workbench;
    Seq2SeqWindow* translator = nullptr;
    Seq2SeqDocument* model = nullptr;
    std::shared_ptr<const Seq2SeqSnapshot> run;
    [[nodiscard]] Document* doc() { return workbench.document(); }
};

void translate(Bench& b)
{
    b.workbench.show();
    QString error;
    b.translator = b.workbench.modelWindows()->openTranslator(marian(), error);
    ASSERT_NE(b.translator, nullptr) << error.toStdString();
    b.model = b.translator->document();
    ASSERT_TRUE(settled(b.model));
    b.translator->setSource(QStringLiteral("the program is free software"));
    ASSERT_TRUE(settled(b.model));
    b.run = b.model->snapshot();
    ASSERT_TRUE(b.run);
}

// Opens the cross head and waits until the translator carries it.
void openHead(Bench& b)
{
    ASSERT_NO_FATAL_FAILURE(translate(b));
    ASSERT_TRUE(b.model->openInWorkbench(kLayer, kHead));
    b.doc()->flush();
    Seq2SeqDocument* model = b.model;
    ASSERT_TRUE(
        QTest::qWaitFor([model] { return model->snapshot() && model->snapshot()->carry; }, 20000));
    ASSERT_TRUE(settled(model));
}

TEST(CrossHeadWorkbench, ACrossHeadOpensInCrossModeWithTheModelsMapAsOneUndoStep)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(translate(b));
    EXPECT_TRUE(b.model->hasWorkbench());
    Document* doc = b.doc();
    const int undoBefore = doc->undoStack()->count();
    ASSERT_TRUE(b.model->openInWorkbench(kLayer, kHead));
    doc->flush();
    const Session& s = doc->session();
    EXPECT_EQ(s.input.mode, attn::Mode::Cross);
    EXPECT_EQ(s.targetTokens, b.run->target.labels);
    EXPECT_EQ(s.sourceTokens, b.run->source.labels);
    EXPECT_EQ(s.input.scaling, attn::Scaling::SqrtDk);
    ASSERT_TRUE(doc->hasResult());
    EXPECT_LE(largestGap(doc->result().heads.front().weights, b.run->result.cross[kLayer][kHead]),
              kMapTolerance);
    EXPECT_EQ(doc->undoStack()->count(), undoBefore + 1);
    EXPECT_TRUE(doc->undoStack()->undoText().contains(QStringLiteral("layer 2, head 3")))
        << doc->undoStack()->undoText().toStdString();

    // The head as opened is carried back too: the model's own, within rounding, which reads as
    // no change.
    Seq2SeqDocument* model = b.model;
    ASSERT_TRUE(
        QTest::qWaitFor([model] { return model->snapshot() && model->snapshot()->carry; }, 20000));
    ASSERT_TRUE(settled(model));
    const auto own = model->snapshot();
    for (const auto& layer : own->change.cross)
        for (const float c : layer) EXPECT_FALSE(isAttentionChange(c)) << c;
    for (const ModelPrediction& p : own->predictions)
        for (const ModelGuess& g : p.top)
            EXPECT_FALSE(isProbabilityChange(g.before, g.probability)) << g.before;
    EXPECT_TRUE(b.translator->explanation()->text().contains(QStringLiteral("workbench's")));

    doc->undoStack()->undo();  // the head
    doc->flush();
    EXPECT_NE(doc->session().input.mode, attn::Mode::Cross);
    b.translator->close();
}

TEST(CrossHeadWorkbench, AKeyDoubledInTheWorkbenchIsCarriedBackAsTheModelsOwnEditWouldBe)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openHead(b));
    Document* doc = b.doc();
    Seq2SeqDocument* model = b.model;
    // Doubling source token 2's key in the workbench: the translator's run holds the
    // workbench's map, and the rest of the model computes what it computes under the same edit
    // of its own (teacher forced on the target the head was taken on).
    attn::VectorEdit twice;
    twice.role = attn::Role::Key;
    twice.index = 1;
    twice.scale = 2.0;
    QStringList said;
    QObject::connect(model, &Seq2SeqDocument::noticed, [&said](const QString& m) { said << m; });
    ASSERT_TRUE(doc->editVector(twice));
    doc->flush();
    ASSERT_TRUE(settled(model));
    const auto carried = model->snapshot();
    ASSERT_TRUE(carried && carried->carry);
    EXPECT_EQ(carried->target.ids, b.run->target.ids);
    EXPECT_LE(largestGap(doc->result().heads.front().weights, carried->result.cross[kLayer][kHead]),
              1e-6);
    EXPECT_GT(largestGap(doc->result().heads.front().weights, b.run->result.cross[kLayer][kHead]),
              1e-4);
    EXPECT_GT(carried->change.cross[kLayer][kHead], 1e-4f);
    EXPECT_EQ(carried->change.cross[0][kHead], 0.0f);  // layer 1 runs before the carried head
    attn::model::HeadEdit same{HeadEditKind::Key, kLayer, kHead, 1, 2.0f, AttentionKind::Cross};
    attn::model::Seq2SeqResult want;
    ASSERT_TRUE(attn::model::forwardSeq2Seq(
                    model->loaded()->model, b.run->source.ids, b.run->target.ids,
                    attn::model::withSeq2SeqEdits(attn::model::Seq2SeqOptions(), {same}), want)
                    .ok());
    EXPECT_LE((carried->result.logits - want.logits).cwiseAbs().maxCoeff(), 1e-4f);
    EXPECT_GT((carried->result.logits - b.run->result.logits).cwiseAbs().maxCoeff(), 1e-4f);

    // Self-attention in the workbench no longer fits the cross head: it is let go, and the
    // translator says why; undo carries it again.
    ASSERT_TRUE(doc->setMode(attn::Mode::Self));
    doc->flush();
    ASSERT_TRUE(QTest::qWaitFor(
        [model] { return model->snapshot() && !model->snapshot()->carry && model->idle(); },
        20000));
    EXPECT_TRUE(said.join(QLatin1Char(' ')).contains(QStringLiteral("undo the change")))
        << said.join(QLatin1Char('\n')).toStdString();
    doc->undoStack()->undo();
    doc->flush();
    ASSERT_TRUE(
        QTest::qWaitFor([model] { return model->snapshot() && model->snapshot()->carry; }, 20000));
    b.translator->close();
}

TEST(CrossHeadWorkbench, WithoutAWorkbenchTheMenuEntryIsOffAndTheRequestSaysWhy)
{
    Seq2SeqWindow translator;
    ASSERT_TRUE(translator.openFolder(marian()));
    Seq2SeqDocument* model = translator.document();
    ASSERT_TRUE(settled(model));
    translator.setSource(QStringLiteral("free software"));
    ASSERT_TRUE(settled(model));
    EXPECT_FALSE(model->hasWorkbench());
    QStringList errors;
    QObject::connect(model, &Seq2SeqDocument::errorOccurred,
                     [&errors](const QString& m) { errors << m; });
    EXPECT_FALSE(model->openInWorkbench(0, 0));
    ASSERT_EQ(errors.size(), 1);
    EXPECT_TRUE(errors.front().contains(QStringLiteral("no workbench")));

    // The cross grid's menu offers the entry, switched off; the encoder's does not offer it.
    for (const AttentionKind kind : {AttentionKind::Cross, AttentionKind::Encoder}) {
        Seq2SeqGridView* grid = translator.grid(static_cast<int>(kind));
        ASSERT_NE(grid, nullptr);
        bool offered = false, enabled = true;
        QTimer::singleShot(0, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            if (menu == nullptr) return;
            for (QAction* a : menu->actions())
                if (a->text() == QStringLiteral("Open in Workbench")) {
                    offered = true;
                    enabled = a->isEnabled();
                }
            menu->close();
        });
        grid->showEditMenu(0, 0, grid->mapToGlobal(QPoint(5, 5)));
        EXPECT_EQ(offered, kind == AttentionKind::Cross);
        if (offered) {
            EXPECT_FALSE(enabled);
        }
    }
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

TEST(CrossCarry, AHeadThatDoesNotFitTheRunIsRefusedByName)
{
    attn::Status problem;
    const auto loaded = loadSeq2SeqFolder(marian(), problem);
    ASSERT_TRUE(loaded) << attn::describe(problem);
    Seq2SeqRequest request;
    request.source = QStringLiteral("free software");
    const Seq2SeqOutcome run = runSeq2SeqText(*loaded, request);
    ASSERT_TRUE(run.snapshot);
    const long n = run.snapshot->target.count();
    const long m = run.snapshot->source.count();
    const long dh = loaded->model.config().headDim;
    const auto carried = [&](const std::function<void(CrossCarry&)>& spoil) {
        auto carry = std::make_shared<CrossCarry>();
        carry->layer = kLayer;
        carry->head = kHead;
        carry->sourceIds = run.snapshot->source.ids;
        carry->targetIds = run.snapshot->target.ids;
        carry->weights = run.snapshot->result.cross[kLayer][kHead];
        carry->output = attn::model::FloatMatrix::Zero(n, dh);
        spoil(*carry);
        Seq2SeqRequest r = request;
        r.carry = carry;
        const Seq2SeqOutcome out = runSeq2SeqText(*loaded, r);
        return out.snapshot ? std::string("ran") : attn::describe(out.status);
    };
    EXPECT_EQ(carried([](CrossCarry&) {}), "ran");
    EXPECT_NE(carried([](CrossCarry& c) { c.head = 4; }).find("is outside the model"),
              std::string::npos);
    EXPECT_NE(carried([](CrossCarry& c) { c.sourceIds.front() += 1; }).find("another source"),
              std::string::npos);
    EXPECT_NE(carried([&](CrossCarry& c) { c.weights.resize(n, m + 1); }).find("does not fit"),
              std::string::npos);
    EXPECT_NE(carried([&](CrossCarry& c) { c.output.resize(n, dh + 1); }).find("does not fit"),
              std::string::npos);
    EXPECT_NE(carried([](CrossCarry& c) { c.output(0, 0) = NAN; }).find("not finite"),
              std::string::npos);
}

}  // namespace
}  // namespace attnlab
