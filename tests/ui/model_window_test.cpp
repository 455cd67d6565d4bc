// SPDX-License-Identifier: GPL-3.0-or-later
// The real-model window on the tiny GPT-2 and BERT fixtures (and a medium random GPT-2 written
// at test time for a run long enough to cancel): what it shows is the core's forward pass,
// typing re-runs it, a bad folder or a too-long text leaves what was shown, and the three
// figures export.
#include "ui/model/model_window.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>

#include "../core/model/model_files.h"
#include "core/model/forward.h"
#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/model/head_link.h"
#include "ui/model/head_view_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_focus_panel.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/model_windows.h"
#include "ui/model/predictions_panel.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/panels/lesson_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/panel_message.h"
#include "ui/window/file_actions.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::settled;

struct Warnings {
    QStringList texts;
};

std::unique_ptr<ModelWindow> makeWindow(Warnings& warnings)
{
    auto w = std::make_unique<ModelWindow>();
    ModelWindowDialogs d;
    d.openFolder = [](const QString&) { return QString(); };
    d.savePath = [](const QString&) { return QString(); };
    d.warn = [&warnings](const QString& title, const QString& text) {
        warnings.texts << title + QStringLiteral(": ") + text;
    };
    w->setDialogs(d);
    w->resize(1280, 760);
    w->show();
    return w;
}

attn::model::ForwardResult coreRun(const QString& folder, const std::vector<int>& ids)
{
    attn::model::Model model;
    EXPECT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    attn::model::ForwardResult r;
    EXPECT_TRUE(attn::model::forward(model, ids, {}, r).ok());
    return r;
}

TEST(ModelWindow, OpensAGpt2FolderAndShowsEveryLayerAndHeadAsTheCoreComputesThem)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(folder)) << warnings.texts.join(QLatin1Char('\n')).toStdString();
    ModelDocument* doc = w->document();
    w->setText(QStringLiteral("the cat sat."));
    ASSERT_TRUE(settled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->layers(), 2);
    EXPECT_EQ(snap->heads(), 4);
    EXPECT_EQ(snap->labels.size(), 11);
    EXPECT_EQ(snap->labels.at(2), QStringLiteral("␣"));  // a space shown as a visible mark

    const attn::model::ForwardResult expected = coreRun(folder, snap->result.ids);
    // Click layer 2, head 3 in the grid: the large map shows exactly that head.
    QTest::mouseClick(w->grid(), Qt::LeftButton, {}, w->grid()->cellRect(1, 2).center());
    EXPECT_EQ(doc->selection().layer, 1);
    EXPECT_EQ(doc->selection().head, 2);
    const HeatmapContent& shown = w->focusPanel()->map()->content();
    EXPECT_EQ(shown.title, QStringLiteral("Layer 2, head 3"));
    EXPECT_EQ(shown.rowLabels, snap->labels);
    const auto& want = expected.layers[1].attention[2];
    // The floats themselves, read in place (no double copy).
    ASSERT_TRUE(shown.floats);
    ASSERT_EQ(shown.rows(), want.rows());
    EXPECT_LT((*shown.floats - want).cwiseAbs().maxCoeff(), 1e-7f);

    // The mean and rollout columns: labelled as what they are.
    QTest::mouseClick(w->grid(), Qt::LeftButton, {}, w->grid()->cellRect(0, 4).center());
    EXPECT_EQ(doc->selection().focus, ModelFocus::LayerAverage);
    EXPECT_TRUE(w->focusPanel()->map()->content().title.contains(QStringLiteral("mean")));
    QTest::mouseClick(w->grid(), Qt::LeftButton, {}, w->grid()->cellRect(1, 5).center());
    EXPECT_EQ(doc->selection().focus, ModelFocus::Rollout);
    EXPECT_TRUE(w->focusPanel()->map()->content().title.contains(QStringLiteral("rollout")));

    // Predictions: GPT-2's next token, the top 10, as the core ranks them.
    QTreeWidget* tree = w->predictions()->tree();
    ASSERT_EQ(tree->topLevelItemCount(), 1);
    ASSERT_EQ(tree->topLevelItem(0)->childCount(), 10);
    EXPECT_EQ(snap->predictions.at(0).top.at(0).id, expected.predictions.at(0).top.at(0).id);
    EXPECT_TRUE(w->message()->isHidden());
}

