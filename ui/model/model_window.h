// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The real-model window: a text box that re-runs the model as you type (on a worker, with a
// progress bar and Cancel), the model view's grid, the chosen map enlarged with its query's
// strongest keys, the head view and the predictions. File ▸ Open model… or a folder dropped
// on the window opens a checkpoint; File ▸ Export writes the grid, the enlarged map or the
// head view as PNG, SVG or PDF. One ModelDocument holds the state; this class assembles.

#include <functional>

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace attnlab {

class Autosave;
class HeadScoresSource;
class HeadViewPanel;
class GeneratePanel;
class ModelChangePanel;
class ModelDocument;
class ModelFocusPanel;
class ModelGridView;
class ModelPresenter;
class ModelTrainerPanel;
class PanelMessage;
class PredictionsPanel;

enum class ModelExport { Grid, Focus, HeadView };

// The dialogs the window shows; tests replace them.
struct ModelWindowDialogs {
    std::function<QString(const QString& startDir)> openFolder;  // "" = cancelled
    std::function<QString(const QString& suggestion)> savePath;  // "" = cancelled
    std::function<void(const QString& title, const QString& text)> warn;
};

class ModelWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit ModelWindow(QWidget* parent = nullptr);

    [[nodiscard]] ModelDocument* document() const { return doc_; }
    // Opens a checkpoint folder; on failure warns (naming the file and the tensor or field),
    // keeps what was open and returns false.
    bool openFolder(const QString& folder);
    bool openFolderDialog();
    // Sets the text (as if typed) and runs it at once.
    void setText(const QString& text);
    // Writes one of the figures; false with a translated `error`.
    bool exportTo(ModelExport what, const QString& path, QString& error) const;
    void setDialogs(const ModelWindowDialogs& dialogs) { dialogs_ = dialogs; }
    // The textbook's example sentences offered above the text box.
    static QStringList exampleTexts();
    // Where an encoder-decoder folder goes: a translator window of its own (openTranslator);
    // the application's ModelWindows opens it through itself, so that the workbench is wired.
    std::function<bool(const QString& folder, QString& error)> translatorOpener;

    [[nodiscard]] QLineEdit* textBox() const { return text_; }
    [[nodiscard]] ModelGridView* grid() const { return grid_; }
    [[nodiscard]] ModelFocusPanel* focusPanel() const { return focus_; }
    [[nodiscard]] HeadViewPanel* headView() const { return headView_; }
    [[nodiscard]] PredictionsPanel* predictions() const { return predictions_; }
    [[nodiscard]] ModelChangePanel* changePanel() const { return change_; }
    // The Generate dock: the model writes after the text (tabbed with the predictions).
    [[nodiscard]] GeneratePanel* generatePanel() const { return generate_; }
    // The head detectors' scores of the open model (the Head kinds panel's).
    [[nodiscard]] HeadScoresSource* headScores() const { return headScores_; }
    [[nodiscard]] QProgressBar* progressBar() const { return progress_; }
    [[nodiscard]] QPushButton* cancelButton() const { return cancel_; }
    [[nodiscard]] PanelMessage* message() const { return message_; }
    // Train ▸ Model Trainer: trains a small GPT-2 in a dock at the bottom (hidden until asked).
    [[nodiscard]] ModelTrainerPanel* trainer() const { return trainer_; }
    // Shows the trainer's dock; with `layers` > 0 it is set to the induction task with that
    // many layers (the lesson "Induction heads form").
    void showTrainer(int layers = 0);
    // The trainer on the dates translator's page (its run as it was, or a new one at step 0).
    void showTranslatorTrainer();
    // The names of this window's work that no file holds (a trained model not saved), for the
    // question before quitting; empty when there is none.
    [[nodiscard]] QStringList unsavedWork() const;
    // Saves that work (asking where); false when a save was cancelled or failed.
    bool saveUnsavedWork();
    // View ▸ Presenter view (F5) of the enlarged head, the model view or the head view.
    [[nodiscard]] ModelPresenter* presenter() const { return presenter_; }

    // Keeps the folder, text, edits and open head for recovery after a crash
    // (model_recovery.h) while a model is open.
    [[nodiscard]] Autosave* autosave() const { return autosave_; }

    // Shows the window in front (after a folder was opened from elsewhere).
    void present();
    // The folder last opened in any model window (settings), "" when none.
    static QString lastFolder();

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildInterface();
    QWidget* buildTextRow();
    void buildCentral(QWidget* top);
    void buildDocks();
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildTrainMenu();
    void buildGenerateMenu();
    void buildViewAndHelpMenus();
    void exportWithDialog(ModelExport what);
    // The folder's name, or "builtin:NAME" for a built-in model: for titles.
    [[nodiscard]] QString modelName() const;
    void updateTitle();
    void updateProgress();
    void showRunning(bool running);

    ModelDocument* doc_;
    ModelPresenter* presenter_ = nullptr;
    Autosave* autosave_ = nullptr;
    ModelWindowDialogs dialogs_;
    QLineEdit* text_ = nullptr;
    QComboBox* examples_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    PanelMessage* message_ = nullptr;
    ModelGridView* grid_ = nullptr;
    ModelFocusPanel* focus_ = nullptr;
    HeadViewPanel* headView_ = nullptr;
    HeadScoresSource* headScores_ = nullptr;
    PredictionsPanel* predictions_ = nullptr;
    ModelChangePanel* change_ = nullptr;
    GeneratePanel* generate_ = nullptr;
    QTimer* progressTimer_ = nullptr;
    ModelTrainerPanel* trainer_ = nullptr;
    QDockWidget* trainerDock_ = nullptr;
    QList<QPointer<QObject>> built_;
};

}  // namespace attnlab
