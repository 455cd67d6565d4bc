// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/cost_panel.h"

#include <algorithm>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/panels/cost_plot.h"
#include "ui/views/stage_content.h"

namespace attnlab {

namespace {

QString bytesText(std::size_t bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

QString modeText(attn::Mode mode)
{
    return mode == attn::Mode::Cross
               ? CostPanel::tr("%1, source as long as the target").arg(modeTitle(mode))
               : modeTitle(mode);
}

}  // namespace

CostPanel::CostPanel(Document* doc, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      intro_(new QLabel(this)),
      nLabel_(new QLabel(this)),
      n_(new QSpinBox(this)),
      measure_(new QPushButton(this)),
      cancel_(new QPushButton(this)),
      status_(new QLabel(this)),
      facts_(new QLabel(this)),
      plot_(new CostPlot(this))
{
    setObjectName(QStringLiteral("CostPanel"));
    n_->setObjectName(QStringLiteral("CostN"));
    measure_->setObjectName(QStringLiteral("CostMeasure"));
    cancel_->setObjectName(QStringLiteral("CostCancel"));
    status_->setObjectName(QStringLiteral("CostStatus"));
    n_->setRange(16, 1000000);
    n_->setValue(4096);
    n_->setGroupSeparatorShown(true);
    n_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    nLabel_->setBuddy(n_);
    cancel_->setEnabled(false);
    for (QLabel* l : {intro_, status_, facts_}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    for (QLabel* l : {intro_, status_, facts_}) {
        l->setMaximumWidth(420);
        l->setMinimumWidth(300);
    }

    // The plot takes the panel's whole height, its words and controls a column beside it:
    // under a map at 1366×768 the bottom area has about 340 px, not enough for words above
    // a plot whose axes must show.
    auto* row = new QHBoxLayout;
    row->addWidget(nLabel_);
    row->addWidget(n_);
    row->addWidget(measure_);
    row->addWidget(cancel_);
    row->addStretch(1);
    auto* side = new QVBoxLayout;
    side->addWidget(intro_);
    side->addLayout(row);
    side->addWidget(status_);
    side->addWidget(facts_);
    side->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(plot_, 1);
    layout->addLayout(side);

    connect(measure_, &QPushButton::clicked, this, &CostPanel::measure);
    connect(cancel_, &QPushButton::clicked, this, &CostPanel::cancel);
    connect(doc_, &Document::inputsChanged, this, &CostPanel::updateShape);
    updateShape();
    retranslate();
}

// The point being measured is waited for by the job's destructor; its work holds no pointer
// to the panel.
CostPanel::~CostPanel() = default;

void CostPanel::setMaxN(long n)
{
    n_->setValue(static_cast<int>(std::clamp<long>(n, n_->minimum(), n_->maximum())));
}

void CostPanel::setLimits(const attn::Limits& limits)
{
    if (running_) return;
    limits_ = limits;
    plot_->setShape(shape_, limits_);
    retranslate();
}

long CostPanel::maxN() const
{
    return n_->value();
}

QString CostPanel::message() const
{
    return status_->text();
}

void CostPanel::updateShape()
{
    if (running_) return;  // the run in progress keeps the sizes it started with
    const CostShape now = costShapeOf(doc_->session().input, doc_->session().seed);
    if (!points_.empty() && !(now == shape_)) {
        // Those points timed another session: they do not go under this one's header.
        points_.clear();
        plot_->setPoints(points_);
        status_->setText(tr("The session changed: press Measure to time this one."));
    }
    shape_ = now;
    plot_->setShape(shape_, limits_);
    retranslate();
}

void CostPanel::retranslate()
{
    nLabel_->setText(tr("Up to &n:"));
    n_->setToolTip(tr("The longest sequence to measure; shorter ones (128, 256, …) come first."));
    measure_->setText(tr("&Measure"));
    cancel_->setText(tr("S&top"));
    const QLocale locale;
    intro_->setText(
        tr("Random inputs with this session's sizes and options (%4, %5; d_model = %1, "
           "d_k = %2, d_v = %3, %n head(s)), computed by the core on a worker thread: in double "
           "precision keeping every stage while that fits the memory budget, beyond it keeping "
           "only the weights, in float.",
           nullptr, static_cast<int>(shape_.heads))
            .arg(shape_.dModel)
            .arg(shape_.dK)
            .arg(shape_.dV)
            .arg(modeText(shape_.mode), shape_.score == attn::ScoreFunction::Additive
                                            ? tr("additive scores")
                                            : tr("dot-product scores")));
    const long full = largestFittingN(shape_, limits_);
    const long measurable = largestMeasurableN(shape_, limits_);
    QString facts =
        tr("n queries × n keys = n² scores: n = 1,000 gives 10⁶, n = 100,000 gives 10¹⁰ — "
           "%1 as doubles for one matrix. The memory budget is %2: every stage (scores, scaled "
           "scores, weights, mask, Q, K, V, output) fits in double up to n = %3.")
            .arg(bytesText(std::size_t{80000000000}), bytesText(limits_.maxBytes),
                 locale.toString(full));
    if (measurable > full)
        facts += QLatin1Char(' ') +
                 tr("Keeping only the weights, in float (n²·h·4 bytes; a row's scores are "
                    "recomputed when needed), reaches n = %1.")
                     .arg(locale.toString(measurable));
    facts_->setText(facts);
    if (status_->text().isEmpty()) status_->setText(tr("Press Measure to time the core."));
}

bool CostPanel::measure()
{
    if (running_) return false;
    const long top = maxN();
    const QLocale locale;
    if (const std::size_t need = costBytesFor(top, shape_, limits_); need > limits_.maxBytes) {
        status_->setText(
            tr("n = %1 is refused, not attempted: it would need %2, more than the memory budget "
               "of %3. The largest n that fits is %4.")
                .arg(locale.toString(top), bytesText(need), bytesText(limits_.maxBytes),
                     locale.toString(largestMeasurableN(shape_, limits_))));
        return false;
    }
    points_.clear();
    plot_->setPoints(points_);
    running_ = true;
    ++started_;
    measure_->setEnabled(false);
    cancel_->setEnabled(true);
    n_->setEnabled(false);
    status_->setText(tr("Measuring…"));
    sizes_ = costSizes(top);
    next_ = 0;
    stopping_ = false;
    measureNext();
    return true;
}

void CostPanel::measureNext()
{
    if (stopping_ || next_ >= sizes_.size()) {
        finished();
        return;
    }
    const long n = sizes_[next_++];
    job_.start(
        [n, shape = shape_, limits = limits_](JobControl&) -> std::optional<CostPoint> {
            CostPoint p;
            if (!measureCost(n, shape, limits, p).ok()) return std::nullopt;
            return p;
        },
        [this](std::optional<CostPoint> p) {
            if (!p) {
                finished();
                return;
            }
            addPoint(*p);
            // The plot replots from a queued event; the next point is measured after it.
            QTimer::singleShot(0, this, &CostPanel::measureNext);
        });
}

void CostPanel::cancel()
{
    if (!running_) return;
    stopping_ = true;
    status_->setText(tr("Stopping after the point being measured…"));
}

void CostPanel::addPoint(const CostPoint& p)
{
    points_.push_back(p);
    plot_->setPoints(points_);
    status_->setText(describePoint(points_.back()));
}

QString CostPanel::describePoint(const CostPoint& p) const
{
    const QLocale locale;
    if (p.weightsOnly)
        return tr("n = %1: %2 s; weights %3 (n²·h·4 bytes, float), and only the weights were "
                  "kept: %4 in all.")
            .arg(locale.toString(p.n), locale.toString(p.seconds, 'g', 3), bytesText(p.weightBytes),
                 bytesText(p.estimatedBytes));
    return tr("n = %1: %2 s; weights %3 (n²·h·8 bytes), every kept stage %4.")
        .arg(locale.toString(p.n), locale.toString(p.seconds, 'g', 3), bytesText(p.weightBytes),
             bytesText(p.estimatedBytes));
}

void CostPanel::finished()
{
    running_ = false;
    measure_->setEnabled(true);
    cancel_->setEnabled(false);
    n_->setEnabled(true);
    const QString last = points_.empty() ? QString() : describePoint(points_.back());
    if (stopping_)
        status_->setText(tr("Stopped. %1").arg(last));
    else
        status_->setText(
            tr("Done: %n point(s). %1", nullptr, static_cast<int>(points_.size())).arg(last));
    updateShape();
}

void CostPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
