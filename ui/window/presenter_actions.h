// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// View ▸ Presenter view (F5): the workbench's current view full screen with large text — the
// Weights, Difference, Pipeline or All heads tab, or the Long map of a long session (a second
// view of the same document), the
// walkthrough on the step the tab shows (the two stay on the same step), or, when the Trainer
// dock has the keyboard, the trainer's live map and loss curve (lent to the presenter view and
// put back when it closes). The marks drawn there stay with the main window's MarkStore, one
// page per view and walkthrough step. Made by MainWindow.

#include <QObject>
#include <QPointer>

class QAction;

namespace attnlab {

class Document;
class MainWindow;
class MarkStore;
class PresenterWindow;

class PresenterActions : public QObject {
    Q_OBJECT
public:
    PresenterActions(MainWindow* window, Document* doc, MarkStore* marks);
    ~PresenterActions() override;  // closes the presenter view

    [[nodiscard]] QAction* presenterAction() const { return presenter_; }
    // The open presenter view, or nullptr.
    [[nodiscard]] PresenterWindow* presenterWindow() const;

    // The views that can be presented, by name: weights, difference, pipeline, heads,
    // walkthrough, trainer, long.
    [[nodiscard]] static QStringList viewNames();
    // The view F5 presents now.
    [[nodiscard]] QString currentView() const;
    // Presents `view` (one of viewNames()); false when it cannot be shown now.
    bool present(const QString& view);
    void showPresenter();

    // The marks page of the current view ("weights", "walkthrough/3", ...), and whether
    // anything was drawn on it.
    [[nodiscard]] QString currentPage() const;
    [[nodiscard]] bool currentViewHasMarks() const;
    // Writes the current view as the presenter view shows it, with its marks (PNG, SVG or
    // PDF by the suffix), without showing it; false with a translated `error`.
    bool exportMarkedView(const QString& path, QString& error);

private:
    [[nodiscard]] QWidget* makeContent(const QString& view);
    bool presentTrainer();
    void open(PresenterWindow* window);

    MainWindow* main_;
    Document* doc_;
    MarkStore* marks_;
    QAction* presenter_ = nullptr;
    QPointer<PresenterWindow> window_;
};

}  // namespace attnlab
