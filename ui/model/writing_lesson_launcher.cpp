// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/writing_lesson_launcher.h"

#include <algorithm>

#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "core/head_scores.h"
#include "core/train/phase_change.h"
#include "ui/model/generate_panel.h"
#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/views/panel_message.h"

namespace attnlab {

namespace {

const QString kPoems = QStringLiteral("tang");
const QString kLetters = QStringLiteral("induction");

// The detectors have scored the open model's run (the scores of another model's run may still
// be shown while this one's are computed).
bool scored(const HeadScoresSource* scores, const ModelDocument* doc)
{
    return !scores->computing() && static_cast<int>(scores->scores().size()) == doc->layers();
}

}  // namespace

WritingLessonLauncher::Heads WritingLessonLauncher::inductionHeads(const attn::HeadScoreTable& t,
                                                                   bool all)
{
    Heads heads;
    int layer = -1;
    int head = -1;
    attn::bestHead(t, attn::HeadKind::Induction, layer, head);
    if (layer < 0) return heads;
    if (!all) return {{layer, head}};
    for (std::size_t l = 0; l < t.size(); ++l)
        for (std::size_t h = 0; h < t[l].size(); ++h)
            if (t[l][h].induction >= attn::gpt2::kPhaseInductionFloor)
                heads.emplace_back(static_cast<int>(l), static_cast<int>(h));
    return heads;
}

WritingLessonLauncher::WritingLessonLauncher(ModelWindows* models, Lesson lesson, QWidget* parent)
    : QWidget(parent), models_(models), lesson_(lesson)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    if (lesson == Lesson::Temperature) {
        setObjectName(QStringLiteral("temperatureLessonLauncher"));
        for (const double t : kTemperatures) {
            auto* b = new QPushButton(this);
            connect(b, &QPushButton::clicked, this, [this, t] { writeAt(t); });
            layout->addWidget(b, 0, Qt::AlignLeft);
            temperatures_ << b;
        }
    } else {
        setObjectName(QStringLiteral("writingLessonLauncher"));
        write_ = new QPushButton(this);
        strongest_ = new QPushButton(this);
        all_ = new QPushButton(this);
        connect(write_, &QPushButton::clicked, this, &WritingLessonLauncher::writeLetters);
        connect(strongest_, &QPushButton::clicked, this,
                [this] { switchOffInductionHeads(false); });
        connect(all_, &QPushButton::clicked, this, [this] { switchOffInductionHeads(true); });
        for (QPushButton* b : {write_, strongest_, all_}) layout->addWidget(b, 0, Qt::AlignLeft);
    }
    retranslate();
}

void WritingLessonLauncher::retranslate()
{
    for (int i = 0; i < temperatures_.size(); ++i) {
        const QString t = QLocale().toString(kTemperatures[static_cast<std::size_t>(i)], 'f', 1);
        temperatures_[i]->setText(tr("Write at T = %1").arg(t));
        temperatures_[i]->setToolTip(
            tr("The Tang poem model writes %n character(s) after %1 at temperature %2, seed %3", "",
               kPoemTokens)
                .arg(ModelLessonLauncher::lessonText(kPoems), t)
                .arg(kSeed));
    }
    if (write_) {
        write_->setText(tr("Let the letters model write"));
        write_->setToolTip(
            tr("It writes %n letter(s) after %1, always the most probable", "", kLetterTokens)
                .arg(ModelLessonLauncher::lessonText(kLetters)));
        strongest_->setText(tr("Switch off its strongest induction head"));
        strongest_->setToolTip(
            tr("Switches off the head the detectors score highest as an induction head; what "
               "it wrote is written again without it (Ctrl+Z in the model window undoes it)"));
        all_->setText(tr("Switch off all its induction heads"));
        all_->setToolTip(tr("Switches off every head whose induction score reaches %1; what it "
                            "wrote is written again without them")
                             .arg(QLocale().toString(attn::gpt2::kPhaseInductionFloor, 'f', 1)));
    }
}

