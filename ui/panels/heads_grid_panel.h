// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The weights of every head side by side (click one to make it the current head),
// and the combined output of all heads (concatenation through W_O) as one map.
// It only reads the document's result.

#include <vector>

#include <QWidget>

class QFrame;
class QGridLayout;

namespace attnlab {

class Document;
class HeatmapView;

class HeadsGridPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeadsGridPanel(Document* document, QWidget* parent = nullptr);

    [[nodiscard]] int headMapCount() const { return static_cast<int>(maps_.size()); }
    [[nodiscard]] HeatmapView* headMap(int head) const;
    [[nodiscard]] HeatmapView* outputMap() const { return output_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void resizeGrid(int heads);
    void updateSelection();

    Document* document_;
    QGridLayout* grid_ = nullptr;
    std::vector<QFrame*> frames_;
    std::vector<HeatmapView*> maps_;
    HeatmapView* output_ = nullptr;
};

}  // namespace attnlab
