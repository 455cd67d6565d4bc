// SPDX-License-Identifier: GPL-3.0-or-later
// A real head in the workbench: the model window hands a head to the workbench (its X, W and
// biases become the session, with where it came from), the workbench's map is the model's map,
// and every change there (a doubled key, a mask, the scaling) is carried through the rest of
// the model: the Model panel shows the predictions before and after and how much each later
// head changed. The numbers are the core's runWithHead, which tests/core/model checks against
// PyTorch; a session that no longer fits the model says why, and undo joins it again.
#include "ui/model/head_link.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "core/model/head_edit.h"
#include "core/model/head_slice.h"
#include "support/decoder_folder.h"
#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/model/model_document.h"
#include "ui/model/model_link_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/predictions_panel.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::settled;

constexpr int kLayer = 1;  // the tiny GPT-2 has 2 layers of 4 heads
constexpr int kHead = 2;

struct Bench {
    QTemporaryDir dir;
    QString folder;
    std::unique_ptr<MainWindow> workbench;
    std::unique_ptr<ModelWindow> model;
    [[nodiscard]] Document* doc() const { return workbench->document(); }
    [[nodiscard]] HeadLink* link() const { return workbench->headLink(); }
};

// The model window on `folder` running `text`, its head (`layer`, `head`) sent to the workbench.
void openHead(Bench& b, const QString& folder, const QString& text, int layer, int head)
{
    b.folder = folder;
    b.workbench = std::make_unique<MainWindow>();
    b.workbench->show();
    b.model = std::make_unique<ModelWindow>();
    b.workbench->adoptModelWindow(b.model.get());
    ModelWindowDialogs d;
    d.warn = [](const QString&, const QString&) {};
    b.model->setDialogs(d);
    ASSERT_TRUE(b.model->openFolder(b.folder));
    b.model->setText(text);
    ASSERT_TRUE(settled(b.model->document()));
    ASSERT_TRUE(b.model->document()->openInWorkbench(layer, head));
    b.link()->flush();
}

void openFixture(Bench& b, const char* fixture = "gpt2_tiny", bool gpt2 = true,
                 const QString& text = QStringLiteral("the cat sat."))
{
    openHead(b, test::modelFolder(b.dir, fixture, gpt2), text, kLayer, kHead);
}

