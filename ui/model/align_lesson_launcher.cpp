// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/align_lesson_launcher.h"

#include <QEvent>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {

AlignLessonLauncher::AlignLessonLauncher(ModelWindows* models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      train_(new QPushButton(this)),
      builtin_(new QPushButton(this))
{
    setObjectName(QStringLiteral("alignLessonLauncher"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    for (QPushButton* b : {train_, builtin_}) layout->addWidget(b, 0, Qt::AlignLeft);
    connect(train_, &QPushButton::clicked, this, [this] {
        ModelWindow* w = models_->window();
        w->present();
        w->showTranslatorTrainer();
    });
    connect(builtin_, &QPushButton::clicked, this, [this] {
        QString error;
        const QString folder = resolveModelFolder(builtinReference(QStringLiteral("dates")), error);
        if (folder.isEmpty() || !models_->openTranslator(folder, error))
            QMessageBox::warning(window(), ModelWindow::tr("Could not open the model"), error);
    });
    retranslate();
}

void AlignLessonLauncher::retranslate()
{
    train_->setText(tr("Train the translator"));
    train_->setToolTip(tr("The model window with its trainer on the task Dates → English"));
    builtin_->setText(tr("Open the built-in translator"));
    builtin_->setToolTip(
        tr("The translator this recipe trains, shipped with AttnLab: no training needed"));
}

void AlignLessonLauncher::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
