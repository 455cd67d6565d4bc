// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A window for one long session (a file whose every stage in double exceeds the memory
// budget, but whose weights fit in float): the map of the current head's weights drawn in
// place from the float result, zoom and pan, hover (the cell's weight with its scores
// recomputed), the side panel (what is kept, mode, scaling, a key to scale, the selected
// row), a progress bar with Cancel while the LongDocument computes, undo, and Export.

#include <functional>
#include <optional>

#include <QMainWindow>
#include <QMessageBox>

#include "core/attention_input.h"
#include "ui/readers/session.h"
#include "ui/views/heatmap_view.h"

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace attnlab {

class LongDocument;
class LongPanel;

class LongWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit LongWindow(attn::Limits limits = {}, QWidget* parent = nullptr);

    // A new window (deleted on close) computing `session`, shown; null when the long path
    // refuses it (the reason in `error`).
    static LongWindow* openSession(const Session& session, const QString& path, QString& error);

    bool open(const Session& session, const QString& path);
    [[nodiscard]] LongDocument* document() const { return doc_; }
    [[nodiscard]] HeatmapView* map() const { return map_; }
    [[nodiscard]] LongPanel* panel() const { return panel_; }
    [[nodiscard]] QProgressBar* progressBar() const { return progress_; }
    [[nodiscard]] QPushButton* cancelButton() const { return cancel_; }
    [[nodiscard]] QAction* undoAction() const { return undo_; }
    [[nodiscard]] bool showsMap() const;
    // The status bar's text for a hovered cell (empty when none).
    [[nodiscard]] QString hoverText() const { return hover_; }
    // The current head's map as PNG, SVG or PDF (by the extension); false with `error`.
    bool exportMap(const QString& path, QString& error) const;
    // Writes the session with its edits (atomically); on success it is the window's file and
    // unmodified. False with `error`, the file untouched.
    bool saveTo(const QString& path, QString& error);
    // Saves to the window's file, else asks for one (Save As); false when cancelled or failed.
    bool save();
    // Edits that no file holds, and the name that File ▸ Quit's question gives them.
    [[nodiscard]] bool hasUnsavedChanges() const;
    [[nodiscard]] QString sessionName() const;
    // Asked on closing with unsaved edits (Save, Discard or Cancel); tests answer it.
    void setCloseQuestion(std::function<QMessageBox::StandardButton()> ask)
    {
        askOnClose_ = std::move(ask);
    }

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void retranslate();
    void showResult();
    void showComputing(bool computing);
    void showHover(int row, int column);
    void exportWithDialog();
    void updateUndo();
    bool saveAs();
    [[nodiscard]] HeatmapContent content() const;

    LongDocument* doc_;
    QString path_;
    HeatmapView* map_ = nullptr;
    LongPanel* panel_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* empty_ = nullptr;
    QPushButton* recompute_ = nullptr;
    QWidget* strip_ = nullptr;
    QLabel* stripText_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QString hover_;
    int shownHead_ = -1;
    struct KeptView {
        QCPRange x, y;
        long rows = 0, cols = 0;
    };
    std::optional<KeptView> keptView_;
    QMenu* fileMenu_ = nullptr;
    QMenu* editMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QAction* export_ = nullptr;
    QAction* save_ = nullptr;
    QAction* saveAs_ = nullptr;
    std::function<QMessageBox::StandardButton()> askOnClose_;
    QAction* close_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* zoomIn_ = nullptr;
    QAction* zoomOut_ = nullptr;
    QAction* resetView_ = nullptr;
    QAction* previousRow_ = nullptr;
    QAction* nextRow_ = nullptr;
};

}  // namespace attnlab
