// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The start page: a short welcome and the built-in lessons, numbered, each with its one-line
// summary and an Open button. Shown on first launch and from Help ▸ Start page / Lessons ▸
// Start page. It opens at the top of the list; below the list a cue says how many lessons are
// further down while some are.

#include <QDialog>

class QCheckBox;
class QLabel;
class QScrollArea;
class QVBoxLayout;

namespace attnlab {

class StartPage : public QDialog {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    // The settings key that records the start page was shown (first-launch flag).
    static QString shownKey();
    // Whether to show it at the next start ("Show at startup").
    [[nodiscard]] bool showAtStartup() const;
    [[nodiscard]] QScrollArea* scrollArea() const { return scroll_; }
    // "▼ 2 more lessons below" (a link that scrolls down), hidden when the rest is in view.
    [[nodiscard]] QLabel* moreCue() const { return more_; }
    // How many lessons are not (entirely) in view below the list's visible part.
    [[nodiscard]] int lessonsBelow() const;

Q_SIGNALS:
    void openLesson(const QString& id);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void updateCue();
    void fitToScreen();
    // 2 where the screen is wide enough for two columns of lessons, else 1.
    [[nodiscard]] int columns() const;

    QLabel* intro_;
    QScrollArea* scroll_;
    QVBoxLayout* list_;
    QLabel* more_;
    QCheckBox* again_;
    QList<QLabel*> rows_;
};

}  // namespace attnlab
