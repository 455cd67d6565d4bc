// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the text of the lesson "Cross-attention learns to align": train the dates translator
// (the model window with its trainer on the translator's page), or open the built-in translator
// that the same recipe made, without training, in a translator window.

#include <QWidget>

class QPushButton;

namespace attnlab {

class ModelWindows;

class AlignLessonLauncher : public QWidget {
    Q_OBJECT
public:
    explicit AlignLessonLauncher(ModelWindows* models, QWidget* parent = nullptr);
    [[nodiscard]] QPushButton* trainButton() const { return train_; }
    [[nodiscard]] QPushButton* builtinButton() const { return builtin_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    ModelWindows* models_;
    QPushButton* train_;
    QPushButton* builtin_;
};

}  // namespace attnlab