QString sha256Of(const QString& path)
{
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return QString::fromLatin1(
        QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

double worst(const attn::model::FloatMatrix& a, const attn::Matrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return (a.cast<double>() - b).cwiseAbs().maxCoeff();
}

// The session records the checkpoint's SHA-256, which takes seconds for a real model: the
// head is taken on a worker, and the workbench changes when it is done.
TEST(HeadLink, AHeadIsTakenOnAWorkerAndASecondRequestMeanwhileIsRefused)
{
    Bench b;
    b.folder = test::modelFolder(b.dir, "gpt2_tiny", true);
    b.workbench = std::make_unique<MainWindow>();
    b.model = std::make_unique<ModelWindow>();
    b.workbench->adoptModelWindow(b.model.get());
    ModelWindowDialogs d;
    d.warn = [](const QString&, const QString&) {};
    b.model->setDialogs(d);
    ASSERT_TRUE(b.model->openFolder(b.folder));
    b.model->setText(QStringLiteral("the cat sat."));
    ASSERT_TRUE(settled(b.model->document()));
    const QStringList before = b.doc()->session().targetTokens;
    ASSERT_TRUE(b.model->document()->openInWorkbench(kLayer, kHead));
    EXPECT_TRUE(b.link()->attaching());
    EXPECT_EQ(b.doc()->session().targetTokens, before);  // nothing published yet
    EXPECT_FALSE(b.doc()->session().provenance.has_value());
    QSignalSpy refused(b.model->document(), &ModelDocument::errorOccurred);
    EXPECT_FALSE(b.model->document()->openInWorkbench(kLayer, kHead + 1));
    ASSERT_EQ(refused.size(), 1);
    EXPECT_TRUE(refused.front().front().toString().contains(QStringLiteral("still being opened")));
    b.link()->flush();
    ASSERT_TRUE(b.doc()->session().provenance.has_value());
    EXPECT_EQ(b.doc()->session().provenance->head, kHead);
    EXPECT_EQ(b.doc()->session().provenance->sha256,
              sha256Of(b.folder + QStringLiteral("/model.safetensors")));
    EXPECT_TRUE(b.link()->active());
    EXPECT_EQ(b.doc()->undoStack()->count(), 1);
}

TEST(HeadLink, OpeningAHeadGivesTheWorkbenchTheModelsMapAndWhereItCameFrom)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openFixture(b));
    const auto run = b.model->document()->snapshot();
    const Session& s = b.doc()->session();
    ASSERT_TRUE(s.provenance.has_value());
    EXPECT_EQ(s.provenance->layer, kLayer);
    EXPECT_EQ(s.provenance->head, kHead);
    EXPECT_EQ(s.provenance->modelType, QStringLiteral("gpt2"));
    EXPECT_EQ(s.provenance->text, QStringLiteral("the cat sat."));
    EXPECT_EQ(s.provenance->sha256, sha256Of(b.folder + QStringLiteral("/model.safetensors")));
    EXPECT_EQ(s.targetTokens, run->labels);
    EXPECT_EQ(s.input.mode, attn::Mode::Causal);
    ASSERT_EQ(s.input.heads.size(), 1u);
    EXPECT_EQ(s.input.heads[0].b_K.size(), s.input.keyDim());  // the real biases came along
    // The workbench's P is the model view's P for that head, within 1e-5.
    EXPECT_LE(
        worst(run->result.layers[kLayer].attention[kHead], b.doc()->result().heads[0].weights),
        1e-5);
    // One undo step, and the Model panel is shown with the model attached.
    EXPECT_TRUE(b.doc()->undoStack()->undoText().contains(QStringLiteral("head 3")));
    EXPECT_TRUE(b.link()->active());
    auto* dock = b.workbench->findChild<QDockWidget*>(QStringLiteral("ModelDock"));
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(dock->isVisible());
    // Unchanged, the model predicts as before.
    const auto linked = b.link()->snapshot();
    ASSERT_TRUE(linked);
    ASSERT_FALSE(linked->predictions.empty());
    for (const ModelGuess& g : linked->predictions.front().top)
        EXPECT_NEAR(g.probability, g.before, 1e-5) << g.label.toStdString();
}

TEST(HeadLink, DoublingAKeyInTheWorkbenchMovesThePredictionAsTheCoreSays)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openFixture(b));
    const long key = 3;
    ASSERT_TRUE(b.doc()->editVector({attn::Role::Key, 0, static_cast<int>(key), 2.0, {}}));
    b.link()->flush();
    const auto linked = b.link()->snapshot();
    ASSERT_TRUE(linked);
    EXPECT_TRUE(linked->compared());

    // The same as the model window's own edit of that key (runEdited, checked against PyTorch).
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(b.folder.toStdString(), model).ok());
    const attn::model::ForwardResult& before = b.link()->base()->result;
    attn::model::ForwardResult want;
    const attn::model::HeadEdit edit{attn::model::HeadEditKind::Key, kLayer, kHead, key, 2.0f};
    ASSERT_TRUE(attn::model::runEdited(model, before, std::vector{edit}, {}, want).ok());
    ASSERT_EQ(linked->predictions.size(), want.predictions.size());
    double moved = 0.0;
    for (std::size_t i = 0; i < want.predictions.front().top.size(); ++i) {
        const ModelGuess& g = linked->predictions.front().top[i];
        EXPECT_EQ(g.id, want.predictions.front().top[i].id);
        EXPECT_NEAR(g.probability, want.predictions.front().top[i].probability, 1e-5);
        moved = std::max(moved, std::abs(g.probability - g.before));
    }
    EXPECT_GT(moved, 1e-6);  // the prediction did move
    EXPECT_LE((linked->result.logits - want.logits).cwiseAbs().maxCoeff(), 1e-4);
    // The edited layer's head changed; the layer before it did not.
    ASSERT_EQ(linked->change.size(), 2u);
    EXPECT_GT(linked->change[kLayer][kHead], 1e-3f);
    EXPECT_EQ(linked->change[0][0], 0.0f);

    // The panel shows before, after and the change.
    auto* panel = b.workbench->findChild<ModelLinkPanel*>();
    ASSERT_NE(panel, nullptr);
    QTreeWidget* tree = panel->predictions()->tree();
    EXPECT_EQ(tree->columnCount(), 4);
    EXPECT_EQ(tree->headerItem()->text(1), QStringLiteral("Before"));

    // Undo: the model's own head again, the prediction as before.
    b.doc()->undoStack()->undo();
    b.link()->flush();
    for (const ModelGuess& g : b.link()->snapshot()->predictions.front().top)
        EXPECT_NEAR(g.probability, g.before, 1e-5);
}