TEST(ModelWindow, ClickingARowListsItsQuerysStrongestKeys)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
    w->setText(QStringLiteral("the cat sat."));
    ASSERT_TRUE(settled(w->document()));
    w->document()->selectQuery(5);
    const auto* keys = w->focusPanel()->keys();
    // Causal: query 6 reads keys 1..6 only, strongest first.
    ASSERT_EQ(keys->rowCount(), 6);
    double previous = 2.0;
    for (int k = 0; k < keys->rowCount(); ++k) {
        const double weight = keys->item(k, 1)->text().toDouble();
        EXPECT_LE(weight, previous);
        previous = weight;
    }
}

TEST(ModelWindow, TypingReRunsTheModelAndTheLastTextWins)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
    ASSERT_TRUE(settled(w->document()));
    w->textBox()->clear();
    QTest::keyClicks(w->textBox(), QStringLiteral("it was"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const auto s = w->document()->snapshot();
            return s && s->text == QStringLiteral("it was") && !w->document()->running();
        },
        10000));
    EXPECT_EQ(w->document()->snapshot()->tokenCount(), 6);
}

TEST(ModelWindow, ATextLongerThanTheModelsPositionsIsRefusedAndThePreviousMapsStay)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
    w->setText(QStringLiteral("it was"));
    ASSERT_TRUE(settled(w->document()));
    const auto before = w->document()->snapshot();
    w->setText(QString(40, QLatin1Char('x')));  // 40 tokens; the model has 32 positions
    ASSERT_TRUE(settled(w->document()));
    EXPECT_EQ(w->document()->snapshot(), before);
    EXPECT_FALSE(w->message()->isHidden());
    EXPECT_TRUE(w->message()->text().contains(QStringLiteral("40 tokens")))
        << w->message()->text().toStdString();
    EXPECT_TRUE(w->message()->text().contains(QStringLiteral("32")))
        << w->message()->text().toStdString();
}

TEST(ModelWindow, ABadFolderIsRefusedNamingTheProblemAndTheOpenModelStays)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    const QString good = test::modelFolder(dir, "gpt2_tiny", true);
    ASSERT_TRUE(w->openFolder(good));
    w->setText(QStringLiteral("it was"));
    ASSERT_TRUE(settled(w->document()));
    const auto before = w->document()->snapshot();

    // A truncated weights file.
    const QString cut = dir.filePath(QStringLiteral("cut"));
    QDir().mkpath(cut);
    for (const char* f : {"config.json", "vocab.json", "merges.txt"})
        QFile::copy(good + QLatin1Char('/') + QLatin1String(f),
                    cut + QLatin1Char('/') + QLatin1String(f));
    QFile source(good + QStringLiteral("/model.safetensors"));
    ASSERT_TRUE(source.open(QIODevice::ReadOnly));
    test::writeFile(cut + QStringLiteral("/model.safetensors"), source.read(source.size() / 2));
    EXPECT_FALSE(w->openFolder(cut));
    ASSERT_EQ(warnings.texts.size(), 1);
    EXPECT_TRUE(warnings.texts[0].contains(QStringLiteral("model.safetensors")))
        << warnings.texts[0].toStdString();

    // An unknown model type, named with what is supported.
    const QString other = dir.filePath(QStringLiteral("state-space"));
    QDir().mkpath(other);
    test::writeFile(other + QStringLiteral("/config.json"), R"({"model_type": "mamba"})");
    EXPECT_FALSE(w->openFolder(other));
    ASSERT_EQ(warnings.texts.size(), 2);
    EXPECT_TRUE(warnings.texts[1].contains(QStringLiteral("mamba")))
        << warnings.texts[1].toStdString();
    EXPECT_TRUE(warnings.texts[1].contains(QStringLiteral("gpt2")))
        << warnings.texts[1].toStdString();

    // An encoder-decoder goes to the translator, which names what its folder lacks.
    const QString t5 = dir.filePath(QStringLiteral("encoder-decoder"));
    QDir().mkpath(t5);
    test::writeFile(t5 + QStringLiteral("/config.json"), R"({"model_type": "t5"})");
    EXPECT_FALSE(w->openFolder(t5));
    ASSERT_EQ(warnings.texts.size(), 3);
    EXPECT_TRUE(warnings.texts[2].contains(QStringLiteral("model.safetensors")))
        << warnings.texts[2].toStdString();
    EXPECT_LE(warnings.texts[2].count(QStringLiteral("Could not open")), 1)
        << warnings.texts[2].toStdString();

    // Not a folder at all.
    EXPECT_FALSE(w->openFolder(good + QStringLiteral("/config.json")));
    EXPECT_EQ(warnings.texts.size(), 4);

    EXPECT_EQ(w->document()->folder(), QDir::cleanPath(good));
    EXPECT_EQ(w->document()->snapshot(), before);
}

