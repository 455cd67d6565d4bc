// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The selected head as bertviz's head view draws it: the keys' tokens in a column on the left,
// the queries' on the right, and a line from each query to each key as strong as its weight.
// For cross-attention the source stands on the left and the target on the right: each word of
// the translation looks back at the source. Click a token on the right to show its lines only.
// It only reads the Seq2SeqDocument.

#include <QWidget>

namespace attnlab {

class Seq2SeqDocument;

class Seq2SeqHeadView : public QWidget {
    Q_OBJECT
public:
    explicit Seq2SeqHeadView(Seq2SeqDocument* document, QWidget* parent = nullptr);

    [[nodiscard]] QSize sizeHint() const override { return {320, 360}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {200, 120}; }
    // The query whose lines alone are drawn, -1 for all.
    [[nodiscard]] int focusedQuery() const { return query_; }
    void setFocusedQuery(int row);
    // Where the label of a key (left) or query (right) token is drawn (tests).
    [[nodiscard]] QRect tokenRect(bool query, int index) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    [[nodiscard]] int rowsShown(int count) const;

    Seq2SeqDocument* document_;
    int query_ = -1;
};

}  // namespace attnlab