TEST(HeadLink, MasksScalingAndPinWorkOnTheRealHeadAndAreCarriedThrough)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openFixture(b));
    const auto unchanged = b.link()->snapshot();
    b.doc()->pinWeights();
    // The last row: the head is in the last layer, and GPT-2 predicts from the last position.
    const int last = static_cast<int>(b.doc()->session().input.queryCount()) - 1;
    ASSERT_TRUE(b.doc()->toggleMaskCell(last, 1));
    b.link()->flush();
    EXPECT_EQ(b.doc()->result().heads[0].weights(last, 1), 0.0);
    const auto masked = b.link()->snapshot();
    EXPECT_EQ(masked->result.layers[kLayer].attention[kHead](last, 1), 0.0f);
    EXPECT_GT((masked->result.logits - unchanged->result.logits).cwiseAbs().maxCoeff(), 1e-6);
    // The pinned weights stay (same tokens and shape): the difference map has something.
    ASSERT_TRUE(b.doc()->pinnedWeights().has_value());
    EXPECT_GT(
        (b.doc()->result().heads[0].weights - *b.doc()->pinnedWeights()).cwiseAbs().maxCoeff(),
        1e-3);
    ASSERT_TRUE(b.doc()->setScaling(attn::Scaling::None));
    b.link()->flush();
    EXPECT_TRUE(b.link()->mismatch().isEmpty());
    EXPECT_GT((b.link()->snapshot()->result.logits - masked->result.logits).cwiseAbs().maxCoeff(),
              1e-6);
}

TEST(HeadLink, NewTokensSayWhyTheHeadNoLongerFitsAndUndoJoinsItAgain)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openFixture(b));
    auto* panel = b.workbench->findChild<ModelLinkPanel*>();
    ASSERT_TRUE(b.doc()->setTokens(false, {QStringLiteral("a"), QStringLiteral("b")}));
    b.link()->flush();
    EXPECT_FALSE(b.link()->mismatch().isEmpty());
    EXPECT_EQ(b.link()->snapshot(), nullptr);
    EXPECT_EQ(panel->status()->text(), b.link()->mismatch());
    b.doc()->undoStack()->undo();
    b.link()->flush();
    EXPECT_TRUE(b.link()->mismatch().isEmpty());
    EXPECT_NE(b.link()->snapshot(), nullptr);
    // Back to a session that is not from a model: nothing to attach.
    b.doc()->undoStack()->undo();
    b.link()->flush();
    EXPECT_FALSE(b.doc()->session().provenance.has_value());
    EXPECT_FALSE(b.link()->active());
    EXPECT_FALSE(panel->attachButton()->isVisible());
}

TEST(HeadLink, ASavedHeadOpensAgainAndAttachesItsModelOnlyIfTheWeightsAreTheSame)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(openFixture(b));
    const QString path = b.dir.filePath(QStringLiteral("head.attnlab.json"));
    SessionFile file;
    file.session = b.doc()->session();
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();
    const auto want = b.link()->snapshot();

    // Opened again, the head attaches its model by itself (the folder is there).
    MainWindow other;
    other.show();
    ASSERT_TRUE(other.openFile(path) && other.fileActions()->waitForOpen());
    EXPECT_EQ(other.document()->session().provenance, b.doc()->session().provenance);
    EXPECT_TRUE(other.headLink()->attaching());
    other.headLink()->flush();
    ASSERT_TRUE(other.headLink()->active());
    auto* panel = other.findChild<ModelLinkPanel*>();
    ASSERT_NE(panel, nullptr);
    EXPECT_FALSE(panel->attachButton()->isVisible());
    // Detached, it attaches again with the button.
    other.headLink()->detach();
    EXPECT_TRUE(panel->attachButton()->isVisible());
    panel->attachButton()->click();
    other.headLink()->flush();
    ASSERT_TRUE(other.headLink()->active());
    ASSERT_TRUE(other.headLink()->snapshot());
    EXPECT_LE(
        (other.headLink()->snapshot()->result.logits - want->result.logits).cwiseAbs().maxCoeff(),
        1e-5);

    // Other weights under the same name: refused, naming the file and both hashes.
    QFile weights(b.folder + QStringLiteral("/model.safetensors"));
    ASSERT_TRUE(weights.open(QIODevice::ReadWrite));
    QByteArray bytes = weights.readAll();
    bytes[bytes.size() - 1] = static_cast<char>(bytes[bytes.size() - 1] ^ 0x01);
    weights.seek(0);
    weights.write(bytes);
    weights.close();
    MainWindow third;
    QString said;
    QObject::connect(third.headLink(), &HeadLink::errorOccurred,
                     [&said](const QString& m) { said = m; });
    ASSERT_TRUE(third.openFile(path) && third.fileActions()->waitForOpen());
    third.headLink()->flush();
    EXPECT_FALSE(third.headLink()->active());
    EXPECT_TRUE(said.contains(QStringLiteral("SHA-256"))) << said.toStdString();
    EXPECT_TRUE(said.contains(file.session.provenance->sha256)) << said.toStdString();
    auto* thirdPanel = third.findChild<ModelLinkPanel*>();
    EXPECT_EQ(thirdPanel->status()->text(), said);  // the panel says it too
    EXPECT_EQ(third.document()->session().provenance, file.session.provenance);  // kept
}

