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

#include "core/head_scores.h"
#include "core/model/head_edit.h"
#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/views/panel_message.h"

namespace attnlab {

namespace {
constexpr int kFolderNamePixels = 100;
}

ModelLessonLauncher::ModelLessonLauncher(ModelWindows* models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      builtinLabel_(new QLabel(this)),
      builtinRow_(new QWidget(this)),
      double_(new QPushButton(this)),
      halve_(new QPushButton(this)),
      label_(new QLabel(this)),
      sentences_(new QComboBox(this)),
      choose_(new QPushButton(this)),
      reopen_(new QPushButton(this)),
      workbench_(new QPushButton(this))
{
    setObjectName(QStringLiteral("modelLessonLauncher"));
    builtinLabel_->setWordWrap(true);
    label_->setWordWrap(true);
    sentences_->addItems(ModelWindow::exampleTexts());
    // As wide as its longest sentence: the lesson dock grows to show the one chosen whole (at
    // 16 characters' width it showed "…because it was t").
    sentences_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(choose_);
    buttons->addWidget(reopen_);
    buttons->addStretch(1);
    workbench_->hide();  // shown with a focus pair (the lesson "Does the model care?")
    // The built-in models stack: the dock is narrow, and a Chinese label is as long as an
    // English one here.
    auto* builtins = new QVBoxLayout(builtinRow_);
    builtins->setContentsMargins(0, 0, 0, 0);
    auto* keys = new QHBoxLayout;
    keys->addWidget(double_);
    keys->addWidget(halve_);
    keys->addStretch(1);
    double_->hide();  // shown for the key experiment (the lesson "Does the model care?")
    halve_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addWidget(builtinLabel_);
    layout->addWidget(builtinRow_);
    layout->addLayout(keys);
    layout->addSpacing(8);
    layout->addWidget(label_);
    layout->addWidget(sentences_);
    layout->addLayout(buttons);
    layout->addWidget(workbench_, 0, Qt::AlignLeft);
    connect(workbench_, &QPushButton::clicked, this, [this] {
        ModelDocument* doc = models_->window()->document();
        if (!doc->snapshot()) {
            models_->window()->present();  // it says to open a model first
            return;
        }
        doc->openInWorkbench(doc->selection().layer, doc->selection().head);
    });
    connect(double_, &QPushButton::clicked, this, [this] { scaleReadKey(2.0f); });
    connect(halve_, &QPushButton::clicked, this, [this] { scaleReadKey(0.5f); });
    connect(choose_, &QPushButton::clicked, this, &ModelLessonLauncher::choose);
    connect(reopen_, &QPushButton::clicked, this, [this] { openWith(ModelWindow::lastFolder()); });
    QStringList names;
    for (const BuiltinModel& m : builtinModels()) names << m.name;
    setBuiltins(names);
}

void ModelLessonLauncher::setBuiltins(const QStringList& names)
{
    qDeleteAll(builtinButtons_);
    builtinButtons_.clear();
    builtinNames_.clear();
    QStringList present;
    for (const BuiltinModel& m : builtinModels()) present << m.name;
    for (const QString& name : names) {
        if (!present.contains(name)) continue;
        auto* button = new QPushButton(builtinRow_);
        button->setObjectName(QStringLiteral("builtin-") + name);
        connect(button, &QPushButton::clicked, this, [this, name] { openBuiltin(name); });
        builtinRow_->layout()->addWidget(button);
        builtinButtons_ << button;
        builtinNames_ << name;
    }
    builtinLabel_->setVisible(!builtinButtons_.isEmpty());
    builtinRow_->setVisible(!builtinButtons_.isEmpty());
    retranslate();
}

void ModelLessonLauncher::setDownloadStep(bool offered)
{
    for (QWidget* w : std::initializer_list<QWidget*>{label_, sentences_, choose_, reopen_})
        w->setVisible(offered);
}

QPushButton* ModelLessonLauncher::builtinButton(const QString& name) const
{
    const auto i = builtinNames_.indexOf(name);
    return i < 0 ? nullptr : builtinButtons_.at(i);
}

QString ModelLessonLauncher::lessonText(const QString& name)
{
    // Meng Haoran's 春晓 without its last character: the poem model finishes the line.
    if (name == QLatin1String("tang")) return QStringLiteral("春眠不觉晓，处处闻啼");
    for (const BuiltinModel& m : builtinModels())
        if (m.name == name) return m.sample;
    return {};
}

void ModelLessonLauncher::setKeyExperiment(bool on)
{
    keyExperiment_ = on;
    double_->setVisible(on);
    halve_->setVisible(on);
}

void ModelLessonLauncher::retranslate()
{
    builtinLabel_->setText(tr("Built into AttnLab, no download needed:"));
    for (qsizetype i = 0; i < builtinButtons_.size(); ++i) {
        const QString& name = builtinNames_.at(i);
        QPushButton* b = builtinButtons_.at(i);
        if (name == QLatin1String("induction"))
            b->setText(tr("Open the letters model (induction heads)"));
        else if (name == QLatin1String("tang"))
            b->setText(tr("Open the Tang poem model"));
        else if (name == QLatin1String("dates"))
            b->setText(tr("Open the dates translator (cross-attention)"));
        else
            b->setText(name);
        b->setToolTip(tr("Opens the built-in model on: %1").arg(lessonText(name)));
    }
    double_->setText(tr("Double that key"));
    double_->setToolTip(tr("In the selected head, doubles the key its selected row reads most"));
    halve_->setText(tr("Halve that key"));
    halve_->setToolTip(tr("In the selected head, halves the key its selected row reads most"));
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
    // A built-in model's copy is named by a hash ("induction-9ff9fcfa8810"): say its name.
    const QString builtin = builtinNameOf(last);
    const QString name =
        fontMetrics().elidedText(builtin.isEmpty() ? QFileInfo(last).fileName() : builtin,
                                 Qt::ElideMiddle, kFolderNamePixels);
    label_->setText(
        known ? tr("Next step, a downloaded model: sentence, then folder (last: %1):").arg(name)
              : tr("Next step, a downloaded model: sentence, then folder:"));
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
    ModelWindow* w = models_->window();
    if (!w->openFolder(folder)) return false;
    shown(w);
    return true;
}

bool ModelLessonLauncher::openBuiltin(const QString& name)
{
    ModelWindow* w = models_->window();
    QString error;
    const QString folder = resolveModelFolder(builtinReference(name), error);
    if (folder.isEmpty()) {  // not built in, or its copy could not be written
        w->message()->say(error);
        w->present();
        return false;
    }
    if (!w->openFolder(folder)) return false;
    // An encoder-decoder opened in a translator window of its own, on its own sample.
    if (isEncoderDecoderFolder(folder)) return true;
    const QString text = lessonText(name);
    w->setText(text);
    w->present();
    refreshLast();
    if (keyExperiment_) selectInductionHead(w, text);
    return true;
}

void ModelLessonLauncher::selectInductionHead(ModelWindow* w, const QString& text)
{
    // The run and the head detectors are on workers: choose once both are in.
    ModelDocument* doc = w->document();
    HeadScoresSource* scores = w->headScores();
    auto* once = new QObject(w);
    const auto attempt = [doc, scores, once, text] {
        if (!doc->snapshot() || doc->snapshot()->text != text) return;
        if (scores->computing() || scores->scores().empty()) return;
        int layer = -1;
        int head = -1;
        attn::bestHead(scores->scores(), attn::HeadKind::Induction, layer, head);
        if (layer < 0) return;
        doc->selectHead(layer, head);
        doc->selectQuery(static_cast<int>(doc->snapshot()->tokenCount()) - 1);
        once->deleteLater();
    };
    connect(doc, &ModelDocument::snapshotChanged, once, attempt);
    connect(scores, &HeadScoresSource::changed, once, attempt);
    attempt();
}

void ModelLessonLauncher::scaleReadKey(float scale)
{
    ModelWindow* w = models_->window();
    ModelDocument* doc = w->document();
    const auto snap = doc->snapshot();
    const ModelSelection& s = doc->selection();
    if (!snap || s.focus != ModelFocus::Head || snap->tokenCount() == 0) {
        w->present();  // it says to open a model first
        return;
    }
    // The key the row reads most without edits: a second click on "Halve" halves the same key
    // again, and "Double" after "Halve" restores it.
    const attn::model::ForwardResult& run = snap->edited() ? snap->unedited : snap->result;
    const auto& weights =
        run.layers[static_cast<std::size_t>(s.layer)].attention[static_cast<std::size_t>(s.head)];
    const long row = s.query >= 0 ? s.query : static_cast<long>(weights.rows()) - 1;
    long key = 0;
    weights.row(row).maxCoeff(&key);
    doc->scaleVector(attn::model::HeadEditKind::Key, s.layer, s.head, key, scale);
    w->present();
}

void ModelLessonLauncher::choose()
{
    ModelWindow* w = models_->window();
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
