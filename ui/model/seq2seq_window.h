// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator window, for an encoder-decoder (BART, Marian, T5): a source box and a target
// box, Translate (Ctrl+T) filling the target greedily word by word, the three grids of the
// kernel's three calls (encoder, decoder, cross) with a line saying which tokens are queries
// and which keys, the chosen map enlarged or drawn as bertviz's head view (source on the left,
// target on the right), and the predictions at each target position. Right-click a head to
// switch it off or scale a key: the run, the translation and the predictions follow, and
// Ctrl+Z takes it back. One Seq2SeqDocument holds the state; this class assembles.

#include <functional>
#include <vector>

#include <QMainWindow>
#include <QPointer>

#include "core/model/head_edit.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace attnlab {

class Autosave;
struct HeatmapContent;
class HeatmapView;
class MarkStore;
class PanelMessage;
class PresenterWindow;
class Seq2SeqDocument;
class Seq2SeqGridView;
class Seq2SeqHeadView;

class Seq2SeqWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit Seq2SeqWindow(QWidget* parent = nullptr);

    [[nodiscard]] Seq2SeqDocument* document() const { return doc_; }
    // Opens an encoder-decoder folder; on failure says why (naming the file and the field, also
    // in `error` when given) and keeps what was open.
    bool openFolder(const QString& folder, QString* error = nullptr);
    // Sets the source (as if typed) and translates it.
    void setSource(const QString& text);
    // A recovered window's texts and edits: the source, a typed target (empty: the model
    // translates) and the head edits, run as one.
    void restore(const QString& source, const QString& target,
                 std::vector<attn::model::HeadEdit> edits);
    // Crash recovery: the open model, texts, edits and selected head, written a few seconds
    // after each change (seq2seq_recovery.h); removed when the window closes normally.
    [[nodiscard]] Autosave* autosave() const { return autosave_; }
    // The map shown enlarged as PNG, SVG or PDF; false with a translated `error`.
    bool exportMap(const QString& path, QString& error) const;
    // Tests replace the file dialogs.
    std::function<QString(const QString& suggestion)> savePath;
    std::function<QString()> openPath;

    [[nodiscard]] QLineEdit* sourceBox() const { return source_; }
    [[nodiscard]] QLineEdit* targetBox() const { return target_; }
    [[nodiscard]] QPushButton* translateButton() const { return translate_; }
    [[nodiscard]] QLabel* explanation() const { return explanation_; }
    [[nodiscard]] Seq2SeqGridView* grid(int kind) const { return grids_[kind]; }
    [[nodiscard]] HeatmapView* map() const { return map_; }
    [[nodiscard]] Seq2SeqHeadView* headView() const { return headView_; }
    [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
    [[nodiscard]] QTableWidget* predictions() const { return predictions_; }
    [[nodiscard]] PanelMessage* message() const { return message_; }
    // View ▸ Presenter View: the selected head's enlarged map ("map"), its head view
    // ("head-view"), or the three grids ("grids"), full screen with large text and the marking
    // tools; a second view of the same document, so a run or an edit shows in both. F5 presents
    // the figure of the tab in front. False for an unknown view.
    bool present(const QString& view);
    [[nodiscard]] PresenterWindow* presenterWindow() const;

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    static QString sampleSource(const QString& folder);
    QWidget* buildTextRows();
    QWidget* buildCentral();
    void buildMenus();
    void refreshRun();
    void refreshSelection();
    void refreshPredictions();
    void retranslate();
    // The selected head's map as the Map tab draws it (empty without a run).
    [[nodiscard]] HeatmapContent selectedMapContent() const;

    Seq2SeqDocument* doc_;
    QLineEdit* source_ = nullptr;
    QLineEdit* target_ = nullptr;
    QLabel* sourceLabel_ = nullptr;
    QLabel* targetLabel_ = nullptr;
    QPushButton* translate_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* explanation_ = nullptr;
    PanelMessage* message_ = nullptr;
    Seq2SeqGridView* grids_[3] = {nullptr, nullptr, nullptr};
    QTabWidget* tabs_ = nullptr;
    HeatmapView* map_ = nullptr;
    Seq2SeqHeadView* headView_ = nullptr;
    QTableWidget* predictions_ = nullptr;
    MarkStore* marks_ = nullptr;
    QPointer<PresenterWindow> presented_;
    Autosave* autosave_ = nullptr;
};

// Whether `folder`'s config.json names an encoder-decoder (bart, marian, t5).
bool isEncoderDecoderFolder(const QString& folder);
// `folder` in `window` (a new translator window of its own when null, deleted when closed),
// shown and raised; nullptr with `error` (translated, naming the file) when the folder cannot
// be opened, and the window is then deleted.
Seq2SeqWindow* openTranslator(const QString& folder, QString& error,
                              Seq2SeqWindow* window = nullptr);

}  // namespace attnlab