TEST(ModelWindow, BertFillsInEachMaskAndTheHeadViewShowsItsBidirectionalLines)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::modelFolder(dir, "bert_tiny", false)));
    w->setText(QStringLiteral("the animal [MASK] too tired."));
    ASSERT_TRUE(settled(w->document()));
    const auto snap = w->document()->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->labels.first(), QStringLiteral("[CLS]"));
    EXPECT_EQ(snap->labels.last(), QStringLiteral("[SEP]"));
    ASSERT_EQ(snap->predictions.size(), 1u);
    EXPECT_EQ(snap->predictions[0].position, 3);
    ASSERT_EQ(w->predictions()->tree()->topLevelItemCount(), 1);
    // [CLS] the animal [MASK]: the fourth token, counted from 1 as everywhere.
    EXPECT_EQ(w->predictions()->tree()->topLevelItem(0)->text(0),
              PredictionsPanel::tr("[MASK] at position %1").arg(4));

    // The head view: all heads of the layer, then one; hovering a query isolates its lines.
    HeadViewPanel* hv = w->headView();
    w->document()->selectAggregate(1, ModelFocus::LayerAverage);
    EXPECT_EQ(hv->shownHead(), -1);
    EXPECT_EQ(hv->canvas()->drawnHeads(), snap->heads());
    w->document()->selectHead(0, 1);
    EXPECT_EQ(hv->shownHead(), 1);
    EXPECT_EQ(hv->layerBox()->currentIndex(), 0);
    QTest::mouseMove(hv->canvas(), hv->canvas()->tokenCentre(0, 2));
    ASSERT_TRUE(QTest::qWaitFor([&] { return hv->canvas()->hoverQuery() == 2; }, 2000));
    QTest::mouseMove(hv->canvas(), hv->canvas()->tokenCentre(1, 4));
    ASSERT_TRUE(QTest::qWaitFor([&] { return hv->canvas()->hoverKey() == 4; }, 2000));
    EXPECT_EQ(hv->canvas()->hoverQuery(), -1);
}

TEST(ModelWindow, ExportsTheGridTheEnlargedMapAndTheHeadViewAsPngSvgAndPdf)
{
    QTemporaryDir dir;
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::modelFolder(dir, "gpt2_tiny", true)));
    w->setText(QStringLiteral("the cat sat."));
    ASSERT_TRUE(settled(w->document()));
    for (ModelExport what : {ModelExport::Grid, ModelExport::Focus, ModelExport::HeadView}) {
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(
                QStringLiteral("out%1.%2").arg(static_cast<int>(what)).arg(QLatin1String(ext)));
            QString error;
            ASSERT_TRUE(w->exportTo(what, path, error)) << error.toStdString();
            QFile f(path);
            ASSERT_TRUE(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            if (QLatin1String(ext) == QLatin1String("png")) {
                EXPECT_TRUE(head.startsWith("\x89PNG"));
                const QImage image(path);
                EXPECT_GT(image.width(), 600);
                // Something besides white and text: the viridis cells or the coloured lines.
                int coloured = 0;
                for (int y = 0; y < image.height(); y += 4)
                    for (int x = 0; x < image.width(); x += 4) {
                        const QColor c = image.pixelColor(x, y);
                        if (c.saturation() > 80) ++coloured;
                    }
                EXPECT_GT(coloured, 50) << path.toStdString();
            } else if (QLatin1String(ext) == QLatin1String("pdf")) {
                EXPECT_TRUE(head.startsWith("%PDF"));
            } else {
                f.seek(0);
                const QByteArray svg = f.readAll();
                EXPECT_TRUE(svg.contains("<svg"));
                EXPECT_FALSE(svg.contains("<image")) << "cells drawn as vectors";
            }
        }
    }
    // Nothing to export before a run.
    ModelWindow empty;
    QString error;
    EXPECT_FALSE(
        empty.exportTo(ModelExport::Grid, dir.filePath(QStringLiteral("none.png")), error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("none.png"))));
}

