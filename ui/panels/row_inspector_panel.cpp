// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/row_inspector_panel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/document/document.h"

namespace attnlab {

namespace {

constexpr int LongRow = 200;             // beyond this many keys, bars carry no per-token labels
constexpr double kDenseBarPixels = 4.0;  // narrower bars are drawn without outline

constexpr double kRotation = 60.0;  // degrees, of crowded key labels

QString fmt(double v)
{
    return QString::number(v, 'f', 3);
}

// Labels for the key axis: every token (thinned and rotated when crowded), or for
// long rows round 1-based positions only.
QSharedPointer<QCPAxisTickerText> keyTicker(const QStringList& keys, double pixels,
                                            const QFontMetrics& fm, bool& rotate)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int m = static_cast<int>(keys.size());
    rotate = false;
    if (m == 0) return ticker;
    pixels = std::max(pixels, 50.0);
    if (m > LongRow) {
        const double raw = m * 60.0 / pixels;  // about one label per 60 px
        double step = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
        for (double f : {1.0, 2.0, 5.0, 10.0}) {
            if (step * f >= raw) {
                step *= f;
                break;
            }
        }
        const int s = std::max(1, static_cast<int>(step));
        ticker->addTick(0, QStringLiteral("1"));
        for (int k = s; k <= m; k += s) ticker->addTick(k - 1, QString::number(k));
        return ticker;
    }
    int widest = 0;
    for (const QString& k : keys) widest = std::max(widest, fm.horizontalAdvance(k));
    const double perBar = pixels / m;
    rotate = widest + 6 > perBar;
    // Labels rotated by 60° are parallel strips: two of them clear each other when their
    // distance along the axis times sin 60° is at least a line.
    const double perLabel =
        rotate ? (fm.height() + 2) / std::sin(kRotation * std::numbers::pi / 180.0) : widest + 8;
    const int step = std::max(1, static_cast<int>(std::ceil(perLabel / perBar)));
    for (int j = 0; j < m; j += step) ticker->addTick(j, keys[j]);
    return ticker;
}

QCPBars* makeBars(QCPAxisRect* rect, double width, const QPen& pen, const QBrush& brush)
{
    auto* bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    bars->setWidth(width);
    bars->setPen(pen);
    bars->setBrush(brush);
    bars->setSelectable(QCP::stNone);
    return bars;
}

QCPItemRect* makeBand(QCustomPlot* plot, QCPAxisRect* rect)
{
    auto* band = new QCPItemRect(plot);
    band->setClipAxisRect(rect);
    band->setPen(QPen(QColor(0xff, 0x40, 0x40), 1.5, Qt::DashLine));
    band->setBrush(QColor(0xff, 0x40, 0x40, 24));
    band->setSelectable(false);
    for (QCPItemPosition* p : {band->topLeft, band->bottomRight}) {
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        p->setAxisRect(rect);
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    return band;
}

}  // namespace

RowInspectorPanel::RowInspectorPanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    auto* layout = new QVBoxLayout(this);
    title_ = new QLabel(this);
    title_->setTextFormat(Qt::PlainText);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    layout->addWidget(title_);

    plot_ = new QCustomPlot(this);
    plot_->setMouseTracking(true);
    plot_->setMinimumSize(300, 230);
    plot_->installEventFilter(this);
    layout->addWidget(plot_, 1);

    setupAxisRects();
    createBars();
    addStatistics(layout);

    connect(plot_, &QCustomPlot::afterLayout, this, &RowInspectorPanel::fitValueTicks);
    connect(plot_, &QCustomPlot::mouseMove, this, &RowInspectorPanel::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &RowInspectorPanel::onMousePress);
    connect(document_, &Document::changed, this, &RowInspectorPanel::rebuild);
    connect(document_, &Document::pinChanged, this, &RowInspectorPanel::rebuild);
    connect(document_, &Document::selectionChanged, this, [this] {
        // A new column only moves the band; a new row or head redraws the bars.
        if (document_->selectedRow() == row_ && document_->head() == head_) {
            updateSelectedColumn();
            plot_->replot(QCustomPlot::rpQueuedReplot);
        } else {
            rebuild();
        }
    });
    fitToWidth();
    rebuild();
}

