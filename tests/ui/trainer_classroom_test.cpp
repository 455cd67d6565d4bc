// SPDX-License-Identifier: GPL-3.0-or-later
// The Trainer dock in a classroom: which sequence its maps show, Keep asking before it replaces
// the session's tokens, a speed a class can watch, Compare after a run, and a legend that
// leaves the curves visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/train/loss_plot.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_display.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

using testing::kTrainerWaitMs;
using testing::runSettled;
using testing::train;
using testing::waitSettled;

QStringList tokensOf(const attn::TrainExample& ex)
{
    QStringList out;
    for (const std::string& t : ex.tokens) out << QString::fromStdString(t);
    return out;
}

void chooseTask(TrainerPanel& panel, attn::TaskKind kind)
{
    panel.taskBox()->setCurrentIndex(panel.taskBox()->findData(static_cast<int>(kind)));
}

// The learning lesson: tokens A–F, while the previous-token task makes its own sequence.
Session learningSession()
{
    return testing::lessonSession("learning");
}

TEST(TrainerPanel, MapsShowTheTrainingSequenceAndANoteSaysItIsNotTheSessions)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(learningSession(), QStringLiteral("lesson")));
    doc.flush();
    const QStringList session = doc.session().targetTokens;
    ASSERT_EQ(session.join(QLatin1Char(' ')), QStringLiteral("A B C D E F"));
    TrainerPanel panel(&doc);
    panel.resize(1300, 330);
    panel.show();
    ASSERT_TRUE(waitSettled(panel));
    const QStringList trained = tokensOf(panel.run()->example());
    ASSERT_NE(trained, session);
    EXPECT_EQ(panel.display()->liveView()->content().rowLabels, trained);
    EXPECT_EQ(panel.display()->targetView()->content().rowLabels, trained);
    EXPECT_EQ(panel.display()->targetView()->content().columnLabels, trained);
    QLabel* note = panel.sequenceNote();
    ASSERT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains(trained.join(QLatin1Char(' '))))
        << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(session.join(QLatin1Char(' '))));

    // Your own pattern trains on the session's tokens: no note.
    chooseTask(panel, attn::TaskKind::Pattern);
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.display()->liveView()->content().rowLabels, session);
    EXPECT_FALSE(note->isVisible());
}

TEST(TrainerPanel, TheLearningLessonNamesTheLettersTheTrainerShowsAndPreparesKeepsQuestion)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(learningSession(), QStringLiteral("lesson")));
    doc.flush();
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    const QStringList shown = tokensOf(panel.run()->example());
    ASSERT_FALSE(shown.isEmpty());
    for (const QString& t : shown) {
        ASSERT_EQ(t.size(), 1);
        EXPECT_GE(t, QStringLiteral("A"));
        EXPECT_LE(t, QStringLiteral("H")) << "the text says the letters run from A to H";
    }
    const auto lesson = std::find_if(lessons().begin(), lessons().end(), [](const Lesson& l) {
        return l.id == QLatin1String("learning");
    });
    ASSERT_NE(lesson, lessons().end());
    // Both texts say where the trainer's letters come from, and name Keep's two answers as
    // the question words them.
    EXPECT_TRUE(lesson->textEn.contains(QStringLiteral("**A to H**")));
    EXPECT_TRUE(lesson->textZh.contains(QStringLiteral("**A 到 H**")));
    const QString withSequence =
        TrainerPanel::tr("Keep with its &sequence").remove(QLatin1Char('&'));
    const QString onlyMatrices =
        TrainerPanel::tr("Keep only the &matrices").remove(QLatin1Char('&'));
    EXPECT_TRUE(lesson->textEn.contains(withSequence)) << withSequence.toStdString();
    EXPECT_TRUE(lesson->textEn.contains(onlyMatrices)) << onlyMatrices.toStdString();
    EXPECT_TRUE(lesson->textZh.contains(QStringLiteral("连同其序列一起保留")));
    EXPECT_TRUE(lesson->textZh.contains(QStringLiteral("只保留矩阵")));
}

