// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Defers a panel's redraw while it is hidden inside a shown window (a background tab,
// a closed dock): the redraw runs once when the panel is shown again. Panels outside a
// shown window (tests, exports) redraw at once.

#include <functional>

#include <QObject>

class QWidget;

namespace attnlab {

class LazyRefresh : public QObject {
public:
    LazyRefresh(QWidget* target, std::function<void()> refresh);
    // Redraw now, or when the target is next shown.
    void request();
    [[nodiscard]] bool pending() const { return pending_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* target_;
    std::function<void()> refresh_;
    bool pending_ = false;
};

}  // namespace attnlab
