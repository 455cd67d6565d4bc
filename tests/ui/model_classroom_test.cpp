// SPDX-License-Identifier: GPL-3.0-or-later
// The real-model window as a class sees it (the tiny GPT-2 fixture with a byte-level
// tokenizer): after an edit the change grid starts at the edited layer on its own colour range;
// the hover readout follows every edit; "Change" never prints 0 for a change; the prediction
// bars never cover digits; the window and its docks fit a 1366×768 screen; and a Chinese text,
// whose characters the byte-level tokenizer splits into three tokens each, is labelled by its
// characters, with the bytes on hover.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "core/model/head_edit.h"
#include "core/tokenize/token_display.h"
#include "support/classroom_screens.h"
#include "support/layout_check.h"
#include "support/model_folder.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/model/head_view_panel.h"
#include "ui/model/model_change_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_focus_panel.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/model_train_run.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/predictions_panel.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/views/color_scales.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

using testing::OpenModel;
using testing::openModel;
using testing::settled;

// The window's size unless a test says otherwise.
const QSize kWindowSize(1280, 760);

const QString kMark =
    QString::fromUtf8(attn::tok::kContinuationMark.data(),
                      static_cast<qsizetype>(attn::tok::kContinuationMark.size()));

TEST(ModelChange, TheGridStartsAtTheEditedLayerOnItsOwnColourRange)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("the cat sat."), kWindowSize));
    ModelDocument* doc = o.window->document();
    // Doubling a key of layer 2 changes that layer's own maps; layer 1 comes before it.
    ASSERT_TRUE(doc->scaleVector(attn::model::HeadEditKind::Key, 1, 2, 3, 2.0f));
    ASSERT_TRUE(settled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap->edited());
    ModelChangePanel* panel = o.window->changePanel();
    QTableWidget* grid = panel->grid();
    ASSERT_EQ(grid->rowCount(), 2);
    EXPECT_TRUE(grid->isRowHidden(0));
    EXPECT_FALSE(grid->isRowHidden(1));
    EXPECT_EQ(grid->rowAt(0), 1);  // the first row shown is the edited layer
    EXPECT_EQ(firstChangedLayer(*snap), 1);

    // The colours run from 0 to the largest change, which the title prints.
    float largest = 0.0f;
    int at = 0;
    for (int h = 0; h < 4; ++h)
        if (snap->change[1][static_cast<std::size_t>(h)] > largest) {
            largest = snap->change[1][static_cast<std::size_t>(h)];
            at = h;
        }
    ASSERT_GT(largest, 0.0f);
    ASSERT_LT(largest, 0.9f);  // on a fixed 0 to 1 it would not reach the top colour
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    const QColor top = grid->item(1, at)->background().color();
    const double v = static_cast<double>(largest);
    EXPECT_EQ(top, QColor(lut.color(v, ValueRange(0.0, v))));
    EXPECT_NE(top, QColor(lut.color(v, ValueRange(0.0, 1.0))));
    const QString title = panel->title()->text();
    EXPECT_TRUE(title.contains(QString::number(static_cast<double>(largest), 'g', 3)))
        << title.toStdString();
    EXPECT_TRUE(title.startsWith(QStringLiteral("Layer 1 comes before the edit")))
        << title.toStdString();
}

TEST(ModelFocus, TheHoverReadoutFollowsAnEdit)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("the cat sat."), kWindowSize));
    ModelDocument* doc = o.window->document();
    doc->selectHead(1, 2);
    ModelFocusPanel* focus = o.window->focusPanel();
    const int row = 8, column = 3;
    Q_EMIT focus->map()->cellHovered(row, column);
    const auto weightShown = [&] {
        return QString::number((*doc->focusedMatrix())(row, column), 'f', 4);
    };
    const QString before = weightShown();
    EXPECT_TRUE(focus->hoverLabel()->text().endsWith(before))
        << focus->hoverLabel()->text().toStdString();
    // Double key 4 of this head: the weight under the mouse changes, and so does its readout.
    ASSERT_TRUE(doc->scaleVector(attn::model::HeadEditKind::Key, 1, 2, column, 2.0f));
    ASSERT_TRUE(settled(doc));
    const QString after = weightShown();
    ASSERT_NE(after, before);
    EXPECT_TRUE(focus->hoverLabel()->text().endsWith(after))
        << focus->hoverLabel()->text().toStdString() << " vs " << after.toStdString();
}

TEST(Predictions, ChangeIsInSignedPercentagePoints_ZeroOnlyBelowTheNoiseFloor)
{
    const QString minus(QChar(0x2212));
    EXPECT_EQ(percentPointChange(0.012, 0.011), minus + QStringLiteral("0.1 pp"));
    EXPECT_EQ(percentPointChange(0.1, 0.1234), QStringLiteral("+2.3 pp"));
    // Before 1.2 % and after 1.1 % as printed, but less than 0.05 points apart.
    EXPECT_EQ(percentPointChange(0.01152, 0.01148), minus + QStringLiteral("0.004 pp"));
    EXPECT_EQ(percentPointChange(0.3, 0.3 - 2e-5), minus + QStringLiteral("0.002 pp"));
    EXPECT_EQ(percentPointChange(0.25, 0.25), QStringLiteral("0.0 pp"));
    // Float noise, below kProbabilityNoiseFloor, is no change.
    EXPECT_EQ(percentPointChange(0.3, 0.3 + 2e-11), QStringLiteral("0.0 pp"));
    EXPECT_EQ(percentPointChange(0.5, 0.5000003), QStringLiteral("0.0 pp"));
    EXPECT_EQ(percentPointChange(0.3, 0.3 - 9e-6), QStringLiteral("0.0 pp"));

    // In the window: every change of a probability reads as one.
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("the cat sat."), kWindowSize));
    ModelDocument* doc = o.window->document();
    ASSERT_TRUE(doc->ablateHead(0, 1, false));
    ASSERT_TRUE(settled(doc));
    QTreeWidget* tree = o.window->predictions()->tree();
    ASSERT_EQ(tree->columnCount(), 4);
    const auto& guesses = doc->snapshot()->predictions.at(0).top;
    const QTreeWidgetItem* top = tree->topLevelItem(0);
    ASSERT_EQ(top->childCount(), static_cast<int>(guesses.size()));
    for (int k = 0; k < top->childCount(); ++k) {
        const QString change = top->child(k)->text(3);
        EXPECT_TRUE(change.endsWith(QStringLiteral(" pp"))) << change.toStdString();
        const double points = QString(change)
                                  .remove(QStringLiteral(" pp"))
                                  .replace(minus, QStringLiteral("-"))
                                  .toDouble();
        const ModelGuess& g = guesses[static_cast<std::size_t>(k)];
        if (isProbabilityChange(g.before, g.probability)) {
            EXPECT_NE(points, 0.0) << change.toStdString();
            EXPECT_EQ(points > 0, g.probability > g.before) << change.toStdString();
        }
    }
}

TEST(Predictions, TheBarsNeverCoverTheDigits)
{
    // The layout: a full bar ends before the digits, however narrow the cell.
    for (const int width : {40, 80, 160}) {
        const QRect cell(10, 0, width, 20);
        const ProbabilityCellLayout l = probabilityCellLayout(cell, 36, 1.0);
        EXPECT_LE(l.bar.right(), l.text.left()) << width;
        EXPECT_TRUE(cell.contains(l.text)) << width;
    }
    // In the window at 1366×768, before and after an edit: every probability cell leaves its
    // digits their whole width.
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("the cat sat."), QSize(1366, 740)));
    ModelDocument* doc = o.window->document();
    for (const bool edited : {false, true}) {
        SCOPED_TRACE(edited ? "edited" : "plain");
        if (edited) {
            ASSERT_TRUE(doc->ablateHead(0, 1, false));
            ASSERT_TRUE(settled(doc));
        }
        QTreeWidget* tree = o.window->predictions()->tree();
        QCoreApplication::processEvents();
        const QTreeWidgetItem* top = tree->topLevelItem(0);
        const QFontMetrics fm(tree->font());
        for (int k = 0; k < top->childCount(); ++k) {
            const int columns = edited ? 2 : 1;
            for (int c = 1; c <= columns; ++c) {
                const QModelIndex index = tree->model()->index(k, c, tree->model()->index(0, 0));
                const QRect cell = tree->visualRect(index);
                const QString text = top->child(k)->text(c);
                const int wide = fm.horizontalAdvance(text);
                const ProbabilityCellLayout l = probabilityCellLayout(cell, wide, 1.0);
                EXPECT_LE(l.bar.right(), l.text.left()) << text.toStdString();
                EXPECT_GE(l.text.width(), wide) << text.toStdString() << " in " << cell.width();
            }
        }
    }
}

TEST(ModelWindow, TheWindowAndEveryDockFitA1366x768Screen)
{
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("the cat sat."), QSize(1366, 768)));
    ModelDocument* doc = o.window->document();
    ASSERT_TRUE(doc->ablateHead(0, 1, false));  // the change grid and four prediction columns
    ASSERT_TRUE(settled(doc));
    o.window->resize(1366, 768);
    QCoreApplication::processEvents();
    const QRect screen(0, 0, 1366, 768);
    EXPECT_LE(o.window->minimumSizeHint().width(), screen.width());
    EXPECT_LE(o.window->minimumSizeHint().height(), screen.height());
    EXPECT_LE(o.window->width(), screen.width());
    EXPECT_LE(o.window->height(), screen.height());
    const QRect inside = QRect(QPoint(0, 0), o.window->size());
    const QList<QDockWidget*> docks = o.window->findChildren<QDockWidget*>();
    ASSERT_FALSE(docks.isEmpty());
    for (QDockWidget* dock : docks) {
        if (!dock->isVisible()) continue;
        // A dock tabbed behind another (Head kinds behind Head view) takes that one's place
        // when its tab is chosen; until then Qt parks it off screen.
        if (!o.window->tabifiedDockWidgets(dock).isEmpty() && dock->visibleRegion().isEmpty())
            continue;
        const QRect r(dock->mapTo(o.window.get(), QPoint(0, 0)), dock->size());
        EXPECT_TRUE(inside.contains(r)) << dock->objectName().toStdString() << " at " << r.x()
                                        << "," << r.y() << " " << r.width() << "×" << r.height();
        EXPECT_LE(dock->widget()->minimumSizeHint().width(), r.width())
            << dock->objectName().toStdString();
    }
}

// The model window as the lesson "Induction heads form" opens it, on each classroom screen:
// the trainer first, trained to its phase change (the status line and the phase-change
// sentence have their numbers), then the trained model opened above it with a head switched
// off (the change column filled). Nothing may be cut or elided at any point (in Chinese at
// 1366 wide the trainer cut 文件…, 重置, the phase-change sentence and 导出胶片条…, and the
// change column read "+0.001 个百…"), in the window as it opens (1280 × 800 or most of a
// smaller screen) and filling the screen.
class ModelWindowScreens : public ::testing::TestWithParam<testing::Screen> {};

// A model that takes a step in a millisecond and finds its phase change in a few hundred
// steps: two layers of two heads, d 16, context 16.
void trainSmallModelToItsPhaseChange(ModelTrainerPanel& trainer)
{
    trainer.headsBox()->setValue(2);
    trainer.widthBox()->setValue(16);
    trainer.contextBox()->setValue(16);
    trainer.stepsBox()->setValue(600);
    trainer.startButton()->click();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return trainer.run() && trainer.run()->finished() && trainer.run()->settledRun(); },
        300000));
    ASSERT_TRUE(trainer.phase().found());
    ASSERT_FALSE(trainer.phaseLabel()->isHidden());
}

