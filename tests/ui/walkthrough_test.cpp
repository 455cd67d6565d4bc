// SPDX-License-Identifier: GPL-3.0-or-later
#include <array>
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QTabWidget>
#include <QTest>

#include "support/classroom_screens.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/presenter/presenter_window.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_actions.h"
#include "ui/window/walkthrough_actions.h"

namespace attnlab {
namespace {

// A five-token self-attention session (d_model = d_k = d_v = 3 by default).
void makeFiveTokens(Document& doc, attn::Scaling scaling = attn::Scaling::SqrtDk)
{
    const QStringList tokens = {QStringLiteral("the"), QStringLiteral("animal"),
                                QStringLiteral("was"), QStringLiteral("too"),
                                QStringLiteral("tired")};
    ASSERT_TRUE(doc.changeSession(QStringLiteral("tokens"), [&](Session& s) {
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
        s.input.scaling = scaling;
    }));
    doc.flush();
}

bool contains(const QString& text, const char* part)
{
    return text.contains(QString::fromUtf8(part));
}

TEST(Walkthrough, VisitsEveryStepInOrderAndStopsAtTheEnds)
{
    Document doc;
    WalkthroughPanel panel(&doc);
    std::vector<int> seen;
    QObject::connect(&panel, &WalkthroughPanel::stepChanged,
                     [&](int step) { seen.push_back(step); });
    EXPECT_EQ(panel.step(), 1);
    EXPECT_EQ(panel.stepIndicator(), QStringLiteral("Step 1 of 5"));
    for (int i = 0; i < 5; ++i) panel.next();
    EXPECT_EQ(panel.step(), 5);
    EXPECT_EQ(seen, (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ(panel.stepIndicator(), QStringLiteral("Step 5 of 5"));
    panel.back();
    EXPECT_EQ(panel.step(), 4);
    for (int i = 0; i < 6; ++i) panel.back();
    EXPECT_EQ(panel.step(), 1);
    EXPECT_EQ(panel.findChild<QLabel*>(QStringLiteral("walkthroughIndicator"))->text(),
              QStringLiteral("Step 1 of 5"));
}

TEST(Walkthrough, CaptionsNameTheMatricesAndShapesOfTheSession)
{
    Document doc;
    makeFiveTokens(doc);
    WalkthroughPanel panel(&doc);
    const QString c1 = panel.caption(1);
    EXPECT_TRUE(contains(c1, "Step 1")) << c1.toStdString();
    EXPECT_TRUE(contains(c1, "Q = X·W_Q (5 × 3)")) << c1.toStdString();
    EXPECT_TRUE(contains(c1, "K = X·W_K (5 × 3)")) << c1.toStdString();
    EXPECT_TRUE(contains(c1, "V = X·W_V (5 × 3)")) << c1.toStdString();
    const QString c2 = panel.caption(2);
    EXPECT_TRUE(contains(c2, "S = QKᵀ")) << c2.toStdString();
    EXPECT_TRUE(contains(c2, "(5 × 3) · (3 × 5) → (5 × 5)")) << c2.toStdString();
    const QString c3 = panel.caption(3);
    EXPECT_TRUE(contains(c3, "S / √d_k = S / √3 (5 × 5)")) << c3.toStdString();
    const QString c4 = panel.caption(4);
    EXPECT_TRUE(contains(c4, "P (5 × 5)")) << c4.toStdString();
    EXPECT_TRUE(contains(c4, "sum to one")) << c4.toStdString();
    const QString c5 = panel.caption(5);
    EXPECT_TRUE(contains(c5, "O = PV, (5 × 5) · (5 × 3) → (5 × 3)")) << c5.toStdString();
    panel.setStep(2);
    EXPECT_EQ(panel.caption(), c2);

    // The caption follows the session: no scaling, then a causal mask.
    makeFiveTokens(doc, attn::Scaling::None);
    EXPECT_TRUE(contains(panel.caption(3), "No scaling")) << panel.caption(3).toStdString();
    ASSERT_TRUE(doc.changeSession(QStringLiteral("causal"),
                                  [](Session& s) { s.input.mode = attn::Mode::Causal; }));
    doc.flush();
    EXPECT_TRUE(contains(panel.caption(4), "causal mask")) << panel.caption(4).toStdString();
}

TEST(Walkthrough, RevealsExactlyTheMatricesOfStepsSoFar)
{
    Document doc;
    makeFiveTokens(doc);
    WalkthroughPanel panel(&doc);
    panel.resize(1200, 800);
    panel.show();
    const int expectedStep[] = {1, 1, 1, 1, 2, 3, 4, 4, 5};
    for (int k = 1; k <= 5; ++k) {
        panel.setStep(k);
        for (int s = 0; s < WalkthroughPanel::StageCount; ++s) {
            EXPECT_EQ(WalkthroughPanel::stepOfStage(s), expectedStep[s]);
            const bool shown = panel.stageView(s)->isVisible();
            EXPECT_EQ(shown, expectedStep[s] <= k) << "step " << k << " stage " << s;
            EXPECT_EQ(panel.isCurrent(s), expectedStep[s] == k) << "step " << k << " stage " << s;
        }
    }
    // The maps are the document's stages.
    const attn::HeadResult& hr = *doc.currentHead();
    EXPECT_TRUE(panel.stageView(Stage::Weights)->content().values.isApprox(hr.weights));
    EXPECT_TRUE(panel.stageView(Stage::Output)->content().values.isApprox(hr.output));
    EXPECT_TRUE(contains(panel.stageView(Stage::Scores)->content().title, "(5 × 5)"));
}

TEST(Walkthrough, KeysMoveTheSteps)
{
    Document doc;
    WalkthroughPanel panel(&doc);
    QTest::keyClick(&panel, Qt::Key_Right);
    EXPECT_EQ(panel.step(), 2);
    QTest::keyClick(&panel, Qt::Key_PageDown);
    EXPECT_EQ(panel.step(), 3);
    QTest::keyClick(&panel, Qt::Key_Left);
    EXPECT_EQ(panel.step(), 2);
    QTest::keyClick(&panel, Qt::Key_End);
    EXPECT_EQ(panel.step(), 5);
    QTest::keyClick(&panel, Qt::Key_Right);
    EXPECT_EQ(panel.step(), 5);
    QTest::keyClick(&panel, Qt::Key_PageUp);
    EXPECT_EQ(panel.step(), 4);
    QTest::keyClick(&panel, Qt::Key_Home);
    EXPECT_EQ(panel.step(), 1);
}

TEST(Walkthrough, PresenterViewOpensLargeAndClosesWithEscape)
{
    MainWindow window;
    window.show();
    auto* walkthrough = window.findChild<WalkthroughActions*>();
    auto* actions = window.findChild<PresenterActions*>();
    ASSERT_NE(walkthrough, nullptr);
    ASSERT_NE(actions, nullptr);
    WalkthroughPanel* tab = walkthrough->tabPanel();
    ASSERT_NE(tab, nullptr);
    EXPECT_GE(window.centralTabs()->indexOf(tab), 0);
    EXPECT_EQ(actions->presenterAction()->shortcut(), QKeySequence(Qt::Key_F5));
    window.centralTabs()->setCurrentWidget(tab);
    tab->setStep(3);

    actions->presenterAction()->trigger();
    PresenterWindow* presenter = actions->presenterWindow();
    ASSERT_NE(presenter, nullptr);
    EXPECT_TRUE(presenter->isVisible());
    EXPECT_TRUE(presenter->windowState() & Qt::WindowFullScreen);
    auto* big = qobject_cast<WalkthroughPanel*>(presenter->content());
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(big->step(), 3);
    EXPECT_GE(big->captionFont().pointSizeF(), 1.9 * tab->captionFont().pointSizeF());
    const HeatmapView* view = big->stageView(Stage::Q);
    // The maps' text is larger too (the labels of each fit their room from there).
    EXPECT_GE(view->font().pointSizeF(), 1.5 * tab->stageView(Stage::Q)->font().pointSizeF());

    // Stepping in the presenter moves the tab along.
    QTest::keyClick(big, Qt::Key_PageDown);
    EXPECT_EQ(big->step(), 4);
    EXPECT_EQ(tab->step(), 4);

    QTest::keyClick(big, Qt::Key_Escape);  // the panel passes it up to the window
    EXPECT_FALSE(presenter->isVisible());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(actions->presenterWindow(), nullptr);
}

// The coreference lesson at 1920×1080: step 4's P (11 × 11) takes the space, with every
// token labelled on both axes and every weight printed in its cell (cells of 28 px or more).
TEST(Walkthrough, CurrentStepGetsTheRoomWithEveryLabelAndValueOfTheCoreferenceMap)
{
    MainWindow window;
    window.resize(1920, 1080);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* lessons = window.findChild<LessonActions*>();
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("coreference-tired")));
    auto* walkthrough = window.findChild<WalkthroughActions*>();
    WalkthroughPanel* tab = walkthrough->tabPanel();
    window.centralTabs()->setCurrentWidget(tab);
    tab->setStep(4);
    HeatmapView* p = tab->stageView(Stage::Weights);
    HeatmapView* x = tab->stageView(Stage::X);
    // The layout settles over a few event-loop turns after the tab and the step change.
    // (QTest's QTRY_ macros report to QTest, not to GoogleTest: wait with qWaitFor.)
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return p->width() * p->height() > 4 * x->width() * x->height(); }, 5000))
        << "P " << p->width() << "×" << p->height() << ", X " << x->width() << "×" << x->height();
    p->replot();
    ASSERT_EQ(p->content().values.rows(), 11);
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR")) {
        EXPECT_TRUE(window.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                                       QStringLiteral("/walkthrough-coreference.png")));
    }

    const double cellW = p->axisRect()->width() / 11.0;
    const double cellH = p->axisRect()->height() / 11.0;
    EXPECT_GE(std::min(cellW, cellH), 28.0);
    auto labels = [](const QCPAxis* axis) {
        auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
        return text ? static_cast<int>(text->ticks().size()) : -1;
    };
    EXPECT_EQ(labels(p->xAxis), 11);
    EXPECT_EQ(labels(p->yAxis), 11);
    int printed = 0;
    for (int i = 0; i < p->itemCount(); ++i)
        printed += qobject_cast<QCPItemText*>(p->item(i)) ? 1 : 0;
    EXPECT_GE(printed, 121);
    // The step survives a language switch (the panels are rebuilt): it is the document's.
    EXPECT_EQ(window.document()->view().walkthroughStep, 4);
}

