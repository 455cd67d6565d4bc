#include "ui/window/start_page.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QVBoxLayout>

#include "ui/lessons/lesson_catalog.h"

namespace attnlab {

StartPage::StartPage(QWidget* parent)
    : QDialog(parent), intro_(new QLabel(this)), again_(new QCheckBox(this))
{
    setObjectName(QStringLiteral("StartPage"));
    auto* layout = new QVBoxLayout(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* inner = new QWidget(scroll);
    list_ = new QVBoxLayout(inner);
    scroll->setWidget(inner);
    layout->addWidget(scroll, 1);
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
    resize(760, 640);
    rebuild();
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

void StartPage::rebuild()
{
    setWindowTitle(tr("Welcome to AttnLab"));
    intro_->setText(
        tr("<h2>Attention you can touch</h2><p>Each lesson opens a ready-made session and a "
           "short text: what to look at, what to try, and why. Every number stays editable, "
           "and Undo brings back the lesson as it was.</p>"));
    again_->setText(tr("Show this page at startup"));
    while (QLayoutItem* item = list_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    auto* grid = new QWidget;
    auto* g = new QGridLayout(grid);
    int r = 0;
    for (const Lesson& lesson : lessons()) {
        auto* label =
            new QLabel(QStringLiteral("<b>%1</b><br>%2")
                           .arg(lesson.title().toHtmlEscaped(), lesson.summary().toHtmlEscaped()),
                       grid);
        label->setWordWrap(true);
        auto* open = new QPushButton(tr("Open"), grid);
        open->setObjectName(QStringLiteral("open-") + lesson.id);
        const QString id = lesson.id;
        connect(open, &QPushButton::clicked, this, [this, id] {
            Q_EMIT openLesson(id);
            accept();
        });
        g->addWidget(label, r, 0);
        g->addWidget(open, r, 1, Qt::AlignVCenter);
        ++r;
    }
    if (r == 0) g->addWidget(new QLabel(tr("No lessons were found in this build."), grid), 0, 0);
    g->setColumnStretch(0, 1);
    list_->addWidget(grid);
    list_->addStretch(1);
}

}  // namespace attnlab
