// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/lesson_panel.h"

#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/readers/lesson_catalog.h"

namespace attnlab {

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      text_(new QTextBrowser(this)),
      restart_(new QPushButton(this))
{
    setObjectName(QStringLiteral("LessonPanel"));
    auto* layout = new QVBoxLayout(this);
    title_->setWordWrap(true);
    QFont f = title_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title_->setFont(f);
    text_->setOpenExternalLinks(true);
    text_->setMinimumHeight(200);
    layout->addWidget(title_);
    layout->addWidget(text_, 1);
    layout->addWidget(restart_, 0, Qt::AlignLeft);
    connect(restart_, &QPushButton::clicked, this, [this] {
        if (!id_.isEmpty()) Q_EMIT restartRequested(id_);
    });
    refresh();
}

void LessonPanel::setLesson(const QString& id)
{
    id_ = id;
    refresh();
}

QString LessonPanel::shownTitle() const
{
    return title_->text().remove(QChar(0x200B));
}

void LessonPanel::refresh()
{
    restart_->setText(tr("&Start the lesson again"));
    restart_->setToolTip(tr("Reload the lesson's numbers (one undo step)."));
    const Lesson* lesson = findLessonById(id_);
    restart_->setVisible(lesson != nullptr);
    if (!lesson) {
        title_->setText(tr("No lesson open"));
        markdown_ =
            tr("Open a lesson from the **Lessons** menu or the start page "
               "(**Help ▸ Start page**).");
    } else {
        title_->setText(withBreaksAroundQuotes(lesson->numberedTitle()));
        markdown_ = lesson->text();
        // The numbered title above replaces the text's own heading (two lessons may share
        // one text, and only the catalogue knows a lesson's number).
        if (markdown_.startsWith(QLatin1Char('#'))) {
            const qsizetype end = markdown_.indexOf(QLatin1Char('\n'));
            markdown_ = end < 0 ? QString() : markdown_.mid(end + 1).trimmed();
        }
    }
    text_->setMarkdown(withBreaksAroundQuotes(markdown_));
    bool attached = false;
    for (const auto& [lessonId, widget] : std::as_const(attachments_)) {
        widget->setVisible(lesson && lessonId == id_);
        attached = attached || widget->isVisibleTo(this);
    }
    // Leave room for an attachment: the text scrolls in its own browser.
    text_->setMinimumHeight(attached ? 130 : 200);
}

void LessonPanel::addAttachment(const QString& id, QWidget* widget)
{
    auto* layout = static_cast<QVBoxLayout*>(this->layout());
    layout->insertWidget(layout->indexOf(restart_), widget);
    attachments_.append({id, widget});
    widget->setVisible(id == id_);
}

void LessonPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::LocaleChange) refresh();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