// Each step's placeholder names its step once: the mask belongs to step 4, whose label P has.
TEST(Walkthrough, PlaceholdersNameEachStepOnce)
{
    Document doc;
    WalkthroughPanel panel(&doc);
    panel.setStep(1);
    QMap<QString, int> stepLabels;
    for (QLabel* l : panel.findChildren<QLabel*>()) {
        const QString text = l->text();
        if (text.startsWith(QLatin1String("Step ")) && text.contains(QLatin1Char(':')))
            ++stepLabels[text.section(QLatin1Char(':'), 0, 0)];
    }
    for (int s = 2; s <= WalkthroughPanel::StepCount; ++s)
        EXPECT_EQ(stepLabels.value(QStringLiteral("Step %1").arg(s)), 1) << s;
}

// In the window at 1366×768 and 1920×1080, and back on step 1 after step 3: the thumbnails of
// the other row stay maps with whole titles, and the values are printed the same way each visit.
TEST(Walkthrough, ThumbnailsStayLegibleAndValuesArePrintedTheSameOnEveryVisit)
{
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        SCOPED_TRACE(size.width());
        MainWindow window;
        window.resize(size);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        auto* lessons = window.findChild<LessonActions*>();
        ASSERT_TRUE(lessons->openLesson(QStringLiteral("coreference-tired")));
        window.document()->flush();
        auto* walkthrough = window.findChild<WalkthroughActions*>();
        WalkthroughPanel* tab = walkthrough->tabPanel();
        window.centralTabs()->setCurrentWidget(tab);
        const auto settle = [] {
            for (int i = 0; i < 4; ++i) QCoreApplication::processEvents();
        };
        const std::array<Stage, 4> top{Stage::X, Stage::Q, Stage::K, Stage::V};
        const auto printed = [&] {
            std::vector<int> out;
            for (Stage s : top) {
                tab->stageView(s)->replot();
                out.push_back(tab->stageView(s)->valueTextCount());
            }
            return out;
        };
        tab->setStep(1);
        settle();
        const std::vector<int> first = printed();
        for (int step = 2; step <= WalkthroughPanel::StepCount; ++step) {
            tab->setStep(step);
            settle();
            const bool folded = !tab->stageView(Stage::X)->isVisible();
            for (Stage s : top) {
                HeatmapView* v = tab->stageView(s);
                if (folded) continue;  // then a note says where they went
                EXPECT_GE(v->height(), 60) << "step " << step;
                EXPECT_TRUE(v->titleFits()) << v->shownTitle().toStdString();
            }
        }
        tab->setStep(1);
        settle();
        EXPECT_EQ(printed(), first);
        // Q and K print their values, and so do X and V of the same size.
        for (std::size_t i = 0; i < top.size(); ++i) {
            const HeatmapContent& c = tab->stageView(top[i])->content();
            if (c.rows() * c.cols() <= 144) {
                EXPECT_EQ(first[i], c.rows() * c.cols()) << i;
            }
        }
    }
}

