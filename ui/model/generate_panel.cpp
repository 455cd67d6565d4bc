// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/generate_panel.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/model/model_document.h"

namespace attnlab {

namespace {

// Bars drawn: the most probable tokens (a draw beyond them is added).
constexpr int kBars = 16;

QColor keptColor()
{
    return QColor(52, 101, 164);
}
QColor cutColor()
{
    return QColor(200, 200, 200);
}
QColor drawnColor()
{
    return QColor(230, 120, 20);
}

QCPBars* barsOn(QCustomPlot* plot, const QColor& color)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setWidth(0.8);
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    return bars;
}

}  // namespace

GeneratePanel::GeneratePanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    build();
    retranslate();
    connect(document_, &ModelDocument::snapshotChanged, this, &GeneratePanel::refresh);
    connect(document_, &ModelDocument::writingChanged, this, &GeneratePanel::refresh);
    connect(document_, &ModelDocument::modelChanged, this, &GeneratePanel::refresh);
}

void GeneratePanel::build()
{
    generate_ = new QAction(this);
    generate_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    step_ = new QAction(this);
    step_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    stop_ = new QAction(this);
    connect(generate_, &QAction::triggered, this, [this] { document_->generate(count_->value()); });
    connect(step_, &QAction::triggered, document_, &ModelDocument::step);
    connect(stop_, &QAction::triggered, document_, &ModelDocument::stopWriting);
    // In a scroll area: docked under the head view with the trainer open at 1366 x 768, the
    // panel gets less height than its sliders, bars and sentence take, and must not make the
    // window taller than the screen.
    auto* content = new QWidget;
    plot_ = new QCustomPlot(content);
    plot_->setMinimumHeight(110);
    plot_->yAxis->setRange(0.0, 1.0);
    caption_ = new QLabel(content);
    caption_->setWordWrap(true);
    settingsNote_ = new QLabel(content);
    settingsNote_->setWordWrap(true);
    auto* inner = new QVBoxLayout(content);
    inner->setContentsMargins(4, 4, 4, 4);
    // The sentence above the bars: at 1366 x 768 the bars give way, not what they say.
    inner->addWidget(buildSettings(content));
    inner->addWidget(caption_);
    inner->addWidget(plot_, 1);
    inner->addWidget(settingsNote_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

// A slider in hundredths and its box show one value; a change of either is a new sampling.
void GeneratePanel::pairHundredths(QSlider* slider, QDoubleSpinBox* box)
{
    connect(slider, &QSlider::valueChanged, box, [box](int v) { box->setValue(v / 100.0); });
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, slider](double v) {
        const QSignalBlocker block(slider);
        slider->setValue(static_cast<int>(std::lround(v * 100.0)));
        pushSampling();
    });
}

// The sliders with their boxes, the seed and count, the buttons and the progress bar.
QWidget* GeneratePanel::buildSettings(QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    for (QLabel*& label : labels_) label = new QLabel(box);
    temperatureSlider_ = new QSlider(Qt::Horizontal, box);
    temperatureSlider_->setRange(0, 200);  // hundredths
    temperature_ = new QDoubleSpinBox(box);
    temperature_->setRange(0.0, 5.0);
    temperature_->setSingleStep(0.05);
    temperature_->setDecimals(2);
    topKSlider_ = new QSlider(Qt::Horizontal, box);
    topKSlider_->setRange(0, 100);
    topK_ = new QSpinBox(box);
    topK_->setRange(0, 100000);
    topPSlider_ = new QSlider(Qt::Horizontal, box);
    topPSlider_->setRange(1, 100);  // hundredths
    topP_ = new QDoubleSpinBox(box);
    topP_->setRange(0.01, 1.0);
    topP_->setSingleStep(0.01);
    topP_->setValue(1.0);
    topPSlider_->setValue(100);
    seed_ = new QSpinBox(box);
    seed_->setRange(0, 999999);
    count_ = new QSpinBox(box);
    count_->setRange(1, 4096);
    count_->setValue(20);
    pairHundredths(temperatureSlider_, temperature_);
    pairHundredths(topPSlider_, topP_);
    connect(topKSlider_, &QSlider::valueChanged, topK_, &QSpinBox::setValue);
    connect(topK_, &QSpinBox::valueChanged, this, [this](int v) {
        const QSignalBlocker block(topKSlider_);
        topKSlider_->setValue(v);
        pushSampling();
    });
    connect(seed_, &QSpinBox::valueChanged, this,
            [this](int v) { document_->setSeed(static_cast<std::uint64_t>(v)); });
    generateButton_ = new QPushButton(box);
    stepButton_ = new QPushButton(box);
    stopButton_ = new QPushButton(box);
    connect(generateButton_, &QPushButton::clicked, generate_, &QAction::trigger);
    connect(stepButton_, &QPushButton::clicked, step_, &QAction::trigger);
    connect(stopButton_, &QPushButton::clicked, stop_, &QAction::trigger);
    progress_ = new QProgressBar(box);
    progress_->hide();
    QWidget* rows[3][2] = {
        {temperatureSlider_, temperature_}, {topKSlider_, topK_}, {topPSlider_, topP_}};
    for (int r = 0; r < 3; ++r) {
        grid->addWidget(labels_[r], r, 0);
        grid->addWidget(rows[r][0], r, 1, 1, 3);
        grid->addWidget(rows[r][1], r, 4);
    }
    grid->addWidget(labels_[3], 3, 0);
    grid->addWidget(seed_, 3, 1);
    grid->addWidget(labels_[4], 3, 2);
    grid->addWidget(count_, 3, 3);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(generateButton_);
    buttons->addWidget(stepButton_);
    buttons->addWidget(stopButton_);
    buttons->addWidget(progress_, 1);
    grid->addLayout(buttons, 4, 0, 1, 5);
    grid->setColumnStretch(1, 1);
    return box;
}