TEST(HeadLink, BertHeadsAttendBothWaysAndCarryTheirEditsToTheMaskedPrediction)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(
        openFixture(b, "bert_tiny", false, QStringLiteral("the cat [MASK] down")));
    EXPECT_EQ(b.doc()->session().input.mode, attn::Mode::Self);
    const auto run = b.model->document()->snapshot();
    EXPECT_LE(
        worst(run->result.layers[kLayer].attention[kHead], b.doc()->result().heads[0].weights),
        1e-5);
    ASSERT_TRUE(b.doc()->editVector({attn::Role::Value, 0, 1, 3.0, {}}));
    b.link()->flush();
    const auto linked = b.link()->snapshot();
    ASSERT_TRUE(linked);
    ASSERT_FALSE(linked->predictions.empty());  // the [MASK]
    double moved = 0.0;
    for (const ModelGuess& g : linked->predictions.front().top)
        moved = std::max(moved, std::abs(g.probability - g.before));
    EXPECT_GT(moved, 1e-6);
}

// A Qwen3 head (grouped keys, rotary positions, q/k norms): the session carries the rotation,
// the workbench's map is the model's, it saves as version 3 and attaches again when opened.
TEST(HeadLink, ARotaryHeadComesWithItsRotationAndSavesAndAttachesAgain)
{
    Bench b;
    ASSERT_NO_FATAL_FAILURE(
        openHead(b, test::qwen3Folder(b.dir), QStringLiteral("它是一只动物，它很累。"), 1, 3));
    const Session& s = b.doc()->session();
    ASSERT_TRUE(s.provenance.has_value());
    EXPECT_EQ(s.provenance->modelType, QStringLiteral("qwen3"));
    ASSERT_TRUE(s.input.rope.has_value());
    EXPECT_EQ(*s.input.rope, b.model->document()->loaded()->model.config().rope);
    EXPECT_EQ(s.input.mode, attn::Mode::Causal);
    const auto run = b.model->document()->snapshot();
    EXPECT_LE(worst(run->result.layers[1].attention[3], b.doc()->result().heads[0].weights), 1e-5);
    ASSERT_TRUE(b.link()->active()) << b.link()->mismatch().toStdString();
    // Doubling a key there moves the model's prediction.
    ASSERT_TRUE(b.doc()->editVector({attn::Role::Key, 0, 1, 2.0, {}}));
    b.link()->flush();
    ASSERT_TRUE(b.link()->snapshot());
    double moved = 0.0;
    for (const ModelGuess& g : b.link()->snapshot()->predictions.front().top)
        moved = std::max(moved, std::abs(g.probability - g.before));
    EXPECT_GT(moved, 1e-6);

    const QString path = b.dir.filePath(QStringLiteral("rope-head.attnlab.json"));
    SessionFile file;
    file.session = b.doc()->session();
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();
    MainWindow other;
    ASSERT_TRUE(other.openFile(path) && other.fileActions()->waitForOpen());
    EXPECT_EQ(other.document()->session().input.rope, s.input.rope);
    other.headLink()->flush();
    EXPECT_TRUE(other.headLink()->active());
}

}  // namespace
}  // namespace attnlab