void RowInspectorPanel::createBars()
{
    const QColor grey(0x90, 0x90, 0x90);
    scoreBars_ =
        makeBars(scoreRect_, 0.6, QPen(QColor(0x54, 0x27, 0x88)), QColor(0x80, 0x73, 0xac));
    maskedScoreBars_ = makeBars(scoreRect_, 0.6, QPen(grey), QBrush(grey, Qt::BDiagPattern));
    ghostBars_ = makeBars(weightRect_, 0.9, QPen(QColor(0x30, 0x30, 0x30), 1.2, Qt::DashLine),
                          QColor(0x60, 0x60, 0x60, 40));
    maskedWeightBars_ = makeBars(weightRect_, 0.9, QPen(grey), QBrush(grey, Qt::BDiagPattern));
    weightBars_ =
        makeBars(weightRect_, 0.55, QPen(QColor(0x1f, 0x5f, 0x5c)), QColor(0x21, 0x91, 0x8c));
    scoreBars_->removeFromLegend();
    maskedScoreBars_->removeFromLegend();
    for (QCPBars* b : {scoreBars_, maskedScoreBars_, ghostBars_, maskedWeightBars_, weightBars_})
        outlines_.emplace_back(b, b->pen());
    weightBars_->setName(tr("weights now"));
    ghostBars_->setName(tr("pinned weights (before the edit)"));
    maskedWeightBars_->setName(tr("masked key"));
    scoreColumnBand_ = makeBand(plot_, scoreRect_);
    weightColumnBand_ = makeBand(plot_, weightRect_);
}

void RowInspectorPanel::addStatistics(QVBoxLayout* layout)
{
    entropy_ = new QLabel(this);
    maxWeight_ = new QLabel(this);
    jacobian_ = new QLabel(this);
    // Wrapped, so that a long sentence ("… saturated: little gradient flows") takes another
    // line rather than widening the panel past its dock.
    for (QLabel* l : {entropy_, maxWeight_, jacobian_}) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
    }
    jacobian_->setToolTip(
        tr("Frobenius norm of the softmax Jacobian ∂w/∂s = diag(w) − w wᵀ for this row.\n"
           "Near zero means the row is saturated (almost one-hot): changing the scores "
           "barely changes the weights, so little gradient flows back through it.\n"
           "Scaling the scores by 1/√d_k keeps rows away from saturation."));
    entropy_->setToolTip(
        tr("−Σ w log w in nats: 0 when all weight is on one key, ln k when it is "
           "spread evenly over k keys."));
    for (QLabel* l : {entropy_, maxWeight_, jacobian_}) layout->addWidget(l);
    note_ = new QLabel(this);
    note_->setTextFormat(Qt::PlainText);
    note_->setWordWrap(true);
    layout->addWidget(note_);
}

