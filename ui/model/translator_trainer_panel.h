// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model trainer's translator page (the task "Dates → English"): trains a small
// Marian-layout encoder-decoder on the dates task (core/train/dates_run.h) on a worker
// (TrainingRun) and shows its cross-attention learning to align: the loss and exact match of
// the translations, every cross-attention head's alignment with the best one in black, and a
// live map of one head on a fixed date. When the best head first passes 0.5 the step is marked
// on both plots and said in a sentence. Frames of the map at chosen steps export as a film
// strip; Open in Model Window writes the model as a Marian folder and opens it in the
// translator window, where its heads can be switched off and the translation watched.

#include <functional>
#include <memory>
#include <vector>

#include <QWidget>

#include "core/train/dates_run.h"
#include "ui/model/model_train_run.h"
#include "ui/model/translator_cross_view.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace attnlab {

class AlignmentCurvePlot;
class PanelMessage;
class TrainingControls;
class TrainingCurvePlot;

using TranslatorTrainRun = TrainingRun<attn::dates::TranslatorRun>;

class TranslatorTrainerPanel : public QWidget {
    Q_OBJECT
public:
    // What the panel asks of its host: where to save and export, and how to open a folder.
    struct Host {
        std::function<QString(const QString& suggestion)> saveFolder;
        std::function<QString(const QString& suggestion)> figurePath;
        std::function<bool(const QString& folder, const QString& text)> open;
    };

    explicit TranslatorTrainerPanel(QWidget* parent = nullptr);
    ~TranslatorTrainerPanel() override;
    void setHost(const Host& host) { host_ = host; }

    // The window's measures: denser than the command's (smoother curves, the step alignment
    // forms found to 25), on 100 dates per form; 200 after the last step.
    static constexpr long kMeasureEvery = 25;
    static constexpr long kFinalCount = 200;
    // The default film strip: before training, as alignment forms (steps 50-150 of the
    // default recipe) and at the end.
    static constexpr const char* kDefaultFilmSteps = "0, 50, 100, 150, 300, 1200";

    // Puts `header` (the trainer's task row) above the settings.
    void setHeader(QWidget* header);
    // Makes the run at step 0 if there is none yet (its vocabulary is trained first, a
    // moment's work): when the page is first shown rather than with the model window.
    void prepare();

    void start();
    void pause();
    void stepOnce();
    void reset();
    void keepStep();
    // Writes the trained model (paused or finished) as a Hugging Face Marian folder.
    bool saveTo(const QString& folder, QString& error);
    // Writes it under the application's data and opens it (the translator window).
    bool openInModelWindow(QString& error);
    bool exportFilmStrip(const QString& path, QString& error);
    [[nodiscard]] bool hasUnsavedModel() const;
    [[nodiscard]] QString unsavedModelName() const;
    // As ModelTrainerPanel::saveUnsavedModel.
    bool saveUnsavedModel();

    [[nodiscard]] attn::dates::RunSpec spec() const;
    [[nodiscard]] TranslatorTrainRun* run() const { return run_.get(); }
    // The measure at which alignment formed (the best head first above 0.5), if it has.
    [[nodiscard]] const attn::dates::Point* formed() const;
    // The head the live map and the film strip show.
    [[nodiscard]] CrossHead shownHead() const;
    [[nodiscard]] QSpinBox* stepsBox() const { return steps_; }
    [[nodiscard]] QSpinBox* headsBox() const { return heads_; }
    [[nodiscard]] QComboBox* headChoice() const { return headChoice_; }
    [[nodiscard]] TrainingControls* runControls() const { return runControls_; }
    [[nodiscard]] QPushButton* startButton() const;
    [[nodiscard]] QPushButton* openButton() const { return open_; }
    [[nodiscard]] QPushButton* saveButton() const { return save_; }
    [[nodiscard]] QLineEdit* filmStepsEdit() const { return filmSteps_; }
    [[nodiscard]] QLabel* statusLabel() const { return status_; }
    [[nodiscard]] QLabel* formedLabel() const { return formedLabel_; }
    [[nodiscard]] TrainingCurvePlot* lossPlot() const { return lossPlot_; }
    [[nodiscard]] AlignmentCurvePlot* alignmentPlot() const { return alignPlot_; }
    [[nodiscard]] TranslatorCrossView* crossView() const { return crossView_; }
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
    void layOut(QWidget* controls);
    void connectControls();
    void retranslate();
    void retranslateHeads();
    bool makeRun();
    void takeSnapshot();
    void showMap();
    void updateState();
    void applyFilmSteps();
    [[nodiscard]] QString formedSentence(const attn::dates::Point& p) const;

    Host host_;
    std::unique_ptr<TranslatorTrainRun> run_;
    long savedSteps_ = -1;
    attn::dates::LiveExample example_;  // the run's, kept while it trains
    QStringList rowLabels_, columnLabels_;

    QGridLayout* grid_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QLabel *encoderLabel_, *decoderLabel_, *headsLabel_, *widthLabel_, *stepsLabel_, *seedLabel_;
    QSpinBox *encoder_, *decoder_, *heads_, *width_, *steps_, *seed_;
    TrainingControls* runControls_;
    QLabel* status_;
    QLabel* formedLabel_;
    QPushButton *open_, *save_, *keep_, *exportStrip_;
    QLabel *filmLabel_, *headLabel_;
    QLineEdit* filmSteps_;
    QComboBox* headChoice_;
    PanelMessage* message_;
    TrainingCurvePlot* lossPlot_;
    AlignmentCurvePlot* alignPlot_;
    TranslatorCrossView* crossView_;
};

}  // namespace attnlab
