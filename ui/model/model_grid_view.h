// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model view in the window: every layer's and head's map as a thumbnail, with the layer
// means and rollouts (model_grid_paint.h). Click one (or move with the arrow keys) to show it
// large; the tooltip names it. It only reads the ModelDocument.

#include <memory>
#include <vector>

#include <QImage>
#include <QWidget>

class QPainter;

namespace attnlab {

class HeadScoresSource;
class ModelDocument;
struct ModelSnapshot;
struct ModelGridCell;
struct ModelGridGeometry;

class ModelGridView : public QWidget {
    Q_OBJECT
public:
    explicit ModelGridView(ModelDocument* document, QWidget* parent = nullptr);

    [[nodiscard]] QSize sizeHint() const override { return {640, 560}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {240, 200}; }
    // Where the thumbnail of (layer, column) is drawn, in widget coordinates (tests, tooltips).
    [[nodiscard]] QRect cellRect(int layer, int column) const;
    // Frames every head by the score `scores` says (HeadScoresSource::tint), when it says one.
    void setHeadScores(HeadScoresSource* scores);
    // Repaints done since construction (the typing benchmark waits for one).
    [[nodiscard]] int paintCount() const { return paints_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void refresh();
    void choose(int layer, int column);
    [[nodiscard]] double basePx() const;
    // Where the grid is drawn and its cells (needs a snapshot).
    [[nodiscard]] QRectF area() const;
    [[nodiscard]] ModelGridGeometry geometry() const;
    // Marks on edited heads: a cross on a switched-off one, a dot on one with scaled vectors.
    void paintEditMarks(QPainter& painter) const;
    // A cyan frame on each head (the selection is red), as thick and opaque as its score.
    void paintScoreFrames(QPainter& painter) const;

    ModelDocument* document_;
    HeadScoresSource* scores_ = nullptr;
    std::shared_ptr<const ModelSnapshot> shown_;
    std::shared_ptr<const std::vector<QImage>> thumbnails_;  // shown_'s
    int paints_ = 0;
};

}  // namespace attnlab