void RowInspectorPanel::clear(const QString& why)
{
    row_ = -1;
    head_ = -1;
    keys_.clear();
    weights_.clear();
    scores_.clear();
    pinned_.clear();
    allowed_.clear();
    fullyMasked_ = false;
    for (QCPBars* b : {scoreBars_, maskedScoreBars_, ghostBars_, maskedWeightBars_, weightBars_})
        b->data()->clear();
    title_->setText(tr("Row inspector"));
    entropy_->clear();
    maxWeight_->clear();
    jacobian_->clear();
    note_->setText(why);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RowInspectorPanel::rebuild()
{
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr || hr->weights.rows() == 0) {
        clear(tr("No result to inspect."));
        return;
    }
    const int m = static_cast<int>(hr->weights.cols());
    const bool pinned = loadRow(*hr);
    const int maskedCount = static_cast<int>(std::count(allowed_.begin(), allowed_.end(), false));
    const double top = plotBars(m, pinned, maskedCount);
    setValueAxes(m, top);
    showStatistics(*hr, maskedCount, pinned);

    updateTicks();
    styleBars(m);
    fitToWidth();
    updateSelectedColumn();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool RowInspectorPanel::loadRow(const attn::HeadResult& hr)
{
    const Session& session = document_->session();
    const int n = static_cast<int>(hr.weights.rows());
    const int m = static_cast<int>(hr.weights.cols());
    row_ = std::clamp(document_->selectedRow(), 0, n - 1);
    head_ = document_->head();
    keys_ = shownLabelsFor(keyTokens(session), m);

    weights_.resize(m);
    scores_.resize(m);
    allowed_.resize(m);
    pinned_.clear();
    const auto& pin = document_->pinnedWeights();
    const bool pinned = pin && pin->rows() == n && pin->cols() == m;
    if (pinned) pinned_.resize(m);
    for (int j = 0; j < m; ++j) {
        weights_[j] = hr.weights(row_, j);
        scores_[j] = hr.scaled(row_, j);
        allowed_[j] = hr.mask.size() == 0 || hr.mask(row_, j);
        if (pinned) pinned_[j] = (*pin)(row_, j);
    }
    const attn::RowDiagnostics& d = hr.diagnostics;
    const auto r = static_cast<std::size_t>(row_);
    fullyMasked_ = r < d.fullyMasked.size() && d.fullyMasked[r];
    return pinned;
}

double RowInspectorPanel::plotBars(int m, bool pinned, int maskedCount)
{
    QVector<double> keys(m), maskedScores, maskedKeys, allowedScores, allowedKeys;
    for (int j = 0; j < m; ++j) {
        keys[j] = j;
        (allowed_[j] ? allowedKeys : maskedKeys) << j;
        (allowed_[j] ? allowedScores : maskedScores) << scores_[j];
    }
    // Weights axis: auto-scaled so that small weights of long rows stay visible.
    double top = 0.0;
    for (int j = 0; j < m; ++j) top = std::max({top, weights_[j], pinned ? pinned_[j] : 0.0});
    top = top > 0.0 ? std::min(1.05, top * 1.12) : 1.0;
    weightBars_->setData(keys, weights_, true);
    ghostBars_->setData(pinned ? keys : QVector<double>(), pinned_, true);
    maskedWeightBars_->setData(maskedKeys, QVector<double>(maskedKeys.size(), top), true);
    scoreBars_->setData(allowedKeys, allowedScores, true);
    maskedScoreBars_->setData(maskedKeys, maskedScores, true);
    if (pinned)
        ghostBars_->addToLegend();
    else
        ghostBars_->removeFromLegend();
    if (maskedCount > 0)
        maskedWeightBars_->addToLegend();
    else
        maskedWeightBars_->removeFromLegend();
    placeLegend(pinned || maskedCount > 0);
    return top;
}

void RowInspectorPanel::setValueAxes(int m, double top)
{
    double lo = 0.0, hi = 0.0;
    for (double s : scores_) {
        lo = std::min(lo, s);
        hi = std::max(hi, s);
    }
    // A flat row (every score 0, as in a fully masked or all-zero row) gets an axis of
    // readable numbers, not one from 0 to 8e-11.
    if (hi - lo < 1e-9) hi = lo + 1.0;
    const double pad = (hi - lo) * 0.08;
    scoreRect_->axis(QCPAxis::atLeft)->setRange(lo < 0.0 ? lo - pad : 0.0, hi + pad);
    weightRect_->axis(QCPAxis::atLeft)->setRange(0.0, top);
    for (QCPAxisRect* rect : {scoreRect_, weightRect_})
        rect->axis(QCPAxis::atBottom)->setRange(-0.6, m - 0.4);
    QString scoreLabel;
    switch (document_->session().input.scaling) {
    case attn::Scaling::SqrtDk: scoreLabel = tr("score / √d_k"); break;
    case attn::Scaling::Temperature: scoreLabel = tr("score / τ"); break;
    case attn::Scaling::None: scoreLabel = tr("score (unscaled)"); break;
    }
    scoreTitle_->setText(scoreLabel);
}

void RowInspectorPanel::showStatistics(const attn::HeadResult& hr, int maskedCount, bool pinned)
{
    const Session& session = document_->session();
    const int n = static_cast<int>(hr.weights.rows());
    const int m = static_cast<int>(hr.weights.cols());
    const attn::RowDiagnostics& d = hr.diagnostics;
    const QString token = shownLabelsFor(session.targetTokens, row_ + 1).at(row_);
    title_->setText(tr("Query “%1” (row %2 of %3), head %4")
                        .arg(token)
                        .arg(row_ + 1)
                        .arg(n)
                        .arg(document_->head() + 1));

    QStringList notes;
    if (fullyMasked_) {
        entropy_->setText(tr("Entropy: —"));
        maxWeight_->setText(tr("Max weight: —"));
        jacobian_->setText(tr("Softmax Jacobian norm: —"));
        notes << tr(
            "Every key is masked for this query: its weights are all zero (not NaN, not "
            "uniform) and its output is zero.");
    } else {
        const int allowedCount = m - maskedCount;
        entropy_->setText(tr("Entropy: %1 nats (even spread over %2 keys: %3)")
                              .arg(fmt(d.entropy(row_)))
                              .arg(allowedCount)
                              .arg(fmt(std::log(static_cast<double>(allowedCount)))));
        const int arg = d.argmax(row_);
        maxWeight_->setText(tr("Max weight: %1 on “%2”")
                                .arg(fmt(d.maxWeight(row_)))
                                .arg(arg >= 0 && arg < m ? keys_[arg] : QString()));
        const double jn = d.jacobianNorm(row_);
        jacobian_->setText(
            jn < 0.05 && allowedCount > 1
                ? tr("Softmax Jacobian norm: %1 (saturated: little gradient flows)").arg(fmt(jn))
                : tr("Softmax Jacobian norm: %1").arg(fmt(jn)));
        if (maskedCount > 0)
            notes << tr("%1 of %2 keys are masked (hatched): their scores are set to −∞ before "
                        "the softmax, so their weights are exactly 0.")
                         .arg(maskedCount)
                         .arg(m);
    }
    if (pinned)
        notes << tr(
            "Dashed outlines: this row's weights when they were pinned. The weights always "
            "sum to 1, so what one key gains the others lose.");
    if (m > LongRow)
        notes << tr("%1 keys: bars are labelled by position; hover a bar to see its token.").arg(m);
    note_->setText(notes.join(QLatin1Char('\n')));
    note_->setVisible(!notes.isEmpty());
}

void RowInspectorPanel::styleBars(int keys)
{
    // Bars a few pixels wide show nothing of their outline, and drawing hundreds of
    // anti-aliased outlined polygons took a sixth of a slider step at n = 512: dense bars
    // are filled only, without anti-aliasing.
    const QMargins margins = weightRect_->margins();
    const double pixels = plot_->width() - margins.left() - margins.right();
    const bool dense = keys > 0 && pixels / keys < kDenseBarPixels;
    if (dense == denseBars_) return;
    denseBars_ = dense;
    for (const auto& [bars, pen] : outlines_) {
        bars->setPen(dense ? QPen(Qt::NoPen) : pen);
        bars->setAntialiased(!dense);
        bars->setAntialiasedFill(!dense);
    }
}

void RowInspectorPanel::updateTicks()
{
    QCPAxis* bottom = weightRect_->axis(QCPAxis::atBottom);
    // The axis rect's own width is only known after a replot; the plot's width minus
    // the last margins is known at once.
    const QMargins margins = weightRect_->margins();
    const double pixels = plot_->width() - margins.left() - margins.right();
    bool rotate = false;
    const auto ticker = keyTicker(keys_, pixels, QFontMetrics(bottom->tickLabelFont()), rotate);
    bottom->setTicker(ticker);
    bottom->setTickLabelRotation(rotate ? -kRotation : 0);
    scoreRect_->axis(QCPAxis::atBottom)->setTicker(ticker);
}

void RowInspectorPanel::fitValueTicks()
{
    // The score and weight axes get as many numbers as their height holds with a line of room
    // between two: in the dock at 1366 × 768 a fixed count prints six weights over each other
    // in 50 px. The heights are known once laid out; the new ticks are drawn by the next replot.
    bool changed = false;
    for (QCPAxisRect* rect : {scoreRect_, weightRect_}) {
        QCPAxis* axis = rect->axis(QCPAxis::atLeft);
        const int line = QFontMetrics(axis->tickLabelFont()).height();
        const int count = std::clamp(rect->height() / (2 * std::max(line, 1)), 2, 5);
        if (axis->ticker()->tickCount() != count) {
            axis->ticker()->setTickCount(count);
            changed = true;
        }
    }
    if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnlab
