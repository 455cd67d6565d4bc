// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Under the texts of the lessons "Temperature: the same softmax" and "The model writes": buttons
// that open a built-in model in the model window on the lesson's text and make it write there,
// through the Generate panel's own settings, so that the reader sees what the text reports.
// Temperature: the Tang poem model writes at T = 0.2, 0.7 or 1.5 with a fixed seed. The model
// writes: the letters model writes greedily after its repeated text; two buttons switch off the
// head the detectors score the strongest induction head, or every head whose induction score
// reaches the floor from which the model trainer counts one (the written letters are then
// written again under the edit).

#include <array>
#include <functional>
#include <utility>
#include <vector>

#include <QList>
#include <QPointer>
#include <QWidget>

#include "core/head_scores.h"

class QPushButton;

namespace attnlab {

class ModelDocument;
class ModelWindow;
class ModelWindows;

class WritingLessonLauncher : public QWidget {
    Q_OBJECT
public:
    enum class Lesson { Temperature, Induction };

    // What the buttons do, and so what the lessons' texts report
    // (tests/ui/lesson_writing_test.cpp measures it).
    static constexpr std::array<double, 3> kTemperatures = {0.2, 0.7, 1.5};
    static constexpr int kSeed = 1;
    static constexpr int kPoemTokens = 14;  // the rest of 春晓: 鸟。夜来风雨声，花落知多少。
    static constexpr int kLetterTokens = 16;  // the repeated pattern once more

    // Opens models in `models`' window.
    WritingLessonLauncher(ModelWindows* models, Lesson lesson, QWidget* parent = nullptr);

    // Temperature: the button that writes at kTemperatures[i].
    [[nodiscard]] QPushButton* temperatureButton(int i) const { return temperatures_.value(i); }
    // The model writes: write greedily; switch off the strongest induction head, or all of them.
    [[nodiscard]] QPushButton* writeButton() const { return write_; }
    [[nodiscard]] QPushButton* strongestOffButton() const { return strongest_; }
    [[nodiscard]] QPushButton* allOffButton() const { return all_; }

    // (layer, head) pairs, from 0.
    using Heads = std::vector<std::pair<int, int>>;
    // The heads the buttons switch off: the highest induction score of `scores`, or (`all`)
    // every head whose score reaches attn::gpt2::kPhaseInductionFloor, in model order.
    static Heads inductionHeads(const attn::HeadScoreTable& scores, bool all);

    // What the buttons call. Each opens the built-in model on the lesson's text unless the model
    // window holds it already, brings the window up and starts the work; the writing and the
    // head edit end on the document's workers. False when the model could not be opened (the
    // window says why).
    bool writeAt(double temperature);
    bool writeLetters();
    bool switchOffInductionHeads(bool all);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    // The model window on built-in model `name` with lesson text `text` (opened or set as
    // needed), its Generate panel shown; nullptr when the model could not be opened.
    ModelWindow* windowOn(const QString& name, const QString& text);
    // The Generate panel's settings: `temperature`, no top-k or top-p cut, kSeed.
    static void setSampling(ModelWindow* window, double temperature, int count);
    // Calls `then` once `doc` has published a run of `text` and `ready` holds, checked on each
    // publication and on each of `alsoOn`'s changed() (the head detectors'); at once when both
    // hold already. A later wait replaces one still pending: a second click writes once.
    void whenReady(ModelDocument* doc, const QString& text, const std::function<bool()>& ready,
                   const std::function<void()>& then, QObject* alsoOn = nullptr);

    ModelWindows* models_;
    Lesson lesson_;
    QList<QPushButton*> temperatures_;
    QPushButton* write_ = nullptr;
    QPushButton* strongest_ = nullptr;
    QPushButton* all_ = nullptr;
    QPointer<QObject> pending_;
};

}  // namespace attnlab
