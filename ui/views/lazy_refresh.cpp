// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/lazy_refresh.h"

#include <QEvent>
#include <QWidget>

namespace attnlab {

LazyRefresh::LazyRefresh(QWidget* target, std::function<void()> refresh)
    : QObject(target), target_(target), refresh_(std::move(refresh))
{
    target_->installEventFilter(this);
}

void LazyRefresh::request()
{
    if (target_->window()->isVisible() && !target_->isVisible()) {
        pending_ = true;
        return;
    }
    pending_ = false;
    refresh_();
}

bool LazyRefresh::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == target_ && event->type() == QEvent::Show && pending_) {
        pending_ = false;
        refresh_();
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace attnlab