void expectEveryWordShown(ModelWindow* window, QSize size, const char* when)
{
    SCOPED_TRACE(when);
    for (int i = 0; i < 4; ++i) QCoreApplication::processEvents();
    // The window keeps the size it opened at: a trainer that needs more height than the
    // window has would push its bottom off a 768-pixel screen.
    EXPECT_LE(window->minimumSizeHint().height(), size.height());
    EXPECT_EQ(window->size(), size);
    const QStringList cut = testing::clippedTexts(window);
    EXPECT_TRUE(cut.isEmpty()) << cut.join(QLatin1Char('\n')).toStdString();
    const QStringList elided = testing::elidedCells(window);
    EXPECT_TRUE(elided.isEmpty()) << elided.join(QLatin1Char('\n')).toStdString();
    const QStringList covered = testing::hiddenPlotTexts(window);
    EXPECT_TRUE(covered.isEmpty()) << covered.join(QLatin1Char('\n')).toStdString();
}

TEST_P(ModelWindowScreens, TheTrainerAndTheChangeColumnShowEveryWord)
{
    const testing::Screen screen = GetParam();
    testing::useScreen(screen);
    QTemporaryDir home;  // where Open in Model Window writes the trained model
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());
    const QSize full(screen.width, screen.height);
    for (const QSize size : {QSize(1280, 800).boundedTo(full * 0.96), full}) {
        SCOPED_TRACE(
            QStringLiteral("window %1×%2").arg(size.width()).arg(size.height()).toStdString());
        ModelWindow window;
        ModelWindowDialogs quiet;
        quiet.warn = [](const QString&, const QString&) {};
        window.setDialogs(quiet);
        window.resize(size);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.showTrainer(2);
        expectEveryWordShown(&window, size, "the trainer alone");
        ModelTrainerPanel& trainer = *window.trainer();
        ASSERT_NO_FATAL_FAILURE(trainSmallModelToItsPhaseChange(trainer));
        expectEveryWordShown(&window, size, "trained to its phase change");
        QString error;
        ASSERT_TRUE(trainer.openInModelWindow(error)) << error.toStdString();
        ModelDocument* doc = window.document();
        ASSERT_TRUE(settled(doc));
        ASSERT_TRUE(doc->ablateHead(1, 1, false));
        ASSERT_TRUE(settled(doc));
        ASSERT_TRUE(doc->snapshot() && doc->snapshot()->edited());
        ASSERT_EQ(window.predictions()->tree()->columnCount(), 4);
        expectEveryWordShown(&window, size, "the trained model open, a head off");
    }
    setLanguage(QStringLiteral("en"));
}

TEST_P(ModelWindowScreens, TheTranslatorTrainerShowsEveryWordOnceAlignmentHasFormed)
{
    const testing::Screen screen = GetParam();
    testing::useScreen(screen);
    const QSize size(screen.width, screen.height);
    ModelWindow window;
    window.resize(size);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // As a person gets there: the trainer first (on GPT-2's page), then the task chosen in its
    // combo. A column sized once, before the page was shown, cut its words.
    window.showTrainer();
    for (int i = 0; i < 4; ++i) QCoreApplication::processEvents();
    QComboBox* task = nullptr;
    for (QComboBox* c : window.trainer()->findChildren<QComboBox*>())
        if (c->count() == 3) task = c;
    ASSERT_NE(task, nullptr);
    task->setCurrentIndex(ModelTrainerPanel::kTranslatorTask);
    Q_EMIT task->activated(ModelTrainerPanel::kTranslatorTask);
    TranslatorTrainerPanel& page = *window.trainer()->translator();
    ASSERT_NE(page.run(), nullptr);
    expectEveryWordShown(&window, size, "the translator's page at step 0");
    // Step 75 of the default recipe: the sentence under the plots, the longest words there.
    page.run()->runTo(75);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return page.run()->steps() == 75 && page.run()->settledRun(); }, 300000));
    ASSERT_NE(page.formed(), nullptr);
    expectEveryWordShown(&window, size, "alignment formed");
    setLanguage(QStringLiteral("en"));
}

