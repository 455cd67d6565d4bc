// SPDX-License-Identifier: GPL-3.0-or-later
// The model trainer's translator page (ui/model/translator_trainer_panel.h): the task "Dates →
// English" shows it in place of the GPT-2 trainer (each run keeps its state); a real run plots
// its loss, exact match and every head's alignment, marks the step alignment formed on both
// plots with a sentence, and shows the live cross map of the fixed date; the model saves as a
// Marian folder that core/model's loader opens with the same maps, opens through the host, and
// the film strip exports as PNG, SVG and PDF.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/seq2seq_forward.h"
#include "core/model/seq2seq_model.h"
#include "core/train/dates_align.h"
#include "support/export_test_support.h"
#include "ui/model/model_train_curves.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_train_curves.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

constexpr int kWaitMs = 300000;  // 150 steps: about 5 s alone, far more when shared

QComboBox* taskBox(ModelTrainerPanel& panel)
{
    for (QComboBox* c : panel.findChildren<QComboBox*>())
        if (c->count() == 3) return c;
    return nullptr;
}

void chooseTranslator(ModelTrainerPanel& panel)
{
    QComboBox* task = taskBox(panel);
    ASSERT_NE(task, nullptr);
    task->setCurrentIndex(ModelTrainerPanel::kTranslatorTask);
    Q_EMIT task->activated(ModelTrainerPanel::kTranslatorTask);
}

// One run of 150 steps (alignment forms near step 75 with seed 1), trained once for the tests
// that read it.
struct TrainedPage {
    ModelTrainerPanel panel;
    TranslatorTrainerPanel* page = nullptr;
    bool trained = false;
    TrainedPage()
    {
        chooseTranslator(panel);
        page = panel.translator();
        page->stepsBox()->setValue(150);
        page->startButton()->click();
        trained = QTest::qWaitFor(
            [this] { return page->run() && page->run()->finished() && page->run()->settledRun(); },
            kWaitMs);
    }
};

// Trained once per test process (ctest runs each test in its own).
class TranslatorTrainerRun : public ::testing::Test {
protected:
    static void SetUpTestSuite() { page_ = new TrainedPage; }
    static void TearDownTestSuite()
    {
        delete page_;
        page_ = nullptr;
    }
    static TrainedPage* page_;
};
TrainedPage* TranslatorTrainerRun::page_ = nullptr;

TEST(TranslatorTrainer, ChoosingTheDatesTaskShowsItsPageAndTheGpt2RunWaitsAsItWas)
{
    ModelTrainerPanel panel;
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.run() && panel.run()->settledRun(); }, kWaitMs));
    panel.stepButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.run()->steps() == 1; }, kWaitMs));
    chooseTranslator(panel);
    EXPECT_TRUE(panel.showsTranslator());
    auto* pages = panel.findChild<QStackedWidget*>();
    ASSERT_NE(pages, nullptr);
    EXPECT_EQ(pages->currentWidget(), panel.translator());
    // The task row moved with the page: it is the translator's now.
    EXPECT_TRUE(panel.translator()->isAncestorOf(taskBox(panel)));
    ASSERT_NE(panel.translator()->run(), nullptr);
    EXPECT_EQ(panel.translator()->run()->steps(), 0);
    EXPECT_EQ(panel.startButton(), panel.translator()->startButton());
    QComboBox* task = taskBox(panel);
    task->setCurrentIndex(0);
    Q_EMIT task->activated(0);
    EXPECT_FALSE(panel.showsTranslator());
    EXPECT_FALSE(panel.translator()->isAncestorOf(taskBox(panel)));
    EXPECT_EQ(panel.run()->steps(), 1);  // not a new run
}

TEST_F(TranslatorTrainerRun, ARunPlotsItsMeasuresMarksAlignmentFormingAndShowsTheLiveMap)
{
    TrainedPage& t = *page_;
    ASSERT_TRUE(t.trained);
    const TranslatorTrainRun& run = *t.page->run();
    EXPECT_EQ(t.page->lossPlot()->lossGraph()->dataCount(), 150);
    // Measures at 0, 25, ..., 150.
    ASSERT_EQ(run.measures().size(), 7U);
    EXPECT_EQ(t.page->lossPlot()->accuracyGraph()->dataCount(), 7);
    EXPECT_EQ(t.page->alignmentPlot()->bestGraph()->dataCount(), 7);
    EXPECT_EQ(t.page->alignmentPlot()->graph(1, 3)->dataCount(), 7);
    const attn::dates::Point* formed = attn::dates::alignmentFormed(run.measures());
    ASSERT_NE(formed, nullptr) << "alignment did not pass 0.5 in 150 steps";
    EXPECT_LE(run.measures().front().alignment.best, attn::dates::kAlignedThreshold);
    EXPECT_EQ(t.page->lossPlot()->phaseStep(), formed->step);
    EXPECT_EQ(t.page->alignmentPlot()->phaseStep(), formed->step);
    EXPECT_TRUE(t.page->formedLabel()->isVisibleTo(t.page));
    EXPECT_TRUE(t.page->formedLabel()->text().contains(
        QStringLiteral("Alignment formed at step %1").arg(formed->step)));
    EXPECT_TRUE(
        t.page->formedLabel()->text().contains(QString::number(formed->alignment.best, 'f', 2)));
    // The live map: the best head at the latest measure, on the fixed date with its pieces.
    const attn::dates::Alignment& last = run.measures().back().alignment;
    EXPECT_EQ(t.page->shownHead().layer, last.bestLayer);
    EXPECT_EQ(t.page->shownHead().head, last.bestHead);
    const HeatmapContent& c = t.page->crossView()->map()->content();
    // 二〇二六年十二月四日 + </s>; December ␣ 4 , ␣ 2 0 2 6 </s>.
    ASSERT_EQ(c.columnLabels.size(), 11);
    EXPECT_EQ(c.columnLabels.front(), QStringLiteral("二"));
    EXPECT_EQ(c.columnLabels.back(), QStringLiteral("</s>"));
    ASSERT_EQ(c.rowLabels.size(), 10);
    EXPECT_EQ(c.rowLabels.front(), QStringLiteral("December"));
    EXPECT_EQ(c.rowLabels[1], QStringLiteral("␣"));
    ASSERT_EQ(c.rows(), 10);
    ASSERT_EQ(c.cols(), 11);
    for (long i = 0; i < c.rows(); ++i) {
        double sum = 0.0;
        for (long j = 0; j < c.cols(); ++j) sum += c.at(i, j);
        EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << i;
    }
    // Choosing a head shows it.
    t.page->headChoice()->setCurrentIndex(1);
    Q_EMIT t.page->headChoice()->activated(1);
    EXPECT_EQ(t.page->shownHead().layer, 0);
    EXPECT_EQ(t.page->shownHead().head, 0);
    t.page->headChoice()->setCurrentIndex(0);
    Q_EMIT t.page->headChoice()->activated(0);
}

