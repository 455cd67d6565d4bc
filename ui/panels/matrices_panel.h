// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Editable tables of the session's matrices: the embeddings X (and Y in cross mode), the
// current head's W_Q, W_K, W_V, W_O when there are several heads, and the additive
// parameters W_a, U_a, v when the score is additive. Every cell edit is one undoable
// Document::setMatrixEntry(); text that is not a finite number is refused with a message.
// "Randomise" draws new projections from the seed shown; "Reset" redraws them from the
// session's seed (undoing hand edits of the projections).

#include <QAbstractTableModel>
#include <QWidget>

#include "core/attention_input.h"
#include "ui/document/session_ops.h"

class QAbstractButton;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace attnlab {

class Document;
struct Session;

// A table over one matrix of the document's session (per-head ones follow the current head).
class SessionMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SessionMatrixModel(Document* document, QObject* parent = nullptr);

    void setMatrix(EditableMatrix matrix);
    [[nodiscard]] EditableMatrix matrix() const { return matrix_; }
    // Display name, e.g. "W_K (head 1)".
    [[nodiscard]] QString matrixName() const;
    // Re-reads the session (called on Document::changed and head changes).
    void refresh();

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Accepts a double or text; refuses text that is not a finite number (|x| <= kMaxAbs).
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    static constexpr double kMaxAbs = 1.0e6;

Q_SIGNALS:
    void refused(const QString& message);

private:
    [[nodiscard]] double valueAt(int row, int column) const;
    [[nodiscard]] QSize shape() const;

    Document* doc_;
    EditableMatrix matrix_ = EditableMatrix::X;
    QSize shape_;
    int head_ = 0;
};

class MatricesPanel : public QWidget {
    Q_OBJECT
public:
    explicit MatricesPanel(Document* document, QWidget* parent = nullptr);

    // The matrices that exist in the current session (Y, W_O and the additive ones vary).
    [[nodiscard]] QList<EditableMatrix> availableMatrices() const;
    // Shows one matrix; returns false if it is not available now.
    bool setMatrix(EditableMatrix matrix);
    [[nodiscard]] EditableMatrix matrix() const { return model_->matrix(); }

    [[nodiscard]] SessionMatrixModel* model() const { return model_; }
    [[nodiscard]] QTableView* view() const { return view_; }
    [[nodiscard]] QSpinBox* seedBox() const { return seed_; }
    [[nodiscard]] QAbstractButton* randomiseButton() const { return randomise_; }
    [[nodiscard]] QAbstractButton* resetButton() const { return reset_; }

    // Draws new projections (all heads, W_O, additive) from `seed`: one undo step.
    bool randomise(quint64 seed);

private:
    void onDocumentChanged();
    void updateChooser();
    void updateCaption();
    void showMessage(const QString& text);

    Document* doc_;
    SessionMatrixModel* model_;
    QComboBox* chooser_ = nullptr;
    QLabel* caption_ = nullptr;
    QLabel* message_ = nullptr;
    QTableView* view_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QAbstractButton* randomise_ = nullptr;
    QAbstractButton* reset_ = nullptr;
    quint64 lastSeed_ = 0;
    int shownHead_ = -1;
};

}  // namespace attnlab
