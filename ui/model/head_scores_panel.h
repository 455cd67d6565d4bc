// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "Head kinds" panel: every head's detector scores as a layers x heads table, one score at a
// time, the strongest heads darkest; a click selects that head in the model view, and "Colour
// the model view" marks every head there by the chosen score.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace attnlab {

class HeadScoresSource;
class ModelDocument;

class HeadScoresPanel : public QWidget {
    Q_OBJECT
public:
    HeadScoresPanel(ModelDocument* document, HeadScoresSource* source, QWidget* parent = nullptr);

    [[nodiscard]] QTableWidget* table() const { return table_; }
    [[nodiscard]] QComboBox* kindBox() const { return kind_; }
    [[nodiscard]] QCheckBox* tintBox() const { return tint_; }

private:
    void refresh();

    ModelDocument* document_;
    HeadScoresSource* source_;
    QComboBox* kind_;
    QCheckBox* tint_;
    QLabel* note_;
    QTableWidget* table_;
};

}  // namespace attnlab