TEST(TrainerPanel, KeepAsksBeforeReplacingTheSessionTokens)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(learningSession(), QStringLiteral("lesson")));
    doc.flush();
    const Session before = doc.session();
    TrainerPanel panel(&doc);
    QStringList questions;
    TrainerPanel::KeepAnswer answer = TrainerPanel::KeepAnswer::Cancel;
    panel.setKeepQuestion([&](const QString& text) {
        questions << text;
        return answer;
    });
    ASSERT_TRUE(train(panel, 30));
    const QStringList trained = tokensOf(panel.run()->example());
    const int undoSteps = doc.undoStack()->count();

    // Cancel: nothing changes, and the question named both sequences.
    panel.keepButton()->click();
    doc.flush();
    ASSERT_EQ(questions.size(), 1);
    EXPECT_TRUE(questions[0].contains(trained.join(QLatin1Char(' '))));
    EXPECT_TRUE(questions[0].contains(QStringLiteral("A B C D E F")));
    EXPECT_EQ(doc.undoStack()->count(), undoSteps);
    EXPECT_EQ(doc.session().targetTokens, before.targetTokens);
    EXPECT_EQ(panel.run()->last().steps, 30);  // the run is still there to keep

    // Only the matrices: the session's tokens and embeddings stay, W_Q is the learned one.
    answer = TrainerPanel::KeepAnswer::MatricesOnly;
    const attn::Matrix learnedQ = panel.run()->settledTrainer()->learned().heads[0].W_Q;
    panel.keepButton()->click();
    doc.flush();
    ASSERT_EQ(questions.size(), 2);
    EXPECT_EQ(doc.undoStack()->count(), undoSteps + 1);
    EXPECT_EQ(doc.session().targetTokens, before.targetTokens);
    EXPECT_TRUE(doc.session().input.X == before.input.X);
    EXPECT_TRUE(doc.session().input.heads[0].W_Q == learnedQ);
    EXPECT_FALSE(panel.sequenceNote()->text().isEmpty());  // still its own sequence

    // With its sequence: the tokens become the ones the trainer showed.
    ASSERT_TRUE(train(panel, 30));
    answer = TrainerPanel::KeepAnswer::WithSequence;
    const QStringList shown = tokensOf(panel.run()->example());
    panel.keepButton()->click();
    doc.flush();
    ASSERT_EQ(questions.size(), 3);
    EXPECT_EQ(doc.session().targetTokens, shown);
    EXPECT_EQ(doc.undoStack()->count(), undoSteps + 2);
}

TEST(TrainerPanel, KeepAsksNothingWhenTheTokensStay)
{
    Document doc;
    const QStringList tokens = doc.session().targetTokens;
    TrainerPanel panel(&doc);
    int asked = 0;
    panel.setKeepQuestion([&](const QString&) {
        ++asked;
        return TrainerPanel::KeepAnswer::Cancel;
    });
    chooseTask(panel, attn::TaskKind::Pattern);
    ASSERT_TRUE(train(panel, 20));
    const int undoSteps = doc.undoStack()->count();
    panel.keepButton()->click();
    doc.flush();
    EXPECT_EQ(asked, 0);
    EXPECT_EQ(doc.undoStack()->count(), undoSteps + 1);
    EXPECT_EQ(doc.session().targetTokens, tokens);
}

TEST(TrainerPanel, TheSlowestSpeedIsFiveStepsASecondAndASlowRunShowsTheMapAsItGoes)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    // The default stays full speed.
    EXPECT_EQ(panel.speedSlider()->value(), panel.speedSlider()->maximum());
    EXPECT_EQ(panel.stepDelayUs(), 0);
    EXPECT_EQ(panel.run()->stepDelayUs(), 0);

    // The previous-token loss falls within about a hundred steps: at 5 steps a second a class
    // watches it for some 20 s (at 50, the slowest there was, it was over in two).
    panel.speedSlider()->setValue(panel.speedSlider()->minimum());
    EXPECT_EQ(panel.stepDelayUs(), 200000);
    EXPECT_EQ(panel.run()->stepDelayUs(), 200000);  // the run in place slows down too
    EXPECT_NEAR(100.0 * panel.stepDelayUs() / 1e6, 20.0, 1.0);

    // At 50 steps a second the map is shown at many steps between start and end.
    panel.speedSlider()->setValue(panel.speedSlider()->minimum() + 2);
    ASSERT_EQ(panel.stepDelayUs(), 20000);
    std::set<int> shown;
    QObject::connect(&panel, &TrainerPanel::snapshotShown, &panel,
                     [&] { shown.insert(panel.run()->last().steps); });
    constexpr int kSteps = 40;
    ASSERT_TRUE(train(panel, kSteps));
    const auto between =
        std::count_if(shown.begin(), shown.end(), [](int k) { return k > 0 && k < kSteps; });
    EXPECT_GE(between, 3);
    EXPECT_EQ(panel.display()->liveView()->content().title,
              TrainerDisplay::tr("P after %n step(s)", nullptr, kSteps));

    // A new run (Reset) keeps the chosen speed.
    panel.resetButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.run()->stepDelayUs(), 20000);
    panel.speedSlider()->setValue(panel.speedSlider()->maximum());
    EXPECT_EQ(panel.run()->stepDelayUs(), 0);
}

