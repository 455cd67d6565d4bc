// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The five steps of the text, revealed one at a time:
//   1 projections Q = X·W_Q, K = X·W_K, V = X·W_V;  2 scores S = Q·Kᵀ;
//   3 scaling S / √d_k (or τ, or none);  4 row softmax with the mask → P;  5 output O = P·V.
// The stage heatmaps of steps 1..k are shown, those of step k framed; later ones are
// placeholders. A caption per step gives the formula with the session's shapes. Keys:
// Right/PageDown/Space forward, Left/PageUp/Backspace back, Home/End first/last.
// setFontScale() enlarges every text for the presenter view. It only reads the document.

#include <array>

#include <QFont>
#include <QWidget>

#include "ui/panels/pipeline_panel.h"

class QAbstractButton;
class QFrame;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QVBoxLayout;
class QPushButton;

namespace attnlab {

class Document;
class HeatmapView;

class WalkthroughPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int StepCount = 5;
    static constexpr int StageCount = PipelinePanel::StageCount;

    explicit WalkthroughPanel(Document* document, QWidget* parent = nullptr);

    [[nodiscard]] int step() const { return step_; }  // 1 .. StepCount
    // The step (1..5) in which a stage (attnlab::Stage, as an int) is computed.
    [[nodiscard]] static int stepOfStage(int stage);
    [[nodiscard]] bool isRevealed(int stage) const { return stepOfStage(stage) <= step_; }
    [[nodiscard]] bool isCurrent(int stage) const { return stepOfStage(stage) == step_; }
    [[nodiscard]] HeatmapView* stageView(int stage) const;
    [[nodiscard]] HeatmapView* stageView(Stage stage) const
    {
        return stageView(static_cast<int>(stage));
    }
    // The caption of the current step, or of `step`, with the session's shapes.
    [[nodiscard]] QString caption() const { return caption(step_); }
    [[nodiscard]] QString caption(int step) const;
    // "Step 2 of 5".
    [[nodiscard]] QString stepIndicator() const;
    [[nodiscard]] QFont captionFont() const;

    // 1 = normal; the presenter view uses 2.
    void setFontScale(double scale);
    [[nodiscard]] double fontScale() const { return fontScale_; }
    // The scale of the heatmaps' titles and labels, a little less than fontScale().
    [[nodiscard]] double mapFontScale() const;
    // The "Presenter view" button (shown in the tab, hidden in the presenter itself).
    void setPresenterButtonVisible(bool visible);

public Q_SLOTS:
    void setStep(int step);  // clamped to 1 .. StepCount
    void next();
    void back();
    void first() { setStep(1); }
    void last() { setStep(StepCount); }

Q_SIGNALS:
    void stepChanged(int step);
    void presenterRequested();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // The back/next bar with the step buttons under it, and the rows of stage maps.
    void addNavigation(QVBoxLayout* layout);
    void addMaps(QVBoxLayout* layout);
    // The row that is not the current step's would be too low for legible thumbnails.
    [[nodiscard]] bool otherRowTooLow() const;
    [[nodiscard]] int thumbnailHeight() const;  // of a legible thumbnail card
    void placeTopCards(bool twoByTwo);
    // Step 1's maps would have more legible cells two by two than side by side.
    [[nodiscard]] bool twoByTwoReadsBetter() const;
    void rebuild();
    void updateStep();
    void retranslate();
    void applyFonts();
    [[nodiscard]] QString stepName(int step) const;
    [[nodiscard]] QString stageName(int stage) const;

    Document* document_;
    QFont baseFont_;
    double fontScale_ = 1.0;
    int step_ = 1;
    QLabel* caption_ = nullptr;
    QLabel* indicator_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QPushButton* presenter_ = nullptr;
    std::array<QAbstractButton*, StepCount> stepButtons_{};
    std::array<QFrame*, StageCount> cards_{};
    QVBoxLayout* rows_ = nullptr;    // the two rows of cards
    QGridLayout* top_ = nullptr;     // step 1's cards
    QHBoxLayout* bottom_ = nullptr;  // the cards of steps 2..5
    std::array<HeatmapView*, StageCount> views_{};
    std::array<QLabel*, StageCount> placeholders_{};
    std::array<QLabel*, 2> rowNotes_{};  // shown instead of a folded row
};

}  // namespace attnlab
