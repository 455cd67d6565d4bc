// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the text of the lesson "Induction heads form": train one layer, train two layers (the
// model window with its trainer, set to the induction task), or open the built-in model that
// the two-layer recipe made, without training.

#include <QWidget>

class QPushButton;

namespace attnlab {

class ModelWindows;

class InductionLessonLauncher : public QWidget {
    Q_OBJECT
public:
    // Opens models and the trainer in `models`' window.
    explicit InductionLessonLauncher(ModelWindows* models, QWidget* parent = nullptr);
    [[nodiscard]] QPushButton* oneLayerButton() const { return one_; }
    [[nodiscard]] QPushButton* twoLayersButton() const { return two_; }
    [[nodiscard]] QPushButton* builtinButton() const { return builtin_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    ModelWindows* models_;
    void retranslate();
    QPushButton* one_;
    QPushButton* two_;
    QPushButton* builtin_;
};

}  // namespace attnlab