TEST(TrainerPanel, PauseCutsASlowStepShort)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(waitSettled(panel));
    panel.speedSlider()->setValue(panel.speedSlider()->minimum());
    panel.stepsBox()->setValue(1000);
    panel.startButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.run()->last().steps > 0; }, kTrainerWaitMs));
    panel.pauseButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_LT(panel.run()->last().steps, 1000);
}

TEST(TrainerPanel, CompareStaysAvailableAfterARun)
{
    Document doc;
    TrainerPanel panel(&doc);
    ASSERT_TRUE(train(panel, 60));
    EXPECT_TRUE(panel.compareButton()->isEnabled());
    panel.compareButton()->click();
    ASSERT_NE(panel.comparisonRun(), nullptr);
    EXPECT_TRUE(panel.comparisonRun()->shared());
    EXPECT_FALSE(panel.compareButton()->isEnabled());  // one comparison at a time
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return panel.comparisonRun()->settledTrainer() &&
                   panel.comparisonRun()->last().steps == 60;
        },
        kTrainerWaitMs));
    EXPECT_EQ(panel.run()->last().steps, 60);  // the run itself was kept as it was
    EXPECT_EQ(panel.display()->lossPlot()->curve(1)->dataCount(), 61);
    EXPECT_TRUE(panel.display()->lossPlot()->legend->visible());
    panel.resetButton()->click();
    ASSERT_TRUE(waitSettled(panel));
    EXPECT_EQ(panel.comparisonRun(), nullptr);
    EXPECT_TRUE(panel.compareButton()->isEnabled());
}

// True when a drawn point of any visible curve lies inside `r` (pixels).
bool pointInside(const LossPlot& plot, const QRect& r)
{
    for (int i = 0; i < 2; ++i) {
        QCPGraph* g = plot.curve(i);
        if (!g->visible()) continue;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            if (r.contains(g->coordsToPixels(it->key, it->value).toPoint())) return true;
    }
    return false;
}

TEST(LossPlot, TheLegendNeverCoversACurve)
{
    LossPlot plot;
    plot.resize(420, 260);
    plot.show();
    plot.setCurveCount(2);
    // Curves that fill the top right, where a legend inside the axes would sit.
    std::vector<double> falling, flat;
    for (int k = 0; k < 200; ++k) {
        falling.push_back(1.0 / (1.0 + 0.05 * k));
        flat.push_back(0.95 + 0.02 * std::sin(0.1 * k));
    }
    plot.setCurve(0, QStringLiteral("Separate W_Q, W_K"), falling, falling.back());
    plot.setCurve(1, QStringLiteral("One shared projection"), flat, flat.back());
    for (bool log : {false, true}) {
        plot.setLogScale(log);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        ASSERT_TRUE(plot.legend->visible());
        const QRect legend = plot.legend->outerRect();
        ASSERT_FALSE(legend.isEmpty());
        EXPECT_FALSE(legend.intersects(plot.axisRect()->rect())) << "log: " << log;
        EXPECT_FALSE(pointInside(plot, legend)) << "log: " << log;
        EXPECT_TRUE(plot.rect().contains(legend));
    }
    // In a narrow plot the names stack instead of being cut.
    for (int width : {260, 700}) {
        plot.resize(width, 260);
        QCoreApplication::sendPostedEvents();
        plot.replot(QCustomPlot::rpImmediateRefresh);
        EXPECT_FALSE(plot.legend->outerRect().intersects(plot.axisRect()->rect()));
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = plot.legend->item(i);
            EXPECT_GE(item->outerRect().width(), item->minimumOuterSizeHint().width())
                << "width " << width << ", item " << i;
            EXPECT_TRUE(plot.rect().contains(item->outerRect())) << "width " << width;
        }
    }
    // One curve: no legend, and the axes take the whole height again.
    plot.setCurveCount(1);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_FALSE(plot.legend->visible());
    EXPECT_EQ(plot.plotLayout()->rowCount(), 1);
}

}  // namespace
}  // namespace attnlab