// Every lesson's layout leaves the walkthrough its own height (the hand exercise puts Keys and
// Show working under it): at each step the thumbnails of the other row are maps at least 60 px
// high with whole titles, or fold away behind a note. (At 1366×768 step 4's were 5-px strips
// whose titles were cut to "O = X·W O".)
class WalkthroughLayout : public ::testing::TestWithParam<testing::Screen> {};

TEST_P(WalkthroughLayout, EveryLessonsThumbnailsAreMapsWithWholeTitlesOrFoldAway)
{
    const testing::Screen screen = GetParam();
    testing::useScreen(screen);
    MainWindow window;
    ASSERT_TRUE(testing::showOnScreen(window, screen));
    auto* lessons = window.findChild<LessonActions*>();
    WalkthroughPanel* tab = window.findChild<WalkthroughActions*>()->tabPanel();
    for (const Lesson& lesson : attnlab::lessons()) {
        SCOPED_TRACE(lesson.id.toStdString());
        ASSERT_TRUE(lessons->openLesson(lesson.id));
        window.document()->flush();
        window.centralTabs()->setCurrentWidget(tab);
        for (int step = 1; step <= WalkthroughPanel::StepCount; ++step) {
            tab->setStep(step);
            for (int i = 0; i < 4; ++i) QCoreApplication::processEvents();
            for (int s = 0; s < kHeadStageCount; ++s) {
                HeatmapView* v = tab->stageView(static_cast<Stage>(s));
                if (!v->isVisible()) continue;  // folded, or a step still to come
                // The map itself, not the plot around it: at least 6 px a row.
                const int rows = static_cast<int>(v->content().rows());
                EXPECT_GE(v->axisRect()->height(), std::min(36, 6 * rows))
                    << "step " << step << ": " << v->shownTitle().toStdString() << " in "
                    << v->height() << " px";
                // The card shows the whole view: not cut by a row too low for it.
                EXPECT_EQ(v->visibleRegion().boundingRect().height(), v->height())
                    << "step " << step << ": " << v->shownTitle().toStdString();
                EXPECT_TRUE(v->titleFits())
                    << "step " << step << ": " << v->shownTitle().toStdString();
            }
        }
    }
    setLanguage(QStringLiteral("en"));
}

INSTANTIATE_TEST_SUITE_P(Screens, WalkthroughLayout, testing::classroomScreens(),
                         testing::screenName);

}  // namespace
}  // namespace attnlab
