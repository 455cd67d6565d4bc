// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/start_page.h"

#include <algorithm>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/readers/lesson_catalog.h"

namespace attnlab {

StartPage::StartPage(QWidget* parent)
    : QDialog(parent),
      intro_(new QLabel(this)),
      scroll_(new QScrollArea(this)),
      more_(new QLabel(this)),
      again_(new QCheckBox(this))
{
    setObjectName(QStringLiteral("StartPage"));
    auto* layout = new QVBoxLayout(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    scroll_->setWidgetResizable(true);
    auto* inner = new QWidget(scroll_);
    list_ = new QVBoxLayout(inner);
    scroll_->setWidget(inner);
    layout->addWidget(scroll_, 1);
    more_->setObjectName(QStringLiteral("moreLessons"));
    more_->setAlignment(Qt::AlignCenter);
    more_->setTextFormat(Qt::RichText);
    connect(more_, &QLabel::linkActivated, this, [this] {
        QScrollBar* bar = scroll_->verticalScrollBar();
        bar->setValue(bar->maximum());
    });
    layout->addWidget(more_);
    connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, this, &StartPage::updateCue);
    connect(scroll_->verticalScrollBar(), &QScrollBar::rangeChanged, this, &StartPage::updateCue);
    QSettings settings;
    // Shown at startup until the user says otherwise: the box starts ticked, as it was shown.
    again_->setChecked(settings.value(QStringLiteral("lessons/showStartPage"), true).toBool());
    connect(again_, &QCheckBox::toggled, this,
            [](bool on) { QSettings().setValue(QStringLiteral("lessons/showStartPage"), on); });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(again_);
    bottom->addStretch(1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    rebuild();
    fitToScreen();
}

QString StartPage::shownKey()
{
    return QStringLiteral("lessons/startPageShown");
}

bool StartPage::showAtStartup() const
{
    return again_->isChecked();
}

void StartPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) rebuild();
    QDialog::changeEvent(event);
}

void StartPage::showEvent(QShowEvent* event)
{
    QDialog::showEvent(event);
    // The list starts at lesson 1 whatever took the focus, and the cue is measured once the
    // rows have their final heights.
    scroll_->verticalScrollBar()->setValue(0);
    updateCue();
    QTimer::singleShot(0, this, [this] {
        scroll_->verticalScrollBar()->setValue(0);
        updateCue();
    });
}

void StartPage::resizeEvent(QResizeEvent* event)
{
    QDialog::resizeEvent(event);
    updateCue();
}

int StartPage::columns() const
{
    const QScreen* s = screen();
    return s && s->availableGeometry().width() >= 1280 ? 2 : 1;
}

void StartPage::fitToScreen()
{
    // The whole list when the screen has room for it, else as much as 90 % of the screen.
    const int width = columns() == 2 ? 1220 : 760;
    // The wrapped labels' heights at the width the list will have.
    const QLayout* list = scroll_->widget()->layout();
    const int listWidth = width - 60;
    const int listHeight = list->hasHeightForWidth() ? list->totalHeightForWidth(listWidth)
                                                     : list->totalSizeHint().height();
    QSize want(width, sizeHint().height() - scroll_->sizeHint().height() + listHeight +
                          2 * scroll_->frameWidth() + 4);
    if (const QScreen* s = screen()) {
        const QSize room = s->availableGeometry().size() * 0.9;
        want = want.boundedTo(room);
    }
    resize(want.width(), std::max(want.height(), 420));
}

int StartPage::lessonsBelow() const
{
    const QWidget* viewport = scroll_->viewport();
    int below = 0;
    for (const QLabel* row : rows_) {
        // The row's bottom in the viewport's coordinates (the inner widget moves as it scrolls).
        const int bottom = row->mapTo(scroll_->widget(), QPoint(0, row->height())).y() -
                           scroll_->verticalScrollBar()->value();
        if (bottom > viewport->height() + 2) ++below;
    }
    return below;
}

void StartPage::updateCue()
{
    const int below = lessonsBelow();
    more_->setText(below > 0 ? QStringLiteral("<a href=\"#more\">%1</a>")
                                   .arg(tr("▼ %n more lesson(s) below", nullptr, below))
                             : QString());
    more_->setVisible(below > 0);
}

void StartPage::rebuild()
{
    setWindowTitle(tr("Welcome to AttnLab"));
    intro_->setText(
        tr("<h2>Attention you can touch</h2><p>Each lesson opens a ready-made session and a "
           "short text: what to look at, what to try, and why. Every number stays editable, "
           "and Undo brings back the lesson as it was.</p>"));
    again_->setText(tr("Show this page at startup"));
    rows_.clear();
    while (QLayoutItem* item = list_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    auto* grid = new QWidget;
    auto* g = new QGridLayout(grid);
    g->setHorizontalSpacing(18);
    // Two columns (1–8 and 9–16, read down) where the screen is wide enough, so that every
    // lesson is in view at 1366×768 without scrolling.
    const QList<Lesson>& all = lessons();
    const int columns = this->columns();
    const int perColumn = static_cast<int>((all.size() + columns - 1) / columns);
    int r = 0;
    for (const Lesson& lesson : all) {
        auto* label =
            new QLabel(QStringLiteral("<b>%1</b><br>%2")
                           .arg(withBreaksAroundQuotes(lesson.numberedTitle()).toHtmlEscaped(),
                                withBreaksAroundQuotes(lesson.summary()).toHtmlEscaped()),
                       grid);
        label->setWordWrap(true);
        label->setObjectName(QStringLiteral("lesson-") + lesson.id);
        rows_ << label;
        auto* open = new QPushButton(tr("Open"), grid);
        open->setObjectName(QStringLiteral("open-") + lesson.id);
        const QString id = lesson.id;
        connect(open, &QPushButton::clicked, this, [this, id] {
            Q_EMIT openLesson(id);
            accept();
        });
        const int column = 2 * (r / perColumn);
        g->addWidget(label, r % perColumn, column);
        g->addWidget(open, r % perColumn, column + 1, Qt::AlignVCenter);
        ++r;
    }
    if (r == 0) g->addWidget(new QLabel(tr("No lessons were found in this build."), grid), 0, 0);
    for (int c = 0; c < columns; ++c) g->setColumnStretch(2 * c, 1);
    list_->addWidget(grid);
    list_->addStretch(1);
    updateCue();
}

}  // namespace attnlab
