// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/presenter_actions.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>

#include "ui/panels/heads_grid_panel.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/long_panel.h"
#include "ui/panels/pipeline_panel.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/presenter/presenter_window.h"
#include "ui/train/trainer_display.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/main_window.h"

namespace attnlab {

namespace {

// Values are printed in every cell of maps up to 12 x 12 in the presenter view.
constexpr int kPresenterValueCells = 144;

QString walkthroughPage(int step)
{
    return QStringLiteral("walkthrough/%1").arg(step);
}

}  // namespace

PresenterActions::PresenterActions(MainWindow* window, Document* doc, MarkStore* marks)
    : QObject(window), main_(window), doc_(doc), marks_(marks)
{
    auto* menu = window->menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    if (!menu) menu = window->menuBar()->addMenu(tr("&View"));
    presenter_ = menu->addAction(tr("P&resenter view"), this, &PresenterActions::showPresenter);
    presenter_->setObjectName(QStringLiteral("presenterAction"));
    presenter_->setShortcut(QKeySequence(Qt::Key_F5));
    presenter_->setToolTip(
        tr("The current view full screen with large text, for the lecture hall, with a pen, a "
           "highlighter, rings and a pointer. Esc leaves."));
    QTabWidget* tabs = window->centralTabs();
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        if (auto* w = qobject_cast<WalkthroughPanel*>(tabs->widget(i)))
            connect(w, &WalkthroughPanel::presenterRequested, this,
                    [this] { present(QStringLiteral("walkthrough")); });
    }
}

PresenterActions::~PresenterActions()
{
    if (window_) window_->close();
}

PresenterWindow* PresenterActions::presenterWindow() const
{
    return window_.data();
}

QStringList PresenterActions::viewNames()
{
    return {QStringLiteral("weights"), QStringLiteral("difference"),  QStringLiteral("pipeline"),
            QStringLiteral("heads"),   QStringLiteral("walkthrough"), QStringLiteral("trainer"),
            QStringLiteral("long")};
}

QString PresenterActions::currentView() const
{
    // The trainer when it has the keyboard: a click on its map or its buttons.
    auto* trainer = main_->findChild<QDockWidget*>(QStringLiteral("TrainerDock"));
    const QWidget* focus = QApplication::focusWidget();
    if (trainer && trainer->isVisible() && focus && trainer->isAncestorOf(focus))
        return QStringLiteral("trainer");
    const QWidget* tab = main_->centralTabs() ? main_->centralTabs()->currentWidget() : nullptr;
    const QString name = tab ? tab->objectName() : QString();
    return name.endsWith(QLatin1String("Tab")) ? name.chopped(3) : QStringLiteral("weights");
}

QString PresenterActions::currentPage() const
{
    const QString view = currentView();
    if (view != QLatin1String("walkthrough")) return view;
    auto* tab = qobject_cast<WalkthroughPanel*>(main_->centralTabs()->currentWidget());
    return walkthroughPage(tab ? tab->step() : 1);
}

bool PresenterActions::currentViewHasMarks() const
{
    return !marks_->isEmpty(currentPage());
}

bool PresenterActions::exportMarkedView(const QString& path, QString& error)
{
    const bool wasOpen = window_;
    if (!wasOpen) {
        if (!present(currentView())) return false;
        // Laid out at the screen's size, never shown.
        window_->hide();
        window_->setAttribute(Qt::WA_DontShowOnScreen);
        window_->setGeometry(main_->screen() ? main_->screen()->geometry()
                                             : QRect(0, 0, 1920, 1080));
        window_->show();
        QCoreApplication::processEvents();
    }
    const bool ok = window_->exportPicture(path, error);
    if (!wasOpen) window_->close();
    return ok;
}

QWidget* PresenterActions::makeContent(const QString& view)
{
    if (view == QLatin1String("weights"))
        return new WeightsPanel(doc_, WeightsPanel::Kind::Weights);
    if (view == QLatin1String("difference"))
        return new WeightsPanel(doc_, WeightsPanel::Kind::Difference);
    if (view == QLatin1String("pipeline")) return new PipelinePanel(doc_);
    if (view == QLatin1String("heads")) return new HeadsGridPanel(doc_);
    if (view == QLatin1String("long") && main_->longMapPanel()) {
        // A second view of the same weights (shared, not copied); its controls stay in the tab.
        auto* panel = new LongMapPanel(main_->longDocument());
        panel->panel()->hide();
        return panel;
    }
    return nullptr;
}

