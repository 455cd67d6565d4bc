// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the text of the lessons "A real model" and "Does the model care?": first the models
// built into AttnLab (they open offline, each on a text of its own kind), then, as the next
// step, a sentence from the textbook with a button to pick a downloaded model folder and one
// to reopen the last one. Every button opens the real-model window.

#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace attnlab {

class ModelWindow;
class ModelWindows;

class ModelLessonLauncher : public QWidget {
    Q_OBJECT
public:
    // Opens models in `models`' window.
    explicit ModelLessonLauncher(ModelWindows* models, QWidget* parent = nullptr);
    // Opens `folder` in the model window on the chosen sentence; false (with the window's
    // warning) when it cannot.
    bool openWith(const QString& folder);
    // Opens the built-in model `name` (builtin_models.h) on lessonText(name); false (with the
    // window's warning) when it cannot.
    bool openBuiltin(const QString& name);
    // The text a lesson opens a built-in model on: the letters model reads a text that repeats
    // itself, the poem model the start of a line it learned, so that its prediction means
    // something (the textbook's English sentence would lose its spaces and capitals).
    static QString lessonText(const QString& name);
    // The built-in models offered, in this order (default: every one that is built in).
    void setBuiltins(const QStringList& names);
    // Whether the next step (a sentence and a downloaded model's folder) is offered under the
    // built-in models (default: yes; the lesson on cross-attention offers the translator only).
    void setDownloadStep(bool offered);
    // The button that opens built-in model `name`; nullptr when it is not offered.
    [[nodiscard]] QPushButton* builtinButton(const QString& name) const;
    [[nodiscard]] QComboBox* sentences() const { return sentences_; }
    // After opening a folder, select the head where a token of `queries` reads a token of `keys`
    // most (the lesson "Does the model care?": "it" and "animal", 它 and 动物).
    void setFocusPair(const QStringList& queries, const QStringList& keys);
    // The lesson "Does the model care?" on a built-in model: after it opens, select the head the
    // detectors score the strongest induction head and its last row; two buttons double or
    // halve the key that row reads most, as the textbook's exercise does.
    void setKeyExperiment(bool on);
    [[nodiscard]] QPushButton* doubleKeyButton() const { return double_; }
    [[nodiscard]] QPushButton* halveKeyButton() const { return halve_; }
    [[nodiscard]] QPushButton* reopenButton() const { return reopen_; }
    // With a focus pair: hands the selected head of the model window to the workbench.
    [[nodiscard]] QPushButton* workbenchButton() const { return workbench_; }

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    ModelWindows* models_;
    void retranslate();
    void refreshLast();
    void choose();
    void shown(ModelWindow* window);
    void selectInductionHead(ModelWindow* window, const QString& text);
    void scaleReadKey(float scale);

    QLabel* builtinLabel_;
    QWidget* builtinRow_;
    QList<QPushButton*> builtinButtons_;
    QStringList builtinNames_;
    QPushButton* double_;
    QPushButton* halve_;
    QLabel* label_;
    QComboBox* sentences_;
    QPushButton* choose_;
    QPushButton* reopen_;
    QPushButton* workbench_;
    QStringList queries_, keys_;
    bool keyExperiment_ = false;
};

}  // namespace attnlab
