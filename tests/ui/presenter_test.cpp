// SPDX-License-Identifier: GPL-3.0-or-later
// The presenter view (F5) of every view, as a teacher projects it: every lesson, every view the
// workbench can present and every walkthrough step, at 1366×768 and 1920×1080, in English and
// in Chinese. Up to 16 tokens every token is labelled on both axes, up to 12 every cell prints
// its value, and no title is cut. And the marks drawn while talking.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include "support/classroom_screens.h"
#include "support/layout_check.h"
#include "support/model_folder.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_presenter.h"
#include "ui/model/model_window.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/presenter/mark_layer.h"
#include "ui/presenter/presenter_window.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/train/trainer_display.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_actions.h"

namespace attnlab {
namespace {

using testing::Screen;

int tickCount(const QCPAxis* axis)
{
    auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    return text ? static_cast<int>(text->ticks().size()) : -1;
}

// What a person at the back of the room could not read in `window`'s maps.
QStringList unreadableMaps(PresenterWindow* window, const QString& where)
{
    QStringList defects;
    for (HeatmapView* v : window->findChildren<HeatmapView*>()) {
        if (!v->isVisible()) continue;
        v->replot();
        const QString name =
            where + QStringLiteral(" «") + v->content().title + QStringLiteral("»");
        if (!v->titleFits()) defects << name + QStringLiteral(": title cut: ") + v->shownTitle();
        // A map squeezed to a strip is a line, not a thumbnail.
        if (v->height() < 60 || v->width() < 60)
            defects
                << name +
                       QStringLiteral(": squeezed to %1 × %2 px").arg(v->width()).arg(v->height());
        // Thumbnails of earlier walkthrough steps show no labels by design; their titles count.
        if (!v->labelsShown()) continue;
        const long rows = v->content().rows();
        const long cols = v->content().cols();
        if (rows <= kEveryLabelLimit && tickCount(v->yAxis) != rows)
            defects
                << name +
                       QStringLiteral(": %1 of %2 row labels").arg(tickCount(v->yAxis)).arg(rows);
        if (cols <= kEveryLabelLimit && tickCount(v->xAxis) != cols)
            defects << name + QStringLiteral(": %1 of %2 column labels")
                                  .arg(tickCount(v->xAxis))
                                  .arg(cols);
        if (rows > 0 && cols > 0 && rows <= 12 && cols <= 12 && v->valueTextCount() != rows * cols)
            defects << name + QStringLiteral(": %1 of %2 values printed (cells %3 × %4 px)")
                                  .arg(v->valueTextCount())
                                  .arg(rows * cols)
                                  .arg(v->axisRect()->width() / double(cols), 0, 'f', 1)
                                  .arg(v->axisRect()->height() / double(rows), 0, 'f', 1);
    }
    return defects;
}

// Maps whose text the presenter did not enlarge: drawn in a smaller font than the presented
// view's (the All heads grid kept the window's ~10 px while its combined map grew).
QStringList smallerThanPresented(PresenterWindow* window, const QString& where)
{
    QStringList defects;
    const int presented = QFontInfo(window->content()->font()).pixelSize();
    for (HeatmapView* v : window->findChildren<HeatmapView*>()) {
        // What is drawn: the title's font follows the map's when the map is told of it.
        const auto* title = qobject_cast<QCPTextElement*>(v->plotLayout()->element(0, 0));
        const int own = std::min(QFontInfo(v->font()).pixelSize(),
                                 title ? QFontInfo(title->font()).pixelSize() : 1000);
        if (v->isVisible() && own < presented)
            defects << where + QStringLiteral(" «%1»: text %2 px, the presenter's %3 px")
                                   .arg(v->content().title)
                                   .arg(own)
                                   .arg(presented);
    }
    return defects;
}

PresenterWindow* presentAt(PresenterActions* actions, const QString& view, const Screen& s)
{
    if (!actions->present(view)) return nullptr;
    PresenterWindow* w = actions->presenterWindow();
    QCoreApplication::processEvents();  // showOn's cover-the-screen timer runs first
    // The offscreen platform's screen is not the projector's: size the window as one.
    w->showNormal();
    w->setGeometry(0, 0, s.width, s.height);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    return w;
}

class PresenterViews : public ::testing::TestWithParam<Screen> {};

TEST_P(PresenterViews, EveryLessonAndViewLabelsEveryTokenPrintsEveryValueAndCutsNoTitle)
{
    const Screen screen = GetParam();
    testing::useScreen(screen);
    MainWindow window;
    ASSERT_TRUE(testing::showOnScreen(window, screen));
    auto* lessons = window.findChild<LessonActions*>();
    auto* actions = window.findChild<PresenterActions*>();
    ASSERT_NE(lessons, nullptr);
    ASSERT_NE(actions, nullptr);
    QStringList defects;
    for (const Lesson& lesson : attnlab::lessons()) {
        ASSERT_TRUE(lessons->openLesson(lesson.id));
        window.document()->flush();
        QCoreApplication::processEvents();
        for (const QString& view : PresenterActions::viewNames()) {
            // Their own tests: the trainer below, the long map in long_session_test.
            if (view == QLatin1String("trainer") || view == QLatin1String("long")) continue;
            PresenterWindow* shown = presentAt(actions, view, screen);
            ASSERT_NE(shown, nullptr) << view.toStdString();
            const QString where = lesson.id + QLatin1Char('/') + view;
            if (auto* walk = qobject_cast<WalkthroughPanel*>(shown->content())) {
                for (int step = 1; step <= WalkthroughPanel::StepCount; ++step) {
                    walk->setStep(step);
                    QCoreApplication::processEvents();
                    QCoreApplication::processEvents();
                    defects << unreadableMaps(shown, where + QStringLiteral("/step %1").arg(step));
                }
            } else {
                // A click restyles the current head's frame; the maps keep the presenter's font.
                window.document()->select(0, 0);
                QCoreApplication::processEvents();
                defects << unreadableMaps(shown, where);
                defects << smallerThanPresented(shown, where);
            }
            defects << testing::clippedTexts(shown);
            shown->close();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        }
    }
    EXPECT_TRUE(defects.isEmpty()) << defects.size() << " defects:\n"
                                   << defects.join(QLatin1Char('\n')).toStdString();
    setLanguage(QStringLiteral("en"));
}

INSTANTIATE_TEST_SUITE_P(Screens, PresenterViews, testing::classroomScreens(), testing::screenName);

// F5 presents the tab on show; the trainer's display is lent and comes back when Esc closes.
TEST(Presenter, F5PresentsTheCurrentTabAndTheTrainerIsLentAndGivenBack)
{
    testing::isolateSettings();
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* actions = window.findChild<PresenterActions*>();
    ASSERT_NE(actions, nullptr);
    const QStringList names = PresenterActions::viewNames();
    QTabWidget* tabs = window.centralTabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        EXPECT_TRUE(names.contains(actions->currentView())) << actions->currentView().toStdString();
    }
    tabs->setCurrentIndex(2);
    EXPECT_EQ(actions->currentView(), QStringLiteral("pipeline"));

