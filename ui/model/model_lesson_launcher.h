// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the text of the lesson "A real model": a sentence from the textbook, a button to pick
// a model folder and one to reopen the last one. Both open the real-model window on that
// sentence; without a model the lesson's text says where to get one.

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace attnlab {

class ModelWindow;

class ModelLessonLauncher : public QWidget {
    Q_OBJECT
public:
    explicit ModelLessonLauncher(QWidget* parent = nullptr);
    // Opens `folder` in the model window on the chosen sentence; false (with the window's
    // warning) when it cannot.
    bool openWith(const QString& folder);
    [[nodiscard]] QComboBox* sentences() const { return sentences_; }
    // After opening, select the head where a token of `queries` reads a token of `keys` most
    // (the lesson "Does the model care?": "it" and "animal", 它 and 动物).
    void setFocusPair(const QStringList& queries, const QStringList& keys);
    [[nodiscard]] QPushButton* reopenButton() const { return reopen_; }
    // With a focus pair: hands the selected head of the model window to the workbench.
    [[nodiscard]] QPushButton* workbenchButton() const { return workbench_; }

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void refreshLast();
    void choose();
    void shown(ModelWindow* window);

    QLabel* label_;
    QComboBox* sentences_;
    QPushButton* choose_;
    QPushButton* reopen_;
    QPushButton* workbench_;
    QStringList queries_, keys_;
};

}  // namespace attnlab
