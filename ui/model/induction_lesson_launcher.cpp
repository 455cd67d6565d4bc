// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/induction_lesson_launcher.h"

#include <QEvent>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {

namespace {

const QString kBuiltin = QStringLiteral("induction");

void train(ModelWindow* w, int layers)
{
    w->present();
    w->showTrainer(layers);
}

}  // namespace

InductionLessonLauncher::InductionLessonLauncher(ModelWindows* models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      one_(new QPushButton(this)),
      two_(new QPushButton(this)),
      builtin_(new QPushButton(this))
{
    setObjectName(QStringLiteral("inductionLessonLauncher"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    for (QPushButton* b : {one_, two_, builtin_}) layout->addWidget(b, 0, Qt::AlignLeft);
    connect(one_, &QPushButton::clicked, this, [this] { train(models_->window(), 1); });
    connect(two_, &QPushButton::clicked, this, [this] { train(models_->window(), 2); });
    connect(builtin_, &QPushButton::clicked, this, [this] {
        ModelWindow* w = models_->window();
        QString error;
        const QString folder = resolveModelFolder(builtinReference(kBuiltin), error);
        w->present();
        if (folder.isEmpty()) {
            QMessageBox::warning(w, ModelWindow::tr("Could not open the model"), error);
            return;
        }
        if (!w->openFolder(folder)) return;  // the window has said why
        for (const BuiltinModel& m : builtinModels())
            if (m.name == kBuiltin) w->setText(m.sample);
    });
    retranslate();
}

void InductionLessonLauncher::retranslate()
{
    one_->setText(tr("Train one layer"));
    one_->setToolTip(tr("The model window with its trainer set to one attention-only layer"));
    two_->setText(tr("Train two layers"));
    two_->setToolTip(tr("The model window with its trainer set to two attention-only layers"));
    builtin_->setText(tr("Open the built-in model"));
    builtin_->setToolTip(
        tr("The two-layer model this recipe trains, shipped with AttnLab: no training needed"));
}

void InductionLessonLauncher::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