TEST(ModelWindow, ALongRunShowsProgressAndCancelKeepsThePreviousMaps)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("medium"));
    QDir().mkpath(folder);
    const int vocab = test::writeByteTokenizer(folder);
    ASSERT_NO_FATAL_FAILURE(
        attn::model::test::writeRandomGpt2(folder.toStdString(), {12, 8, 512, 1024, vocab}));
    Warnings warnings;
    auto w = makeWindow(warnings);
    ASSERT_TRUE(w->openFolder(folder));
    w->setText(QStringLiteral("it was"));
    ASSERT_TRUE(settled(w->document()));
    const auto before = w->document()->snapshot();
    ASSERT_TRUE(before);

    w->setText(QString(1000, QLatin1Char('x')));
    ASSERT_TRUE(w->document()->running());
    // The bar appears while it runs and the window keeps answering.
    ASSERT_TRUE(QTest::qWaitFor([&] { return w->progressBar()->isVisible(); }, 5000));
    EXPECT_TRUE(w->cancelButton()->isVisible());
    QTest::mouseClick(w->cancelButton(), Qt::LeftButton);
    ASSERT_TRUE(settled(w->document()));
    EXPECT_EQ(w->document()->snapshot(), before);
    EXPECT_FALSE(w->progressBar()->isVisible());
}

TEST(ModelWindow, AFolderDroppedOnTheWorkbenchOpensInTheModelWindow)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    MainWindow main;
    main.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(folder)});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&main, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&main, &drop);
    QPointer<ModelWindow> w = main.modelWindows()->window();
    EXPECT_TRUE(w->isVisible());
    EXPECT_EQ(w->document()->folder(), QDir::cleanPath(folder));
    // The default sentence is longer than the tiny model's 32 positions: refused, and said.
    ASSERT_TRUE(settled(w->document()));
    EXPECT_FALSE(w->document()->snapshot());
    EXPECT_TRUE(w->message()->text().contains(QStringLiteral("at most 32")));
    w->setText(QStringLiteral("it was"));
    ASSERT_TRUE(settled(w->document()));
    EXPECT_TRUE(w->document()->snapshot());
    w->close();
    EXPECT_FALSE(w->isVisible());
    delete w.data();  // the next window() makes a new window
}

TEST(ModelWindow, TheLessonARealModelOpensTheChosenModelOnTheChosenSentence)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "bert_tiny", false);
    MainWindow main;
    main.show();
    auto* lessons = main.findChild<LessonActions*>();
    ASSERT_TRUE(lessons);
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("real-model")));
    auto* launcher = lessons->lessonPanel()->findChild<ModelLessonLauncher*>();
    ASSERT_TRUE(launcher);
    EXPECT_TRUE(launcher->isVisibleTo(lessons->lessonPanel()));
    // The text says where to get a model and which files it needs.
    const QString text = lessons->lessonPanel()->shownText();
    EXPECT_TRUE(text.contains(QStringLiteral("huggingface.co")));
    EXPECT_TRUE(text.contains(QStringLiteral("model.safetensors")));
    EXPECT_TRUE(text.contains(QStringLiteral("vocab.txt")));

    launcher->sentences()->setCurrentIndex(4);  // "... because [MASK] was too tired."
    ASSERT_TRUE(launcher->openWith(folder));
    QPointer<ModelWindow> w = main.modelWindows()->window();
    EXPECT_TRUE(w->isVisible());
    EXPECT_EQ(w->textBox()->text(), ModelWindow::exampleTexts().at(4));
    ASSERT_TRUE(settled(w->document()));
    EXPECT_EQ(w->document()->snapshot()->predictions.size(), 1u);
    EXPECT_TRUE(launcher->reopenButton()->isEnabled());
    delete w.data();
}

