// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One of the translator's three grids: every head of one kind of attention (encoder,
// decoder or cross) as a thumbnail, layer by layer (rows) and head by head (columns). Click one
// (or move with the arrow keys) to enlarge it; right-click to switch it off, restore it or
// scale one of its keys. Marks: a cross on a switched-off head, a dot on one with a scaled
// vector. It only reads the Seq2SeqDocument and calls its operations.

#include <memory>
#include <vector>

#include <QImage>
#include <QWidget>

#include "core/model/attention_kind.h"

namespace attnlab {

class Seq2SeqDocument;
struct Seq2SeqSnapshot;

class Seq2SeqGridView : public QWidget {
    Q_OBJECT
public:
    Seq2SeqGridView(Seq2SeqDocument* document, attn::model::AttentionKind kind,
                    QWidget* parent = nullptr);

    [[nodiscard]] QSize sizeHint() const override { return {360, 180}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {160, 90}; }
    [[nodiscard]] attn::model::AttentionKind kind() const { return kind_; }
    // Where the thumbnail of (layer, head) is drawn (tests, tooltips); empty without a run.
    [[nodiscard]] QRect cellRect(int layer, int head) const;
    // The context menu of (layer, head), as a right-click there shows it (tests).
    void showEditMenu(int layer, int head, const QPoint& globalPos);
    // With head edits: the largest change of a weight of (layer, head) against the unedited
    // run, framed in amber when it is a change (isAttentionChange); 0 without edits.
    [[nodiscard]] float changeAt(int layer, int head) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    void refresh();
    [[nodiscard]] bool cellAt(const QPoint& p, int& layer, int& head) const;
    [[nodiscard]] QRectF titleRect() const;
    [[nodiscard]] QString title() const;
    [[nodiscard]] const std::vector<std::vector<float>>* changeOf() const;

    Seq2SeqDocument* document_;
    attn::model::AttentionKind kind_;
    std::shared_ptr<const Seq2SeqSnapshot> shown_;
    std::vector<QImage> thumbnails_;  // layer-major, shown_'s
};

}  // namespace attnlab