void PresenterActions::showPresenter()
{
    if (window_) {
        window_->raise();
        window_->activateWindow();
        return;
    }
    present(currentView());
}

bool PresenterActions::present(const QString& view)
{
    if (window_) window_->close();
    if (view == QLatin1String("trainer")) return presentTrainer();
    if (view == QLatin1String("walkthrough")) {
        auto* panel = new WalkthroughPanel(doc_);
        panel->setPresenterButtonVisible(false);
        panel->setFontScale(PresenterWindow::FontScale);
        auto* window = new PresenterWindow(panel, marks_, walkthroughPage(panel->step()), main_);
        window->setObjectName(QStringLiteral("PresenterWindow"));
        // The tab follows the presenter's steps and the marks follow the step.
        QTabWidget* tabs = main_->centralTabs();
        for (int i = 0; tabs && i < tabs->count(); ++i) {
            if (auto* tab = qobject_cast<WalkthroughPanel*>(tabs->widget(i))) {
                panel->setStep(tab->step());
                connect(panel, &WalkthroughPanel::stepChanged, tab, &WalkthroughPanel::setStep);
                connect(tab, &WalkthroughPanel::stepChanged, panel, &WalkthroughPanel::setStep);
            }
        }
        window->setPage(walkthroughPage(panel->step()));
        connect(panel, &WalkthroughPanel::stepChanged, window,
                [window](int step) { window->setPage(walkthroughPage(step)); });
        open(window);
        return true;
    }
    QWidget* content = makeContent(view);
    if (!content) return false;
    // Nine maps on one screen (the pipeline, many heads) cannot all have the large text.
    const auto maps = content->findChildren<HeatmapView*>().size();
    PresenterWindow::scaleFonts(
        content, maps > 4 ? PresenterWindow::ManyMapsFontScale : PresenterWindow::MapFontScale);
    // The screen is the room: nothing scrolls, frames and the panel's caption (the teacher is
    // the caption) give their pixels to the maps, and nine maps drop their axis titles.
    for (HeatmapView* map : content->findChildren<HeatmapView*>()) {
        map->setValueTextLimit(kPresenterValueCells);
        map->setMinimumSize(120, 100);
        if (maps > 6) map->setAxisTitlesShown(false);
    }
    for (QScrollArea* scroll : content->findChildren<QScrollArea*>())
        scroll->setFrameShape(QFrame::NoFrame);
    if (auto* caption = content->findChild<QWidget*>(QStringLiteral("panelCaption")))
        caption->hide();
    open(new PresenterWindow(content, marks_, view, main_));
    return true;
}

bool PresenterActions::presentTrainer()
{
    auto* panel = main_->findChild<TrainerPanel*>();
    TrainerDisplay* display = panel ? panel->display() : nullptr;
    auto giveBack = PresenterWindow::placeOf(display, PresenterWindow::MapFontScale);
    if (!giveBack) return false;
    // Lent, not copied: the run keeps feeding the same live map and curve. In the dock its maps
    // print no values (they animate in a small space); presented, small maps do.
    PresenterWindow::scaleFonts(display, PresenterWindow::MapFontScale);
    QList<QPair<QPointer<HeatmapView>, int>> limits;
    for (HeatmapView* map : display->findChildren<HeatmapView*>()) {
        limits.append({map, map->valueTextLimit()});
        map->setValueTextLimit(kPresenterValueCells);
    }
    auto* window = new PresenterWindow(display, marks_, QStringLiteral("trainer"), main_);
    window->setGiveBack([giveBack = std::move(giveBack), limits](QWidget* w) {
        for (const auto& [map, limit] : limits)
            if (map) map->setValueTextLimit(limit);
        giveBack(w);
    });
    open(window);
    return true;
}

void PresenterActions::open(PresenterWindow* window)
{
    window_ = window;
    window->showOn(main_->screen());
}

}  // namespace attnlab