TEST(ModelWindow, TheLessonDoesTheModelCareOpensTheHeadWhereItReadsAnimalMost)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "bert_tiny", false);
    MainWindow main;
    main.show();
    auto* lessons = main.findChild<LessonActions*>();
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("model-care")));
    auto* launcher = lessons->lessonPanel()->findChild<ModelLessonLauncher*>(
        QStringLiteral("modelCareLauncher"));
    ASSERT_TRUE(launcher);
    EXPECT_TRUE(launcher->isVisibleTo(lessons->lessonPanel()));
    // A downloaded model is the lesson's next step, after the built-in one.
    EXPECT_TRUE(lessons->lessonPanel()->shownText().contains(QStringLiteral("GPT-2 or BERT")));
    launcher->sentences()->setCurrentIndex(0);  // "The animal ... because it was too tired"
    ASSERT_TRUE(launcher->openWith(folder));
    QPointer<ModelWindow> w = main.modelWindows()->window();
    ModelDocument* doc = w->document();
    ASSERT_TRUE(settled(doc));
    const int it = doc->findToken(QStringLiteral("it"), true);
    const int animal = doc->findToken(QStringLiteral("animal"), false);
    ASSERT_GT(it, animal);
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc->selection().query == it; }, 5000));
    const ModelSelection& s = doc->selection();
    EXPECT_EQ(s.focus, ModelFocus::Head);
    const auto snap = doc->snapshot();
    float most = 0.0f;
    for (const auto& layer : snap->result.layers)
        for (const auto& m : layer.attention) most = std::max(most, m(it, animal));
    EXPECT_EQ(snap->result.layers[static_cast<std::size_t>(s.layer)]
                  .attention[static_cast<std::size_t>(s.head)](it, animal),
              most);
    // And that head into the workbench, where the row of "it" is the model's.
    ASSERT_TRUE(launcher->workbenchButton()->isVisibleTo(launcher));
    launcher->workbenchButton()->click();
    main.headLink()->flush();
    ASSERT_TRUE(main.document()->session().provenance.has_value());
    EXPECT_EQ(main.document()->session().provenance->layer, s.layer);
    EXPECT_EQ(main.document()->session().provenance->head, s.head);
    EXPECT_NEAR(main.document()->result().heads[0].weights(it, animal), most, 1e-5);
    EXPECT_TRUE(main.headLink()->active());
    delete w.data();
}

// Characters the vocabulary lacks were left out without a word ("abcXYZ def" became a b c d e
// f); the window now names them beside the maps.
TEST(ModelWindow, CharactersTheVocabularyLacksAreNamedNotLostInSilence)
{
    Warnings warnings;
    auto w = makeWindow(warnings);
    QString error;
    const QString folder = resolveModelFolder(QStringLiteral("builtin:induction"), error);
    ASSERT_FALSE(folder.isEmpty()) << error.toStdString();
    ASSERT_TRUE(w->openFolder(folder));
    w->setText(QStringLiteral("abcXYZ def"));
    ASSERT_TRUE(settled(w->document()));
    const auto snap = w->document()->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->tokenCount(), 6);
    ASSERT_EQ(snap->dropped.size(), 4u);
    EXPECT_EQ(snap->dropped[0].text, "X");
    EXPECT_FALSE(w->message()->isHidden());
    for (const char* c : {"X", "Y", "Z"})
        EXPECT_TRUE(w->message()->text().contains(QLatin1String(c)))
            << w->message()->text().toStdString();
    w->setText(QStringLiteral("abcabc"));
    ASSERT_TRUE(settled(w->document()));
    EXPECT_TRUE(w->message()->isHidden()) << w->message()->text().toStdString();
}

}  // namespace
}  // namespace attnlab