    auto* trainer = window.findChild<TrainerPanel*>();
    ASSERT_NE(trainer, nullptr);
    TrainerDisplay* display = trainer->display();
    QWidget* home = display->parentWidget();
    const double before = display->font().pointSizeF();
    ASSERT_TRUE(actions->present(QStringLiteral("trainer")));
    PresenterWindow* shown = actions->presenterWindow();
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(shown->content(), display);
    EXPECT_GT(display->font().pointSizeF(), 1.5 * before);
    QCoreApplication::processEvents();
    shown->showNormal();
    shown->setGeometry(0, 0, 1366, 768);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    // Its six tokens labelled and every value of its maps printed, as in every presented view.
    const QStringList defects = unreadableMaps(shown, QStringLiteral("trainer"));
    EXPECT_TRUE(defects.isEmpty()) << defects.join(QLatin1Char('\n')).toStdString();
    QTest::keyClick(shown, Qt::Key_Escape);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(actions->presenterWindow(), nullptr);
    EXPECT_EQ(display->parentWidget(), home);
    EXPECT_NEAR(display->font().pointSizeF(), before, 0.01);
    EXPECT_EQ(display->liveView()->valueTextLimit(), 0);  // the dock's small maps print none
}

// A pen stroke dragged across `layer`: a press, five moves and a release.
void drawStroke(MarkLayer* layer)
{
    const QPoint a(layer->width() / 4, layer->height() / 2);
    QTest::mousePress(layer, Qt::LeftButton, {}, a);
    for (int k = 1; k <= 5; ++k) {
        QMouseEvent move(QEvent::MouseMove, a + QPoint(20 * k, 5 * k),
                         layer->mapToGlobal(a + QPoint(20 * k, 5 * k)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(layer, &move);
    }
    QTest::mouseRelease(layer, Qt::LeftButton, {}, a + QPoint(100, 25));
}

// The centre of cell (`row`, `column`) of map `view` in `shown`, in its mark layer's pixels.
QPoint cellOnLayer(PresenterWindow* shown, HeatmapView* view, int row, int column)
{
    view->replot();
    const QPoint cell(static_cast<int>(view->xAxis->coordToPixel(column)),
                      static_cast<int>(view->yAxis->coordToPixel(row)));
    return shown->markLayer()->mapFrom(shown, view->mapTo(shown, cell));
}

// The presented picture exports to PNG, SVG and PDF files that are not empty, through the
// atomic writer like every export: a FIFO nobody reads is refused at once (not waited on) and
// stays a FIFO.
void expectPictureExports(PresenterWindow* shown)
{
    QTemporaryDir dir;
    QString error;
    for (const char* name : {"marked.png", "marked.svg", "marked.pdf"}) {
        const QString path = dir.filePath(QLatin1String(name));
        EXPECT_TRUE(shown->exportPicture(path, error)) << error.toStdString();
        EXPECT_GT(QFileInfo(path).size(), 1000) << name;
    }
    const QString fifo = dir.filePath(QStringLiteral("fifo.png"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    EXPECT_FALSE(shown->exportPicture(fifo, error));
    EXPECT_TRUE(error.contains(fifo)) << error.toStdString();
    struct stat st {};
    EXPECT_TRUE(::lstat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
}

// The presenter enlarges the trainer's plots' numbers; at hundreds of steps they stayed five to
// an axis and ran into one another. Each axis's labels keep at least a few pixels apart.
TEST(Presenter, TheTrainersAxisNumbersStayApartAtHundredsOfSteps)
{
    testing::isolateSettings();
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    auto* actions = window.findChild<PresenterActions*>();
    ASSERT_NE(actions, nullptr);
    PresenterWindow* shown = presentAt(actions, QStringLiteral("trainer"), {1366, 768, "en"});
    ASSERT_NE(shown, nullptr);
    int plots = 0;
    for (QCustomPlot* plot : shown->findChildren<QCustomPlot*>()) {
        // Numbers only: a ticker of words (a row's tokens) places its own labels.
        if (qobject_cast<HeatmapView*>(plot) || !plot->isVisible() ||
            plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>())
            continue;
        ++plots;
        for (const double steps : {150.0, 400.0, 1000.0, 3000.0}) {
            plot->xAxis->setRange(0.0, steps);
            plot->replot();
            const QVector<double> ticks = plot->xAxis->tickVector();
            const QVector<QString> labels = plot->xAxis->tickVectorLabels();
            const QFontMetricsF metrics(plot->xAxis->tickLabelFont());
            double right = -1e9;
            for (int i = 0; i < ticks.size(); ++i) {
                if (!plot->xAxis->range().contains(ticks[i])) continue;
                const double x = plot->xAxis->coordToPixel(ticks[i]);
                const double half = metrics.horizontalAdvance(labels[i]) / 2.0;
                EXPECT_GE(x - half - right, 4.0)
                    << plot->objectName().toStdString() << " at " << steps << " steps: \""
                    << labels[i].toStdString() << "\" touches the label before it";
                right = x + half;
            }
        }
    }
    EXPECT_GE(plots, 1) << "the trainer's loss plot is presented";
    shown->close();
}

// The "pinned" badge above the weights map speaks of the window, not of the picture: the
// presenter shows it, its exported pictures leave its place blank (the map stays where it was).
TEST(Presenter, AnExportedPictureLeavesOutThePinnedBadge)
{
    testing::isolateSettings();
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.document()->pinWeights();
    QCoreApplication::processEvents();
    auto* actions = window.findChild<PresenterActions*>();
    ASSERT_NE(actions, nullptr);
    PresenterWindow* shown = presentAt(actions, QStringLiteral("weights"), {1366, 768, "en"});
    ASSERT_NE(shown, nullptr);
    QLabel* badge = shown->findChild<QLabel*>(QStringLiteral("PinBadge"));
    ASSERT_NE(badge, nullptr);
    ASSERT_TRUE(badge->isVisible()) << "the presenter shows that the weights are pinned";
    const QColor badgeColour(0xff, 0xf3, 0xc4);
    const auto badgePixels = [&](const QImage& image) {
        int count = 0;
        const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
        for (int y = 0; y < rgb.height(); ++y)
            for (int x = 0; x < rgb.width(); ++x)
                count += QColor(rgb.pixel(x, y)) == badgeColour ? 1 : 0;
        return count;
    };
    EXPECT_GT(badgePixels(shown->grab().toImage()), 100) << "on screen it is there";
    EXPECT_EQ(badgePixels(shown->picture()), 0);
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("pinned.png"));
    ASSERT_TRUE(shown->exportPicture(path, error)) << error.toStdString();
    EXPECT_EQ(badgePixels(QImage(path)), 0);
    shown->close();
}

// The walkthrough tab, shown in `window` on the page `page` that holds marks, exports as
// presented (with its marks) to a picture that is not empty.
void expectMarkedTabExports(MainWindow& window, PresenterActions& actions, const QString& page)
{
    window.centralTabs()->setCurrentWidget(
        window.findChild<QWidget*>(QStringLiteral("walkthroughTab")));
    EXPECT_EQ(actions.currentPage(), page);
    EXPECT_TRUE(actions.currentViewHasMarks());
    QTemporaryDir out;
    QString error;
    const QString marked = out.filePath(QStringLiteral("marked-from-menu.png"));
    EXPECT_TRUE(actions.exportMarkedView(marked, error)) << error.toStdString();
    EXPECT_FALSE(QImage(marked).isNull());
}

// Marks: a pen stroke by dragging, a ring by clicking a cell, C clears; marks stay with the
// walkthrough step they were drawn on and come back when the presenter view opens again.
// A ring stays in its cell: one on the top row never reaches the title above the map.
void expectRingInsideItsCell(PresenterWindow* shown, HeatmapView* view, int map)
{
    MarkLayer* layer = shown->markLayer();
    const QRectF top = layer->ringRect(map, 0, 1);
    const QPoint mapTop = layer->mapFrom(shown, view->mapTo(shown, view->axisRect()->topLeft()));
    const double cellHeight = view->axisRect()->height() / double(view->content().rows());
    EXPECT_GE(top.top(), mapTop.y() - 1) << "the ring reaches above the map";
    EXPECT_LE(top.height(), cellHeight + 1);
}

TEST(Presenter, MarksStayWithTheirStepAndClearWithC)
{
    testing::isolateSettings();
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* lessons = window.findChild<LessonActions*>();
    ASSERT_TRUE(lessons->openLesson(QStringLiteral("coreference-tired")));
    window.document()->flush();
    auto* actions = window.findChild<PresenterActions*>();
    const Screen screen{1366, 768, "en"};
    PresenterWindow* shown = presentAt(actions, QStringLiteral("walkthrough"), screen);
    ASSERT_NE(shown, nullptr);
    auto* walk = qobject_cast<WalkthroughPanel*>(shown->content());
    ASSERT_NE(walk, nullptr);
    walk->setStep(4);
    QCoreApplication::processEvents();
    MarkLayer* layer = shown->markLayer();
    EXPECT_EQ(layer->page(), QStringLiteral("walkthrough/4"));
    EXPECT_TRUE(layer->testAttribute(Qt::WA_TransparentForMouseEvents));  // no tool yet

    QTest::keyClick(shown, Qt::Key_P);
    EXPECT_EQ(shown->tool(), MarkTool::Pen);
    EXPECT_FALSE(layer->testAttribute(Qt::WA_TransparentForMouseEvents));
    drawStroke(layer);
    MarkStore* store = window.marks();
    ASSERT_EQ(store->marks(QStringLiteral("walkthrough/4")).size(), 1);
    EXPECT_GE(store->marks(QStringLiteral("walkthrough/4")).first().points.size(), 6);

    // Ring the cell of P at row 3 (它), column 1 (动物).
    QTest::keyClick(shown, Qt::Key_R);
    const QPoint cell = cellOnLayer(shown, walk->stageView(Stage::Weights), 3, 1);
    QTest::mouseClick(layer, Qt::LeftButton, {}, cell);
    const QList<Mark> marks = store->marks(QStringLiteral("walkthrough/4"));
    ASSERT_EQ(marks.size(), 2);
    EXPECT_EQ(marks[1].tool, MarkTool::Ring);
    EXPECT_EQ(marks[1].row, 3);
    EXPECT_EQ(marks[1].column, 1);
    const QRectF ring = layer->ringRect(marks[1].map, 3, 1);
    EXPECT_TRUE(ring.contains(cell));
    expectRingInsideItsCell(shown, walk->stageView(Stage::Weights), marks[1].map);

    // The picture carries the marks: it differs from the same view without them.
    const QImage withMarks = shown->picture();

    // Another step has its own (empty) page; the marks come back with step 4.
    walk->setStep(2);
    EXPECT_EQ(layer->page(), QStringLiteral("walkthrough/2"));
    EXPECT_TRUE(store->isEmpty(QStringLiteral("walkthrough/2")));
    walk->setStep(4);
    EXPECT_EQ(layer->page(), QStringLiteral("walkthrough/4"));

    // Closing and opening the presenter view again keeps them.
    shown->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    // Export ▸ Figure of the walkthrough tab on step 4 offers the marks: the view as presented.
    expectMarkedTabExports(window, *actions, QStringLiteral("walkthrough/4"));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(actions->presenterWindow(), nullptr);  // drawn without staying open
    shown = presentAt(actions, QStringLiteral("walkthrough"), screen);
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(shown->page(), QStringLiteral("walkthrough/4"));
    EXPECT_EQ(store->marks(QStringLiteral("walkthrough/4")).size(), 2);

    QTest::keyClick(shown, Qt::Key_C);
    EXPECT_TRUE(store->isEmpty(QStringLiteral("walkthrough/4")));
    const QImage without = shown->picture();
    EXPECT_EQ(withMarks.size(), without.size());
    EXPECT_NE(withMarks, without);

    // Export with marks: PNG, SVG and PDF files that are not empty; a FIFO refused.
    expectPictureExports(shown);
    shown->close();
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// The model window's figures in the presenter view: the enlarged head, the model view and the
// head view of the tiny GPT-2, at 1366×768 in both languages.
TEST(Presenter, ModelWindowFiguresArePresentedReadably)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    for (const char* language : {"en", "zh_CN"}) {
        SCOPED_TRACE(language);
        setLanguage(QString::fromLatin1(language));
        QCoreApplication::sendPostedEvents();
        ModelWindow window;
        window.setDialogs({[](const QString&) { return QString(); },
                           [](const QString&) { return QString(); },
                           [](const QString&, const QString&) {}});
        window.resize(1366, 768);
        window.show();
        ASSERT_TRUE(window.openFolder(folder));
        window.setText(QStringLiteral("the cat sat on the mat."));
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return window.document()->snapshot() != nullptr; }, 20000));
        ModelPresenter* presenter = window.presenter();
        ASSERT_NE(presenter, nullptr);
        EXPECT_EQ(presenter->currentView(), QStringLiteral("focus"));
        QStringList defects;
        for (const QString& view : ModelPresenter::viewNames()) {
            ASSERT_TRUE(presenter->present(view));
            PresenterWindow* shown = presenter->presenterWindow();
            ASSERT_NE(shown, nullptr);
            QCoreApplication::processEvents();
            shown->showNormal();
            shown->setGeometry(0, 0, 1366, 768);
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
            EXPECT_EQ(shown->page(), QStringLiteral("model/") + view);
            defects << unreadableMaps(shown, view) << testing::clippedTexts(shown);
            shown->close();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        }
        EXPECT_TRUE(defects.isEmpty()) << defects.join(QLatin1Char('\n')).toStdString();
        // F5 presents the figure last clicked.
        QTest::mouseClick(window.grid(), Qt::LeftButton, {},
                          window.grid()->cellRect(1, 2).center());
        EXPECT_EQ(presenter->currentView(), QStringLiteral("grid"));
    }
    setLanguage(QStringLiteral("en"));
}

}  // namespace
}  // namespace attnlab