ModelWindow* WritingLessonLauncher::windowOn(const QString& name, const QString& text)
{
    ModelWindow* w = models_->window();
    ModelDocument* doc = w->document();
    if (!doc->hasModel() || builtinNameOf(doc->folder()) != name) {
        QString error;
        const QString folder = resolveModelFolder(builtinReference(name), error);
        if (folder.isEmpty()) {  // its copy could not be written
            w->message()->say(error);
            w->present();
            return nullptr;
        }
        if (!w->openFolder(folder)) return nullptr;  // the window has said why
    }
    // The same text is left alone: setting it again would run it again.
    if (doc->text() != text) w->setText(text);
    w->present();
    if (auto* dock = w->findChild<QDockWidget*>(QStringLiteral("generateDock"))) {
        dock->show();
        dock->raise();
    }
    return w;
}

void WritingLessonLauncher::setSampling(ModelWindow* window, double temperature, int count)
{
    // Through the panel's own boxes, so that what it shows is what wrote.
    GeneratePanel* panel = window->generatePanel();
    panel->temperatureBox()->setValue(temperature);
    panel->topKBox()->setValue(0);
    panel->topPBox()->setValue(1.0);
    panel->seedBox()->setValue(kSeed);
    panel->countBox()->setValue(count);
}

void WritingLessonLauncher::whenReady(ModelDocument* doc, const QString& text,
                                      const std::function<bool()>& ready,
                                      const std::function<void()>& then, QObject* alsoOn)
{
    delete pending_.data();  // a second click replaces the wait of the first
    const auto done = [doc, text, ready] {
        return doc->snapshot() && doc->snapshot()->text == text && ready();
    };
    if (done()) {
        then();
        return;
    }
    auto* once = new QObject(this);
    pending_ = once;
    const auto attempt = [this, once, done, then] {
        if (!done()) return;
        once->deleteLater();
        pending_ = nullptr;  // `then` may wait again
        // Not inside the publication: the document ends it by going on with any writing asked
        // for, which would take a token from what `then` asks.
        QTimer::singleShot(0, this, then);
    };
    connect(doc, &ModelDocument::snapshotChanged, once, attempt);
    if (auto* scores = qobject_cast<HeadScoresSource*>(alsoOn))
        connect(scores, &HeadScoresSource::changed, once, attempt);
}

bool WritingLessonLauncher::writeAt(double temperature)
{
    const QString text = ModelLessonLauncher::lessonText(kPoems);
    ModelWindow* w = windowOn(kPoems, text);
    if (!w) return false;
    ModelDocument* doc = w->document();
    whenReady(
        doc, text, [] { return true; },
        [w, doc, temperature] {
            setSampling(w, temperature, kPoemTokens);
            doc->generateAfterText(kPoemTokens);
        });
    return true;
}

bool WritingLessonLauncher::writeLetters()
{
    const QString text = ModelLessonLauncher::lessonText(kLetters);
    ModelWindow* w = windowOn(kLetters, text);
    if (!w) return false;
    ModelDocument* doc = w->document();
    whenReady(
        doc, text, [] { return true; },
        [w, doc] {
            setSampling(w, 0.0, kLetterTokens);
            doc->generateAfterText(kLetterTokens);
        });
    return true;
}

bool WritingLessonLauncher::switchOffInductionHeads(bool all)
{
    const QString text = ModelLessonLauncher::lessonText(kLetters);
    ModelWindow* w = windowOn(kLetters, text);
    if (!w) return false;
    ModelDocument* doc = w->document();
    HeadScoresSource* scores = w->headScores();
    whenReady(
        doc, text, [scores, doc] { return scored(scores, doc); },
        [this, w, doc, scores, text, all] {
            const Heads heads = inductionHeads(scores->scores(), all);
            doc->selectHead(heads.front().first, heads.front().second);
            // An edit made after writing writes the letters again under it; with nothing
            // written yet, the letters are written once the edited run is in.
            const bool wrote = doc->snapshot()->wrote();
            for (const auto& [layer, head] : heads)
                if (!doc->headAblated(layer, head) && !doc->ablateHead(layer, head, false)) return;
            if (wrote) return;
            whenReady(
                doc, text,
                [doc, heads] {
                    return std::all_of(heads.begin(), heads.end(), [doc](const auto& lh) {
                        return doc->headAblated(lh.first, lh.second);
                    });
                },
                [w, doc] {
                    setSampling(w, 0.0, kLetterTokens);
                    doc->generateAfterText(kLetterTokens);
                });
        },
        scores);
    return true;
}

void WritingLessonLauncher::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
