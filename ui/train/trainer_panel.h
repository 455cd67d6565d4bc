// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Trainer dock: learns the document's W_Q and W_K (optionally W_V) on a task while the
// maps animate. The settings make a run at step 0 right away (its first snapshot shows the
// untrained P); Start / Pause / Step drive it on its worker (TrainRun); Reset makes it again;
// Keep puts the learned matrices into the session as one undo step (Document::keepTraining);
// Discard drops the run and leaves the session as it is. The settings belong to a run: they
// are locked once it has taken a step, until Reset or Discard. A generated task trains on its
// own sequence: the maps are labelled with it, a note says it differs from the session's, and
// Keep asks before it puts that sequence into the session. The speed slows the worker down so
// that a class can watch the map change.

#include <functional>
#include <memory>
#include <vector>

#include <QTimer>
#include <QWidget>

#include "ui/train/train_setup.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace attnlab {

class Document;
class PanelMessage;
class TrainRun;
class TrainerDisplay;
class TrainingControls;

class TrainerPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainerPanel(Document* document, QWidget* parent = nullptr);
    ~TrainerPanel() override;

    // What Keep does when the run's sequence would replace the session's.
    enum class KeepAnswer { WithSequence, MatricesOnly, Cancel };
    // Asks that question (`text` says what would change); a message box unless a test sets one.
    using KeepQuestion = std::function<KeepAnswer(const QString& text)>;
    void setKeepQuestion(KeepQuestion ask) { askKeep_ = std::move(ask); }

    // The speed slider's steps per second, slowest first; 0 is full speed (the last position).
    static constexpr int kSpeeds[] = {5, 20, 50, 100, 200, 500, 0};

    // The controls, for tests and the bench.
    [[nodiscard]] QComboBox* taskBox() const { return task_; }
    [[nodiscard]] QComboBox* optimizerBox() const { return optimizer_; }
    [[nodiscard]] QDoubleSpinBox* learningRateBox() const { return rate_; }
    [[nodiscard]] QSpinBox* stepsBox() const { return steps_; }
    [[nodiscard]] QCheckBox* valuesBox() const { return values_; }
    [[nodiscard]] QCheckBox* sharedBox() const { return shared_; }
    [[nodiscard]] TrainingControls* runControls() const { return runControls_; }
    [[nodiscard]] QPushButton* startButton() const;
    [[nodiscard]] QPushButton* pauseButton() const;
    [[nodiscard]] QPushButton* stepButton() const;
    [[nodiscard]] QPushButton* resetButton() const;
    [[nodiscard]] QPushButton* keepButton() const { return keep_; }
    [[nodiscard]] QPushButton* discardButton() const { return discard_; }
    [[nodiscard]] QPushButton* compareButton() const { return compare_; }
    [[nodiscard]] QLineEdit* filmStepsEdit() const { return filmSteps_; }
    [[nodiscard]] QSlider* speedSlider() const;
    // The wait after each step that the speed slider asks of the runs (0: full speed).
    [[nodiscard]] int stepDelayUs() const;
    // The note that training uses its own sequence (hidden when it uses the session's).
    [[nodiscard]] QLabel* sequenceNote() const { return sequenceNote_; }
    [[nodiscard]] TrainerDisplay* display() const { return display_; }
    [[nodiscard]] QString message() const;  // the refusal or error shown, if any
    // The run (null when the task is refused) and, while comparing, the other run (with one
    // shared projection, or with separate ones when the run has the shared one).
    [[nodiscard]] TrainRun* run() const { return run_.get(); }
    [[nodiscard]] TrainRun* comparisonRun() const { return otherRun_.get(); }
    [[nodiscard]] const attn::Matrix& pattern() const { return pattern_; }

    // Exports (the Export menu asks for the path); false with a translated `error`.
    bool exportLossCurve(const QString& path, QString& error);
    bool exportFilmStrip(const QString& path, QString& error);
    bool exportCurveCsv(const QString& path, QString& error);
    // "Take P from another session…" without the dialog.
    bool takePatternFrom(const QString& path, QString& error);
    // Paints the pattern from the document's current P.
    void patternFromCurrentP();

Q_SIGNALS:
    void snapshotShown();  // the live display took a snapshot in

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildControls();
    void makeChoices();
    void makeButtons();
    void makeRunControls();
    void makeExportMenu();
    void layOut();
    void connectControls();
    [[nodiscard]] TrainChoice choice() const;
    [[nodiscard]] std::vector<int> filmSteps() const;
    void rebuild();  // a fresh run at step 0 from the settings and the document
    void rebuildSoon() { rebuildTimer_.start(); }
    void start();
    void pauseRuns();
    void stepOnce();
    void keep();
    void discard();
    void compare();
    void showSnapshot();
    void showOtherSnapshot();
    void showStatus();  // the step, the loss, the speed and the other run's loss
    void updateControls();
    void updateSpeed();
    // The sentence about the training sequence, empty when it is the session's own.
    [[nodiscard]] QString sequenceText(const attn::TrainExample& example) const;
    [[nodiscard]] static KeepAnswer askKeepInBox(QWidget* parent, const QString& text);
    [[nodiscard]] QString curveName(const TrainRun& run) const;
    void paintCell(int row, int column, Qt::KeyboardModifiers modifiers);
    void showExportMenu();
    void say(const QString& text);
    [[nodiscard]] bool locked() const;  // the run has taken steps: settings fixed

    Document* doc_;
    QComboBox* task_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QDoubleSpinBox* rate_ = nullptr;
    QSpinBox* steps_ = nullptr;
    QCheckBox* values_ = nullptr;
    QCheckBox* shared_ = nullptr;
    TrainingControls* runControls_ = nullptr;  // Start, Pause, Step, Reset and the speed
    QPushButton* keep_ = nullptr;
    QPushButton* discard_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* paint_ = nullptr;
    QPushButton* takeP_ = nullptr;
    QLineEdit* filmSteps_ = nullptr;
    QLabel* sequenceNote_ = nullptr;
    QToolButton* export_ = nullptr;
    QLabel* status_ = nullptr;
    PanelMessage* message_ = nullptr;
    TrainerDisplay* display_ = nullptr;
    QTimer rebuildTimer_;

    attn::Matrix pattern_;  // your own pattern
    QString refusal_;       // why no run could be made
    std::unique_ptr<TrainRun> run_;
    std::unique_ptr<TrainRun> otherRun_;  // the comparison's second run
    KeepQuestion askKeep_;
    bool keeping_ = false;  // our own Keep changed the document
    bool stale_ = false;    // the document changed while the dock was hidden
    qint64 startedNs_ = 0;
    int startedSteps_ = 0;
};

}  // namespace attnlab
