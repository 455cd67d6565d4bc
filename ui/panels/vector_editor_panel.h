// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Edits the projected vectors of one role (queries, keys or values) of the current head:
// one row per token with a slider and a spin box per shown component, a "×2" button that
// doubles the whole vector (the textbook exercise) and a "Reset" that removes the edit.
// Every change goes to Document::editVector(); a slider drag is one undo step. Long vectors
// show a chosen set of components, long sequences a window of rows around a picked token.
// Values are read back from the document's result; the panel never computes attention.

#include <vector>

#include <QStringList>
#include <QVector>
#include <QWidget>

#include "core/attention_input.h"

class QAbstractButton;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QScrollArea;
class QSlider;
class QSpinBox;
class QToolButton;

namespace attnlab {

class Document;

class VectorEditorPanel : public QWidget {
    Q_OBJECT
public:
    VectorEditorPanel(Document* document, attn::Role role, QWidget* parent = nullptr);
    ~VectorEditorPanel() override;

    [[nodiscard]] attn::Role role() const { return role_; }

    // Widgets of one token (absolute index) and component (0-based); nullptr if not shown.
    [[nodiscard]] QSlider* slider(int token, int component) const;
    [[nodiscard]] QDoubleSpinBox* spinBox(int token, int component) const;
    [[nodiscard]] QAbstractButton* doubleButton(int token) const;
    [[nodiscard]] QAbstractButton* resetButton(int token) const;

    // What is shown now: token indices and 0-based component indices.
    [[nodiscard]] const QVector<int>& shownTokens() const { return shownTokens_; }
    [[nodiscard]] const QVector<int>& shownComponents() const { return shownComponents_; }

    // Chooses the components shown when the vector is long (> 8), from text such as
    // "1,2,5-8" (1-based). Returns false and shows a message when the text is invalid.
    bool setComponentsText(const QString& text);
    // For long sequences (> 32 tokens): centre the shown rows on this token.
    void setCentreToken(int token);

    static constexpr int kMaxAllComponents = 8;  // beyond this, a chosen set is shown
    static constexpr int kMaxChosenComponents = 8;
    static constexpr int kMaxAllTokens = 32;  // beyond this, a window of rows is shown
    static constexpr int kWindowRadius = 4;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        int token = 0;
        QLabel* label = nullptr;
        QLabel* tag = nullptr;
        std::vector<QSlider*> sliders;
        std::vector<QDoubleSpinBox*> spins;
        QToolButton* twice = nullptr;
        QToolButton* reset = nullptr;
    };

    [[nodiscard]] int tokenCount() const;
    [[nodiscard]] int dimension() const;
    [[nodiscard]] QString tokenLabel(int token) const;
    [[nodiscard]] QString componentName(int component) const;
    // "k2": component 2 (from 1) of a key.
    static QString componentName(attn::Role role, int component);
    [[nodiscard]] const attn::Matrix* vectors() const;
    [[nodiscard]] attn::VectorEdit currentEdit(int token) const;
    [[nodiscard]] const Row* rowFor(int token) const;

    void onDocumentChanged();
    void onSelectionChanged();
    void updateLayout();
    void rebuildRows();
    void addHeaderRow(QGridLayout* grid, QWidget* w);
    Row addTokenRow(QGridLayout* grid, QWidget* w, int r);
    QWidget* addComponentCell(QWidget* w, Row& row, int comp);
    void installRows(QWidget* w);
    void refreshValues();
    void setComponent(int token, int component, double value, bool dragging);
    void doubleVector(int token);
    void resetVector(int token);
    void endDrag();
    void showMessage(const QString& text);

    Document* doc_;
    attn::Role role_;
    QLabel* info_ = nullptr;
    QWidget* componentsBox_ = nullptr;
    QLineEdit* componentsEdit_ = nullptr;
    QWidget* pickerBox_ = nullptr;
    QSpinBox* picker_ = nullptr;
    QLabel* message_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QWidget* rowsWidget_ = nullptr;
    std::vector<Row> rows_;
    QVector<int> chosenComponents_{0, 1, 2, 3};
    QVector<int> shownTokens_;
    QVector<int> shownComponents_;
    QStringList shownLabels_;
    int centre_ = 0;
};

}  // namespace attnlab
