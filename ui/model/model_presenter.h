// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model window's presenter view (View ▸ Presenter view, F5): the enlarged head, the model
// view (every layer and head) or the head view full screen with large text and the marking
// tools (ui/presenter). F5 presents the figure last clicked or hovered, the enlarged head at
// first. Each is a second view of the same ModelDocument, so a run or an edit shows in both.
// Made once by ModelWindow; its menu entries are added again whenever the menus are rebuilt.

#include <QObject>
#include <QPointer>

class QMenu;

namespace attnlab {

class MarkStore;
class ModelWindow;
class PresenterWindow;

class ModelPresenter : public QObject {
    Q_OBJECT
public:
    explicit ModelPresenter(ModelWindow* window);
    ~ModelPresenter() override;  // closes the presenter view

    // focus (the enlarged head), grid (the model view), head-view (the head view).
    [[nodiscard]] static QStringList viewNames();
    // The figure F5 presents now.
    [[nodiscard]] QString currentView() const { return current_; }
    bool present(const QString& view);
    [[nodiscard]] PresenterWindow* presenterWindow() const;
    [[nodiscard]] MarkStore* marks() const { return marks_; }
    // View ▸ Presenter view and its three entries.
    void addActions(QMenu* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void watchFigures();

    ModelWindow* window_owner_;
    MarkStore* marks_;
    QString current_ = QStringLiteral("focus");
    QPointer<PresenterWindow> window_;
};

}  // namespace attnlab
