// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The open lesson's text (what to look at, what to try, why) in the lesson language,
// shown in a dock beside the workbench. It re-reads the text on a language change.

#include <QList>
#include <QPair>
#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace attnlab {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // Shows the lesson with this id; an empty or unknown id shows a hint instead.
    void setLesson(const QString& id);
    [[nodiscard]] QString lessonId() const { return id_; }
    // The shown title and text (Markdown), for tests.
    [[nodiscard]] QString shownTitle() const;
    [[nodiscard]] QString shownText() const { return markdown_; }
    // Re-reads the title and text in the current lesson language.
    void refresh();
    // Shows `widget` below the text while the lesson `id` is open (e.g. lesson 6's plot).
    // The panel takes ownership.
    void addAttachment(const QString& id, QWidget* widget);

Q_SIGNALS:
    // "Start again": the user asks to reload the lesson's session.
    void restartRequested(const QString& id);

protected:
    void changeEvent(QEvent* event) override;

private:
    QString id_;
    QString markdown_;
    QLabel* title_;
    QTextBrowser* text_;
    QPushButton* restart_;
    QList<QPair<QString, QWidget*>> attachments_;
};

}  // namespace attnlab
