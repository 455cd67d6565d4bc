// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The head view panel: a layer chooser, a head chooser ("All heads" or one) and the canvas of
// head_lines_paint.h. Hovering a token isolates its lines. The layer and head follow the
// model view's selection; choosing here selects there too (one selection, the document's).

#include <memory>

#include <QWidget>

class QComboBox;

namespace attnlab {

class ModelDocument;
struct HeadLinesGeometry;
struct ModelSnapshot;

class HeadLinesCanvas : public QWidget {
    Q_OBJECT
public:
    explicit HeadLinesCanvas(QWidget* parent = nullptr);
    void setContent(std::shared_ptr<const ModelSnapshot> snapshot, int layer, int head);
    [[nodiscard]] int hoverQuery() const { return hoverQuery_; }
    [[nodiscard]] int hoverKey() const { return hoverKey_; }
    // Lines drawn in the last paint (tests: hovering isolates).
    [[nodiscard]] int drawnHeads() const;
    // The centre of token `index` on `side` (0 left, 1 right), for tests.
    [[nodiscard]] QPoint tokenCentre(int side, int index) const;
    // The hover text at `pos`: the token there, readable and with its raw bytes where its label
    // hides them; the canvas's help elsewhere.
    [[nodiscard]] QString toolTipAt(const QPoint& pos) const;
    [[nodiscard]] QSize sizeHint() const override { return {360, 420}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {200, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] double basePx() const;
    // Where the lines are drawn and their token rows.
    [[nodiscard]] QRectF area() const;
    [[nodiscard]] HeadLinesGeometry geometry() const;
    std::shared_ptr<const ModelSnapshot> snapshot_;
    int layer_ = 0;
    int head_ = -1;  // -1: all heads
    int hoverQuery_ = -1;
    int hoverKey_ = -1;
};

class HeadViewPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeadViewPanel(ModelDocument* document, QWidget* parent = nullptr);
    [[nodiscard]] HeadLinesCanvas* canvas() const { return canvas_; }
    [[nodiscard]] QComboBox* layerBox() const { return layers_; }
    [[nodiscard]] QComboBox* headBox() const { return heads_; }
    // The head shown (-1: all of the layer's).
    [[nodiscard]] int shownHead() const;

private:
    void refill();
    void follow();
    void chosen();

    ModelDocument* document_;
    QComboBox* layers_;
    QComboBox* heads_;
    HeadLinesCanvas* canvas_;
    bool filling_ = false;
};

}  // namespace attnlab
