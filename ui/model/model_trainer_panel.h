// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model trainer (a dock of the model window): trains a whole small GPT-2 on a worker
// (ModelTrainRun) and shows it learning: the loss and copy accuracy, every head's induction and
// previous-token scores over the steps, the live grid of every head's map on a repeated
// sequence, and the phase change marked on both plots when loss and induction score move
// together. The settings make a run at step 0 right away; Start / Pause / Step drive it; the
// settings are locked once it has taken a step, until Reset. Frames of the grid at chosen steps
// export as a film strip; Open in Model Window writes the model as a GPT-2 folder and opens it
// there, where its heads can be switched off and the predictions watched. Its third task, the
// dates translator, shows TranslatorTrainerPanel in place of all this (translator_trainer_panel.h);
// the task row moves with the page, and each page's run keeps its state.

#include <functional>
#include <memory>

#include <QWidget>

#include "core/train/phase_change.h"
#include "ui/model/model_train_run.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QGridLayout;

namespace attnlab {

class HeadScoreCurvePlot;
class ModelTrainGrid;
class PanelMessage;
class TrainingControls;
class TrainingCurvePlot;
class TranslatorTrainerPanel;

struct ModelTrainerDialogs {
    std::function<QString(const QString& suggestion)> saveFolder;
    std::function<QString(const QString& suggestion)> figurePath;
    std::function<QString()> corpusFile;
};

class ModelTrainerPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelTrainerPanel(QWidget* parent = nullptr);
    ~ModelTrainerPanel() override;

    // Opens a trained model's folder in the model window on `text`; false when it could not.
    using OpenModel = std::function<bool(const QString& folder, const QString& text)>;
    void setOpenModel(OpenModel open) { open_ = std::move(open); }
    void setDialogs(const ModelTrainerDialogs& dialogs) { dialogs_ = dialogs; }

    // The speed slider's steps per second, slowest first; 0 is full speed (the last position).
    static constexpr int kSpeeds[] = {10, 25, 50, 100, 0};
    // The default film strip: before training, around the phase change of the built-in
    // induction recipe (steps 1000-1300) and at the end.
    static constexpr const char* kDefaultFilmSteps = "0, 500, 1000, 1100, 1200, 1500, 3000";

    // The induction task with `layers` layers, attention only, the defaults otherwise (the
    // lesson "Induction heads form" trains 1, then 2); a new run at step 0.
    void presetInduction(int layers);
    // The task combo's entries: induction, a text file, then the dates translator, whose page
    // (TranslatorTrainerPanel) replaces the GPT-2 trainer's while it is chosen.
    static constexpr int kTranslatorTask = 2;
    // Shows the task's page (both runs keep their state).
    void showTask(int index);
    [[nodiscard]] bool showsTranslator() const;
    [[nodiscard]] TranslatorTrainerPanel* translator() const { return translator_; }
    // Reads a UTF-8 text file as the corpus (a new run at step 0); false with the message shown.
    bool useCorpus(const QString& path);

    void start();
    void pause();
    void stepOnce();
    void reset();
    // Keeps the grid of the current step for the film strip.
    void keepStep();
    // Writes the trained model (paused or finished) as a Hugging Face GPT-2 folder.
    bool saveTo(const QString& folder, QString& error);
    // Writes it to a folder of its own under the application's data and opens it in the
    // model window.
    bool openInModelWindow(QString& error);
    bool exportFilmStrip(const QString& path, QString& error);
    // The run has steps that no folder holds: Save Model… (or Open in Model Window, which
    // writes it too) has not written the model as it stands.
    [[nodiscard]] bool hasUnsavedModel() const;
    // What the model is called in the question before quitting ("Trained model, step 40 of
    // 3000 (the model trainer)").
    [[nodiscard]] QString unsavedModelName() const;
    // Save Model… for File ▸ Quit: pauses a run that is training, asks for a folder and writes
    // the model there. True when nothing is unsaved or it was written; false when the folder
    // was not chosen or the model could not be written (the panel says why).
    bool saveUnsavedModel();

