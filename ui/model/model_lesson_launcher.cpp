// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_lesson_launcher.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/model/model_document.h"
#include "ui/model/model_window.h"

namespace attnlab {

namespace {
constexpr int kFolderNamePixels = 100;
}

ModelLessonLauncher::ModelLessonLauncher(QWidget* parent)
    : QWidget(parent),
      label_(new QLabel(this)),
      sentences_(new QComboBox(this)),
      choose_(new QPushButton(this)),
      reopen_(new QPushButton(this)),
      workbench_(new QPushButton(this))
{
    setObjectName(QStringLiteral("modelLessonLauncher"));
    label_->setWordWrap(true);
    sentences_->addItems(ModelWindow::exampleTexts());
    sentences_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    sentences_->setMinimumContentsLength(16);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(choose_);
    buttons->addWidget(reopen_);
    buttons->addStretch(1);
    workbench_->hide();  // shown with a focus pair (the lesson "Does the model care?")
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addWidget(label_);
    layout->addWidget(sentences_);
    layout->addLayout(buttons);
    layout->addWidget(workbench_, 0, Qt::AlignLeft);
    connect(workbench_, &QPushButton::clicked, this, [] {
        ModelDocument* doc = ModelWindow::instance()->document();
        if (!doc->snapshot()) {
            ModelWindow::instance()->present();  // it says to open a model first
            return;
        }
        doc->openInWorkbench(doc->selection().layer, doc->selection().head);
    });
    connect(choose_, &QPushButton::clicked, this, &ModelLessonLauncher::choose);
    connect(reopen_, &QPushButton::clicked, this, [this] { openWith(ModelWindow::lastFolder()); });
    retranslate();
}

void ModelLessonLauncher::retranslate()
{
    choose_->setText(tr("Open a model folder…"));
    choose_->setToolTip(
        tr("A folder with config.json, model.safetensors and the tokenizer's "
           "files, downloaded from huggingface.co"));
    sentences_->setToolTip(tr("The sentence the model reads first (you can edit it there)"));
    refreshLast();
}

void ModelLessonLauncher::refreshLast()
{
    const QString last = ModelWindow::lastFolder();
    const bool known = !last.isEmpty() && QFileInfo(last).isDir();
    // A long folder name ("uer-gpt2-chinese-cluecorpussmall") shortened in the middle: the
    // button's width is the lesson dock's least width, and a wide dock pushes the window past
    // the edge of a 1366-pixel screen.
    const QString name =
        fontMetrics().elidedText(QFileInfo(last).fileName(), Qt::ElideMiddle, kFolderNamePixels);
    label_->setText(known ? tr("Sentence, then a model (last opened: %1):").arg(name)
                          : tr("Sentence, then a model (none opened yet):"));
    reopen_->setText(known ? tr("Open %1 again").arg(name) : tr("Open again"));
    reopen_->setToolTip(known ? QDir::toNativeSeparators(last) : QString());
    reopen_->setEnabled(known);
    workbench_->setText(tr("Open the selected head in the workbench"));
    workbench_->setToolTip(
        tr("Its real queries, keys and values in the workbench, where every "
           "slider is carried through the model"));
}

bool ModelLessonLauncher::openWith(const QString& folder)
{
    ModelWindow* w = ModelWindow::instance();
    if (!w->openFolder(folder)) return false;
    shown(w);
    return true;
}

void ModelLessonLauncher::choose()
{
    ModelWindow* w = ModelWindow::instance();
    if (!w->openFolderDialog()) return;
    shown(w);
}

void ModelLessonLauncher::setFocusPair(const QStringList& queries, const QStringList& keys)
{
    queries_ = queries;
    keys_ = keys;
    workbench_->setVisible(!queries_.isEmpty());
}

void ModelLessonLauncher::shown(ModelWindow* w)
{
    w->setText(sentences_->currentText());
    w->present();
    refreshLast();
    if (queries_.isEmpty()) return;
    // The run is on a worker: choose the head once it is in.
    ModelDocument* doc = w->document();
    auto* once = new QObject(w);
    connect(doc, &ModelDocument::snapshotChanged, once,
            [doc, once, q = queries_, k = keys_, text = sentences_->currentText()] {
                if (!doc->snapshot() || doc->snapshot()->text != text) return;
                doc->selectStrongestHead(q, k);
                once->deleteLater();
            });
}

void ModelLessonLauncher::showEvent(QShowEvent* event)
{
    refreshLast();
    QWidget::showEvent(event);
}

void ModelLessonLauncher::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
