#pragma once
// The Trainer dock: learns the document's W_Q and W_K (optionally W_V) on a task while the
// maps animate. The settings make a run at step 0 right away (its first snapshot shows the
// untrained P); Start / Pause / Step drive it on its worker (TrainRun); Reset makes it again;
// Keep puts the learned matrices into the session as one undo step (Document::keepTraining);
// Discard drops the run and leaves the session as it is. The settings belong to a run: they
// are locked once it has taken a step, until Reset or Discard.

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
class QSpinBox;
class QToolButton;

namespace attnlab {

class Document;
class PanelMessage;
class TrainRun;
class TrainerDisplay;

class TrainerPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainerPanel(Document* document, QWidget* parent = nullptr);
    ~TrainerPanel() override;

    // The controls, for tests and the bench.
    [[nodiscard]] QComboBox* taskBox() const { return task_; }
    [[nodiscard]] QComboBox* optimizerBox() const { return optimizer_; }
    [[nodiscard]] QDoubleSpinBox* learningRateBox() const { return rate_; }
    [[nodiscard]] QSpinBox* stepsBox() const { return steps_; }
    [[nodiscard]] QCheckBox* valuesBox() const { return values_; }
    [[nodiscard]] QCheckBox* sharedBox() const { return shared_; }
    [[nodiscard]] QPushButton* startButton() const { return start_; }
    [[nodiscard]] QPushButton* pauseButton() const { return pause_; }
    [[nodiscard]] QPushButton* stepButton() const { return step_; }
    [[nodiscard]] QPushButton* resetButton() const { return reset_; }
    [[nodiscard]] QPushButton* keepButton() const { return keep_; }
    [[nodiscard]] QPushButton* discardButton() const { return discard_; }
    [[nodiscard]] QPushButton* compareButton() const { return compare_; }
    [[nodiscard]] QLineEdit* filmStepsEdit() const { return filmSteps_; }
    [[nodiscard]] TrainerDisplay* display() const { return display_; }
    [[nodiscard]] QString message() const;  // the refusal or error shown, if any
    // The run (null when the task is refused) and, while comparing, the shared run.
    [[nodiscard]] TrainRun* run() const { return run_.get(); }
    [[nodiscard]] TrainRun* sharedRun() const { return sharedRun_.get(); }
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
    void showSharedSnapshot();
    void updateControls();
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
    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr;
    QPushButton* step_ = nullptr;
    QPushButton* reset_ = nullptr;
    QPushButton* keep_ = nullptr;
    QPushButton* discard_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* paint_ = nullptr;
    QPushButton* takeP_ = nullptr;
    QLineEdit* filmSteps_ = nullptr;
    QToolButton* export_ = nullptr;
    QLabel* status_ = nullptr;
    PanelMessage* message_ = nullptr;
    TrainerDisplay* display_ = nullptr;
    QTimer rebuildTimer_;

    attn::Matrix pattern_;  // your own pattern
    QString refusal_;       // why no run could be made
    std::unique_ptr<TrainRun> run_;
    std::unique_ptr<TrainRun> sharedRun_;  // "Compare with one shared projection"
    bool keeping_ = false;                 // our own Keep changed the document
    bool stale_ = false;                   // the document changed while the dock was hidden
    qint64 startedNs_ = 0;
    int startedSteps_ = 0;
};

}  // namespace attnlab