    // The run's Start, Step, Reset and speed in the trainer's words and language.
    static void wordRunControls(TrainingControls* controls);
    // Parses "0, 500, 1000" (commas or spaces); false when a part is not a whole number >= 0.
    static bool parseFilmSteps(const QString& text, std::vector<long>& out);

    [[nodiscard]] ModelTrainRun* run() const { return run_.get(); }
    [[nodiscard]] const attn::gpt2::PhaseChange& phase() const { return phase_; }
    [[nodiscard]] attn::gpt2::RunSpec spec() const;
    [[nodiscard]] QSpinBox* layersBox() const { return layers_; }
    [[nodiscard]] QSpinBox* headsBox() const { return heads_; }
    [[nodiscard]] QSpinBox* widthBox() const { return width_; }
    [[nodiscard]] QSpinBox* contextBox() const { return context_; }
    [[nodiscard]] QSpinBox* stepsBox() const { return steps_; }
    [[nodiscard]] TrainingControls* runControls() const { return runControls_; }
    // Start is also Pause while the run trains.
    [[nodiscard]] QPushButton* startButton() const;
    [[nodiscard]] QPushButton* stepButton() const;
    [[nodiscard]] QPushButton* resetButton() const;
    [[nodiscard]] QPushButton* openButton() const { return open_button_; }
    [[nodiscard]] QSlider* speedSlider() const;
    [[nodiscard]] QLineEdit* filmStepsEdit() const { return filmSteps_; }
    [[nodiscard]] QLabel* statusLabel() const { return status_; }
    [[nodiscard]] QLabel* phaseLabel() const { return phaseLabel_; }
    [[nodiscard]] TrainingCurvePlot* lossPlot() const { return lossPlot_; }
    [[nodiscard]] HeadScoreCurvePlot* headPlot() const { return headPlot_; }
    [[nodiscard]] ModelTrainGrid* grid() const { return grid_; }
    [[nodiscard]] QString message() const;

Q_SIGNALS:
    // After a snapshot of the run was shown (tests wait on it).
    void shown();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void build();
    void makeControls(QWidget* controls);
    void layOutControls(QWidget* controls);
    void layOut(QWidget* controls);
    void connectControls();
    void retranslate();
    // The controls' column as wide and as high as its words need (they wrap and grow as the
    // run goes on), so that it never scrolls them out of view.
    void fitControls();
    // A run at step 0 from the settings; false with the reason shown.
    bool makeRun();
    void takeSnapshot();
    void updateState();
    void applyFilmSteps();
    [[nodiscard]] int stepDelayUs() const;
    [[nodiscard]] QString sampleText() const;
    [[nodiscard]] bool gptUnsaved() const;

    OpenModel open_;
    ModelTrainerDialogs dialogs_;
    std::unique_ptr<ModelTrainRun> run_;
    long savedSteps_ = -1;  // the steps of run_ that the last folder written holds
    attn::gpt2::PhaseChange phase_;
    std::string corpus_;
    QString corpusPath_;

    TranslatorTrainerPanel* translator_;
    QStackedWidget* pages_;
    QGridLayout* controlsGrid_;
    QWidget* taskRow_;
    int gptTask_ = 0;  // the GPT-2 page's task (0 or 1)
    QLabel* taskLabel_;
    QComboBox* task_;
    QPushButton* chooseCorpus_;
    QLabel *layersLabel_, *headsLabel_, *widthLabel_, *contextLabel_, *stepsLabel_, *seedLabel_;
    QSpinBox *layers_, *heads_, *width_, *context_, *steps_, *seed_;
    QCheckBox* attentionOnly_;
    TrainingControls* runControls_;  // Start (and Pause), Step, Reset and the speed
    QLabel* status_;
    QLabel* phaseLabel_;
    QPushButton *open_button_, *save_, *keep_, *exportStrip_;
    QLabel* filmLabel_;
    QLineEdit* filmSteps_;
    PanelMessage* message_;
    QScrollArea* controlsScroll_;
    TrainingCurvePlot* lossPlot_;
    HeadScoreCurvePlot* headPlot_;
    ModelTrainGrid* grid_;
};

}  // namespace attnlab