void GeneratePanel::retranslate()
{
    generate_->setText(tr("&Generate"));
    generate_->setToolTip(tr("Let the model write the chosen number of tokens (Ctrl+G)"));
    step_->setText(tr("&Step"));
    step_->setToolTip(tr("Let the model write one token (Ctrl+Shift+G)"));
    stop_->setText(tr("S&top Writing"));
    stop_->setToolTip(tr("Stop the model writing (Esc); what it wrote stays"));
    generateButton_->setText(tr("Generate"));
    generateButton_->setToolTip(generate_->toolTip());
    stepButton_->setText(tr("Step"));
    stepButton_->setToolTip(step_->toolTip());
    stopButton_->setText(tr("Stop"));
    stopButton_->setToolTip(stop_->toolTip());
    labels_[0]->setText(tr("Temperature"));
    labels_[1]->setText(tr("Top-k"));
    labels_[2]->setText(tr("Top-p"));
    labels_[3]->setText(tr("Seed"));
    labels_[4]->setText(tr("Tokens"));
    temperature_->setToolTip(
        tr("0 is greedy: always the most probable token. Higher flattens "
           "the softmax, lower sharpens it, as √d_k scaling does in a head"));
    topK_->setSpecialValueText(tr("all"));
    topK_->setToolTip(tr("Keep only the k most probable tokens (0: all)"));
    topP_->setToolTip(tr("Keep the fewest most probable tokens whose probabilities reach p"));
    seed_->setToolTip(tr("The same seed draws the same tokens"));
    count_->setToolTip(tr("How many tokens Generate writes"));
    progress_->setFormat(tr("token %v of %m"));
    plot_->yAxis->setLabel(tr("probability"));
    refresh();
}

void GeneratePanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void GeneratePanel::pushSampling()
{
    attn::model::SamplingSettings s = document_->sampling();
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    document_->setSampling(s);
    showDistribution(document_->nextToken());
}

// The checkpoint's own generation settings: which are honoured, and the rest as listed.
QString GeneratePanel::settingsText() const
{
    const attn::model::GenerationSettings& g = document_->generationSettings();
    if (g.shown.empty()) return {};
    QStringList listed;
    for (const auto& [key, value] : g.shown)
        listed << QStringLiteral("%1 = %2").arg(QString::fromStdString(key),
                                                QString::fromStdString(value));
    return tr("The checkpoint's generation settings: %1. Its end-of-text ids and bad words are "
              "honoured; the rest is shown, not applied.")
        .arg(listed.join(QStringLiteral(", ")));
}

void GeneratePanel::refresh()
{
    settingsNote_->setText(settingsText());
    settingsNote_->setVisible(!settingsNote_->text().isEmpty());
    const bool writing = document_->writing();
    const ModelDocument::NextToken next = document_->nextToken();
    const bool canWrite = document_->hasModel() && !next.draw.ranked.empty();
    generate_->setEnabled(canWrite && !writing);
    step_->setEnabled(canWrite && !writing);
    stop_->setEnabled(writing);
    generateButton_->setEnabled(generate_->isEnabled());
    stepButton_->setEnabled(step_->isEnabled());
    stopButton_->setEnabled(writing);
    progress_->setVisible(writing);
    if (writing) {
        progress_->setRange(0, document_->writingAsked());
        progress_->setValue(document_->writingAsked() - document_->writingLeft());
    }
    showDistribution(next);
}

QString GeneratePanel::caption() const
{
    return caption_->text();
}

void GeneratePanel::showDistribution(const ModelDocument::NextToken& next)
{
    plot_->clearPlottables();
    const attn::model::TokenDraw& d = next.draw;
    const std::shared_ptr<const LoadedModel> loaded = document_->loaded();
    if (d.ranked.empty() || !loaded) {
        caption_->setText(
            tr("Open a model that writes (GPT-2 or the Llama family) and type a "
               "text: the bars show what it would write next."));
        plot_->replot();
        return;
    }
    QCPBars* kept = barsOn(plot_, keptColor());
    QCPBars* cut = barsOn(plot_, cutColor());
    QCPBars* drawn = barsOn(plot_, drawnColor());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int shown = static_cast<int>(std::min<std::size_t>(kBars, d.ranked.size()));
    double top = 0.0;
    for (int i = 0; i < shown; ++i) {
        const attn::model::Candidate& c = d.ranked[static_cast<std::size_t>(i)];
        QCPBars* into = next.drawn && c.id == d.id ? drawn : i < d.kept ? kept : cut;
        into->addData(i + 1, c.probability);
        top = std::max(top, c.probability);
        ticker->addTick(i + 1, QString::fromStdString(loaded->tokenizer->token(c.id).label));
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(shown > 8 ? 60 : 0);
    plot_->xAxis->setRange(0.4, shown + 0.6);
    plot_->yAxis->setRange(0.0, std::max(0.05, top * 1.1));
    const QString chosen = QString::fromStdString(loaded->tokenizer->token(d.id).label);
    QString text = tr("%n token(s) kept of the distribution (blue); grey: cut by top-k or top-p.",
                      "", static_cast<int>(d.kept));
    if (next.drawn && d.greedy)
        text +=
            QLatin1Char(' ') + tr("Greedy: wrote “%1”, the most probable (orange).").arg(chosen);
    else if (next.drawn)
        text +=
            QLatin1Char(' ') + tr("Drew “%1” (orange): the uniform number %2 fell in its share.")
                                   .arg(chosen)
                                   .arg(d.u, 0, 'f', 3);
    caption_->setText(text);
    plot_->replot();
}

}  // namespace attnlab
