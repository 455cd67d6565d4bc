#pragma once
// The start page: a short welcome and the built-in lessons, each with its one-line summary
// and an Open button. Shown on first launch and from Help ▸ Start page / Lessons ▸ Start page.

#include <QDialog>

class QCheckBox;
class QLabel;
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

Q_SIGNALS:
    void openLesson(const QString& id);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    QLabel* intro_;
    QVBoxLayout* list_;
    QCheckBox* again_;
};

}  // namespace attnlab
