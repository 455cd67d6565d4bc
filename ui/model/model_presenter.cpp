// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_presenter.h"

#include <QAction>
#include <QEvent>
#include <QMenu>

#include "ui/model/head_view_panel.h"
#include "ui/model/model_focus_panel.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_window.h"
#include "ui/presenter/mark_store.h"
#include "ui/presenter/presenter_window.h"

namespace attnlab {

ModelPresenter::ModelPresenter(ModelWindow* window)
    : QObject(window), window_owner_(window), marks_(new MarkStore(this))
{
}

ModelPresenter::~ModelPresenter()
{
    if (window_) window_->close();
}

PresenterWindow* ModelPresenter::presenterWindow() const
{
    return window_.data();
}

QStringList ModelPresenter::viewNames()
{
    return {QStringLiteral("focus"), QStringLiteral("grid"), QStringLiteral("head-view")};
}

void ModelPresenter::addActions(QMenu* view)
{
    view->addSeparator();
    QAction* present =
        view->addAction(tr("P&resenter view"), this, [this] { this->present(current_); });
    present->setObjectName(QStringLiteral("presenterAction"));
    present->setShortcut(QKeySequence(Qt::Key_F5));
    present->setToolTip(
        tr("The figure last clicked full screen with large text, with a pen, a "
           "highlighter, rings and a pointer. Esc leaves."));
    QMenu* which = view->addMenu(tr("Present"));
    which->addAction(tr("The &enlarged head"), this,
                     [this] { this->present(QStringLiteral("focus")); });
    which->addAction(tr("The &model view"), this,
                     [this] { this->present(QStringLiteral("grid")); });
    which->addAction(tr("The &head view"), this,
                     [this] { this->present(QStringLiteral("head-view")); });
    watchFigures();
}

void ModelPresenter::watchFigures()
{
    // The figure clicked or hovered last is the one F5 presents.
    for (QWidget* w : {static_cast<QWidget*>(window_owner_->focusPanel()),
                       static_cast<QWidget*>(window_owner_->grid()),
                       static_cast<QWidget*>(window_owner_->headView())}) {
        if (!w) continue;
        w->removeEventFilter(this);
        w->installEventFilter(this);
        for (QWidget* child : w->findChildren<QWidget*>()) {
            child->removeEventFilter(this);
            child->installEventFilter(this);
        }
    }
}

bool ModelPresenter::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::Enter) {
        auto* w = qobject_cast<QWidget*>(watched);
        const auto within = [w](QWidget* figure) {
            return figure && w && (w == figure || figure->isAncestorOf(w));
        };
        if (within(window_owner_->focusPanel()))
            current_ = QStringLiteral("focus");
        else if (within(window_owner_->grid()))
            current_ = QStringLiteral("grid");
        else if (within(window_owner_->headView()))
            current_ = QStringLiteral("head-view");
    }
    return QObject::eventFilter(watched, event);
}

bool ModelPresenter::present(const QString& view)
{
    ModelDocument* doc = window_owner_->document();
    QWidget* content = nullptr;
    if (view == QLatin1String("focus"))
        content = new ModelFocusPanel(doc);
    else if (view == QLatin1String("grid"))
        content = new ModelGridView(doc);
    else if (view == QLatin1String("head-view"))
        content = new HeadViewPanel(doc);
    if (!content) return false;
    if (window_) window_->close();
    current_ = view;
    PresenterWindow::scaleFonts(content, PresenterWindow::MapFontScale);
    auto* shown =
        new PresenterWindow(content, marks_, QStringLiteral("model/") + view, window_owner_);
    window_ = shown;
    shown->showOn(window_owner_->screen());
    return true;
}

}  // namespace attnlab
