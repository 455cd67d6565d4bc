// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model window's Generate panel: the model writes after the text. Temperature, top-k and
// top-p as sliders with spin boxes, the seed, how many tokens; Generate (Ctrl+G), Step
// (Ctrl+Shift+G) and Stop (Esc); a progress bar while it writes; and the next-token
// distribution as bars: the most probable tokens at the chosen temperature, those top-k and
// top-p cut shaded grey, and after a token was drawn, which one it was and where the uniform
// number fell. It reads the document and calls its named operations (setSampling, setSeed,
// generate, step, stopWriting); the distribution comes from the core's sampler
// (ModelDocument::nextTokenDraw).

#include <QWidget>

#include "ui/model/model_document.h"

class QAction;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;

namespace attnlab {

class GeneratePanel : public QWidget {
    Q_OBJECT
public:
    explicit GeneratePanel(ModelDocument* document, QWidget* parent = nullptr);

    [[nodiscard]] QAction* generateAction() const { return generate_; }
    [[nodiscard]] QAction* stepAction() const { return step_; }
    [[nodiscard]] QAction* stopAction() const { return stop_; }
    [[nodiscard]] QDoubleSpinBox* temperatureBox() const { return temperature_; }
    [[nodiscard]] QSpinBox* topKBox() const { return topK_; }
    [[nodiscard]] QDoubleSpinBox* topPBox() const { return topP_; }
    [[nodiscard]] QSpinBox* seedBox() const { return seed_; }
    [[nodiscard]] QSpinBox* countBox() const { return count_; }
    [[nodiscard]] QCustomPlot* plot() const { return plot_; }
    // The sentence under the bars: what was kept, cut and drawn.
    [[nodiscard]] QString caption() const;
    // The checkpoint's generation settings as the panel lists them ("" when it gives none).
    [[nodiscard]] QString settingsText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void build();
    QWidget* buildSettings(QWidget* parent);
    void retranslate();
    void pushSampling();
    void refresh();
    void pairHundredths(QSlider* slider, QDoubleSpinBox* box);
    void showDistribution(const ModelDocument::NextToken& next);

    ModelDocument* document_;
    QAction* generate_ = nullptr;
    QAction* step_ = nullptr;
    QAction* stop_ = nullptr;
    QSlider* temperatureSlider_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QSlider* topKSlider_ = nullptr;
    QSpinBox* topK_ = nullptr;
    QSlider* topPSlider_ = nullptr;
    QDoubleSpinBox* topP_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QSpinBox* count_ = nullptr;
    QPushButton* generateButton_ = nullptr;
    QPushButton* stepButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* labels_[6] = {};
    QCustomPlot* plot_ = nullptr;
    QLabel* caption_ = nullptr;
    QLabel* settingsNote_ = nullptr;
};

}  // namespace attnlab