TEST_F(TranslatorTrainerRun, TheModelSavesOpensAndExportsItsFilmStrip)
{
    TrainedPage& t = *page_;
    ASSERT_TRUE(t.trained);
    EXPECT_TRUE(t.panel.hasUnsavedModel());
    EXPECT_TRUE(t.panel.unsavedModelName().contains(QStringLiteral("translator")));
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("dates"));
    QString error;
    ASSERT_TRUE(t.page->saveTo(folder, error)) << error.toStdString();
    EXPECT_FALSE(t.page->hasUnsavedModel());
    attn::model::Seq2SeqModel m;
    ASSERT_TRUE(attn::model::Seq2SeqModel::load(folder.toStdString(), m).ok());
    const attn::dates::LiveExample& e = t.page->run()->settledRun()->example();
    std::vector<int> input{m.config().decoderStartTokenId};
    input.insert(input.end(), e.pair.labels.begin(), e.pair.labels.end() - 1);
    attn::model::Seq2SeqResult r;
    ASSERT_TRUE(attn::model::forwardSeq2Seq(m, e.pair.source, input, {}, r).ok());
    const attn::gpt2::HeadMaps& live = *t.page->run()->maps();
    ASSERT_EQ(static_cast<long>(r.cross.size()), live.layers);
    float worst = 0.0f;
    for (long l = 0; l < live.layers; ++l)
        for (long h = 0; h < live.heads; ++h)
            for (long i = 0; i < live.T; ++i)
                for (long j = 0; j < live.S; ++j)
                    worst = std::max(worst,
                                     std::abs(r.cross[l][h](i, j) - live.at(l, h)[i * live.S + j]));
    EXPECT_LT(worst, 1e-4F);  // float training pass against the loader's float forward
    // The folder is a dates translator to `attnlab align` too.
    attn::dates::FolderAlignment a;
    ASSERT_TRUE(attn::dates::alignFolder(folder.toStdString(), 20, a).ok());
    EXPECT_EQ(a.count, 20);
    // Open in Model Window writes a folder of its own and hands it to the host.
    QString opened;
    t.panel.setOpenModel([&](const QString& written, const QString&) {
        opened = written;
        return true;
    });
    ASSERT_TRUE(t.panel.openInModelWindow(error)) << error.toStdString();
    ASSERT_FALSE(opened.isEmpty());
    EXPECT_TRUE(QFile::exists(opened + QStringLiteral("/model.safetensors")));
    EXPECT_TRUE(QFile::exists(opened + QStringLiteral("/source.spm")));
    QDir(opened).removeRecursively();  // the application's data: leave nothing behind
    // The film strip: steps 0, 50, 100 and 150 of the default strip were passed; 300 and 1200 were
    // not.
    ASSERT_EQ(t.page->run()->frames().size(), 4U);
    const QString png = dir.filePath(QStringLiteral("strip.png"));
    ASSERT_TRUE(t.page->exportFilmStrip(png, error)) << error.toStdString();
    const QImage image(png);
    EXPECT_EQ(image.width(), 120 + 300 * 4);
    const QString svg = dir.filePath(QStringLiteral("strip.svg"));
    ASSERT_TRUE(t.page->exportFilmStrip(svg, error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const testing::SvgSummary s = testing::readSvg(f.readAll());
    EXPECT_TRUE(s.wellFormed);
    for (const char* step : {"step 0", "step 50", "step 100", "step 150"})
        EXPECT_TRUE(s.texts.contains(QString::fromLatin1(step))) << step;
    EXPECT_TRUE(s.texts.contains(QStringLiteral("December")));
    const QString pdf = dir.filePath(QStringLiteral("strip.pdf"));
    ASSERT_TRUE(t.page->exportFilmStrip(pdf, error)) << error.toStdString();
    QFile p(pdf);
    ASSERT_TRUE(p.open(QIODevice::ReadOnly));
    EXPECT_TRUE(p.read(5).startsWith("%PDF"));
    // A strip of no kept step says so.
    t.page->filmStepsEdit()->setText(QStringLiteral("7"));
    EXPECT_FALSE(t.page->exportFilmStrip(png, error));
    EXPECT_TRUE(error.contains(QStringLiteral("Keep This Step")));
    t.page->filmStepsEdit()->setText(
        QString::fromLatin1(TranslatorTrainerPanel::kDefaultFilmSteps));
}

}  // namespace
}  // namespace attnlab
