// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the text of the lesson "Positions by rotation (RoPE)": one button per step of the
// lesson, each setting rotary positions off or on with a base theta through the document (one
// undoable change each).

#include <vector>

#include <QWidget>

class QPushButton;

namespace attnlab {

class Document;

class RopeLessonButtons : public QWidget {
    Q_OBJECT
public:
    explicit RopeLessonButtons(Document* doc, QWidget* parent = nullptr);
    // The thetas of the buttons after the first ("no positions"), in order.
    static const std::vector<double>& thetas();
    // Button 0 turns rotary positions off; button k > 0 turns them on with thetas()[k - 1].
    [[nodiscard]] QPushButton* button(int index) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    Document* doc_;
    std::vector<QPushButton*> buttons_;
};

}  // namespace attnlab