INSTANTIATE_TEST_SUITE_P(Screens, ModelWindowScreens, testing::classroomScreens(),
                         testing::screenName);

TEST(ModelLessonLauncher, ALongModelFolderNameDoesNotWidenTheLessonDock)
{
    // The reopen button names the last folder: at full length it made the lesson dock, and with
    // it the workbench, wider than a 1366-pixel screen.
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString folder =
        dir.filePath(QStringLiteral("uer-gpt2-chinese-cluecorpussmall-distilled-v2"));
    ASSERT_TRUE(QDir().mkpath(folder));
    QSettings().setValue(QStringLiteral("model/lastFolder"), folder);
    ModelWindows models;
    ModelLessonLauncher launcher(&models);
    launcher.show();
    QCoreApplication::processEvents();
    EXPECT_TRUE(launcher.reopenButton()->isEnabled());
    // The button, not the launcher: the sentences' box is as wide as its longest sentence.
    EXPECT_LE(launcher.reopenButton()->minimumSizeHint().width(), 360)
        << launcher.reopenButton()->text().toStdString();
    EXPECT_LE(launcher.minimumSizeHint().width(), 460);
    EXPECT_EQ(launcher.reopenButton()->toolTip(), QDir::toNativeSeparators(folder));
}

TEST(ModelTokens, AChineseTextIsLabelledByItsCharactersWithTheBytesOnHover)
{
    // The fixture's tokenizer has one token per byte: 它 is three tokens.
    OpenModel o;
    ASSERT_NO_FATAL_FAILURE(openModel(o, QStringLiteral("因为它太累了"), kWindowSize));
    ModelDocument* doc = o.window->document();
    const auto snap = doc->snapshot();
    ASSERT_EQ(snap->tokenCount(), 18);  // six characters of three bytes: one row each
    const QStringList want{QStringLiteral("因"), kMark, kMark, QStringLiteral("为"), kMark, kMark,
                           QStringLiteral("它"), kMark, kMark, QStringLiteral("太"), kMark, kMark,
                           QStringLiteral("累"), kMark, kMark, QStringLiteral("了"), kMark, kMark};
    EXPECT_EQ(snap->labels, want);
    for (const QString& l : snap->labels) EXPECT_FALSE(l.contains(QLatin1Char('<')));

    // The enlarged map and the head view keep one row and column per token, with these labels.
    const HeatmapContent& map = o.window->focusPanel()->map()->content();
    EXPECT_EQ(map.rowLabels, want);
    EXPECT_EQ(map.columnLabels, want);
    EXPECT_EQ(map.rows(), 18);

    // Hover: the readable piece and its raw bytes.
    ModelFocusPanel* focus = o.window->focusPanel();
    Q_EMIT focus->map()->cellHovered(7, 6);
    const QString hover = focus->hoverLabel()->text();
    EXPECT_TRUE(hover.contains(QStringLiteral("它 (2/3)"))) << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("AE"))) << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("它 (1/3)"))) << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("E5"))) << hover.toStdString();
    HeadLinesCanvas* canvas = o.window->headView()->canvas();
    const QString tip = canvas->toolTipAt(canvas->tokenCentre(1, 8));
    EXPECT_TRUE(tip.contains(QStringLiteral("它 (3/3)"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("83"))) << tip.toStdString();

    // The predictions name the position after its character, not its bytes.
    const QString after = o.window->predictions()->tree()->topLevelItem(0)->text(0);
    EXPECT_TRUE(after.contains(QStringLiteral("了 (3/3)"))) << after.toStdString();
    EXPECT_FALSE(after.contains(QLatin1Char('<'))) << after.toStdString();

    // And the same grouping finds the words the lessons look for.
    EXPECT_EQ(doc->findToken(QStringLiteral("它"), true), 6);
}

}  // namespace
}  // namespace attnlab
