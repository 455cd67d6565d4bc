// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main window's page for a long session (a file whose every stage in double exceeds the
// memory budget, but whose weights fit in float): the map of the current head's weights drawn
// in place from the float result, zoom and pan, hover (the cell's weight with its scores
// recomputed), the LongPanel beside it (what is kept, mode, scaling, a key to scale, the
// selected row), and a progress bar with Cancel while the LongDocument computes. It only reads
// the document and calls its named operations; the window's File, Edit and Export menus serve
// it like any session.

#include <optional>

#include <QWidget>

#include "ui/views/heatmap_view.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;

namespace attnlab {

class LongDocument;
class LongPanel;

class LongMapPanel : public QWidget {
    Q_OBJECT
public:
    explicit LongMapPanel(LongDocument* doc, QWidget* parent = nullptr);

    [[nodiscard]] HeatmapView* map() const { return map_; }
    [[nodiscard]] LongPanel* panel() const { return panel_; }
    [[nodiscard]] QProgressBar* progressBar() const { return progress_; }
    [[nodiscard]] QPushButton* cancelButton() const { return cancel_; }
    [[nodiscard]] bool showsMap() const;
    [[nodiscard]] bool showsProgress() const;
    // The text for a hovered cell (empty when none).
    [[nodiscard]] QString hoverText() const { return hover_; }
    // The current head's map as drawn (Export ▸ Figure); no rows while there is none.
    [[nodiscard]] HeatmapContent content() const;

Q_SIGNALS:
    void hoverTextChanged(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildProgressStrip();
    QSplitter* buildMapAndPanel();
    void addRowKeys();
    void connectParts();
    void retranslate();
    void showResult();
    void showComputing(bool computing);
    void showHover(int row, int column);

    LongDocument* doc_;
    HeatmapView* map_ = nullptr;
    LongPanel* panel_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* empty_ = nullptr;
    QPushButton* recompute_ = nullptr;
    QWidget* strip_ = nullptr;
    QLabel* stripText_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QAction* previousRow_ = nullptr;
    QAction* nextRow_ = nullptr;
    QString hover_;
    int shownHead_ = -1;
    struct KeptView {
        QCPRange x, y;
        long rows = 0, cols = 0;
    };
    std::optional<KeptView> keptView_;
};

}  // namespace attnlab
