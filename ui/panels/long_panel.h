// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The side of the Long map tab: what is kept in memory, the mode and scaling, a key to
// scale (the textbook's doubled key, at n = 32,768), and the selected row's inspector (its
// entropy, its largest weight and the keys it weighs most, with their scores recomputed from
// Q and K). Every change goes to one named operation of the LongDocument; while it computes,
// the controls wait.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace attnlab {

class LongDocument;

class LongPanel : public QWidget {
    Q_OBJECT
public:
    explicit LongPanel(LongDocument* doc, QWidget* parent = nullptr);

    // For tests: the texts as shown.
    [[nodiscard]] QString keptText() const;
    [[nodiscard]] QString rowText() const;
    [[nodiscard]] QTableWidget* topKeys() const { return table_; }
    [[nodiscard]] QSpinBox* keyBox() const { return key_; }
    [[nodiscard]] QDoubleSpinBox* scaleBox() const { return scale_; }
    [[nodiscard]] QPushButton* applyButton() const { return apply_; }
    [[nodiscard]] QComboBox* modeBox() const { return mode_; }
    [[nodiscard]] QCheckBox* scalingBox() const { return scaling_; }

    static constexpr int kTopKeys = 10;

protected:
    void changeEvent(QEvent* event) override;

private:
    QGroupBox* buildKeptBox();
    QGroupBox* buildOptionsBox();
    QGroupBox* buildKeyBox();
    QGroupBox* buildRowBox();
    void connectParts();
    void retranslate();
    void refresh();     // controls from the session
    void refreshRow();  // the inspector from the selection and the result
    void refreshKey();  // the key's token and its current scale

    LongDocument* doc_;
    QGroupBox* keptBox_ = nullptr;
    QLabel* kept_ = nullptr;
    QGroupBox* optionsBox_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QSpinBox* head_ = nullptr;
    QLabel* modeLabel_ = nullptr;
    QComboBox* mode_ = nullptr;
    QCheckBox* scaling_ = nullptr;
    QGroupBox* keyBox_ = nullptr;
    QLabel* keyLabel_ = nullptr;
    QSpinBox* key_ = nullptr;
    QLabel* keyToken_ = nullptr;
    QLabel* scaleLabel_ = nullptr;
    QDoubleSpinBox* scale_ = nullptr;
    QPushButton* apply_ = nullptr;
    QGroupBox* rowBox_ = nullptr;
    QLabel* row_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace attnlab
