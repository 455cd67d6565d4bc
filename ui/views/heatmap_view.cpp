// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_view.h"

#include <cmath>

#include "ui/views/axis_label_cache.h"
#include "ui/views/heatmap_image.h"
#include "ui/views/heatmap_labels.h"

namespace attnlab {

ValueRange colorRangeFor(const HeatmapContent& c)
{
    if (c.range) return *c.range;
    if (c.scale == ColorScale::Weights) return ValueRange(0.0, 1.0);
    double lo = 0.0, hi = 0.0;
    if (c.floats && c.floats->size() > 0) {
        lo = c.floats->minCoeff();
        hi = c.floats->maxCoeff();
    } else if (!c.floats && c.values.size() > 0) {
        lo = c.values.minCoeff();
        hi = c.values.maxCoeff();
    }
    if (c.scale == ColorScale::Diverging) {
        const double a = std::max({std::abs(lo), std::abs(hi), 1e-12});
        return ValueRange(-a, a);
    }
    if (hi - lo < 1e-12) hi = lo + 1.0;
    return ValueRange(lo, hi);
}

CellSource HeatmapContent::cellSource(const ValueRange& drawn) const
{
    const CellPooling pooling =
        scale == ColorScale::Diverging ? CellPooling::FurthestFromMiddle : CellPooling::Highest;
    const attn::BoolMatrix* m = mask ? &*mask : nullptr;
    CellSource s = floats ? CellSource::of(*floats, m, drawn, pooling)
                          : CellSource::of(values, m, drawn, pooling);
    s.causal = causal;
    return s;
}

namespace {

// The share of the widget that token labels may take across their axis.
constexpr double kLabelDepth = 0.2;

// Room for the labels that panning brings in, beyond those shown at once.
constexpr int kSpareCachedLabels = 32;

// How many cells of `count` the axis's visible range spans (zooming in shows fewer).
int cellsShown(const QCPAxis* axis, long count)
{
    const double shown = std::ceil(axis->range().size());
    return static_cast<int>(std::clamp(shown, 1.0, std::max(1.0, static_cast<double>(count))));
}

// Every step-th label.
QSharedPointer<QCPAxisTickerText> tickerFor(const QStringList& labels, int step)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(labels.size());
    for (int i = 0; i < n; i += std::max(1, step)) ticker->addTick(i, labels[i]);
    return ticker;
}

// "Keys (every 2nd label)".
QString axisTitle(const QString& title, int step)
{
    const QString note = thinnedLabelsNote(step);
    if (note.isEmpty()) return title;
    return title.isEmpty() ? note : HeatmapView::tr("%1 (%2)").arg(title, note);
}

QFont titleFont(const QFont& base)
{
    QFont f = scaledFont(base, 1.1);
    f.setBold(true);
    return f;
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : QCustomPlot(parent)
{
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    map_ = new HeatmapPlottable(xAxis, yAxis);
    scale_ = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->setGradient(gradientFor(content_.scale));
    scale_->setDataRange(QCPRange(range_.lower, range_.upper));
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    title_ = new QCPTextElement(this, QString(), titleFont(font()));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title_);
    yAxis->setRangeReversed(true);
    xAxis->setTickLabelSide(QCPAxis::lsOutside);
    // Axis lines and ticks stay outside the cells, so that none of them hides an edge cell.
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->grid()->setVisible(false);
        axis->setOffset(1);
        axis->setTickLength(0, 4);
        axis->setSubTickLength(0, 2);
    }
    // One paint buffer: the selection and the hover crosshair are painted straight onto the
    // widget (paintEvent), so moving them repaints without a replot. Every buffered layer
    // would add a widget-sized buffer that each replot clears and blends; QCustomPlot's
    // "overlay" layer (buffered by default) holds only the unused selection rectangle.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    // Wheel zooms and dragging pans (useful for long sequences); View > Reset view undoes it.
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setPlottingHint(QCP::phCacheLabels, true);
}

void HeatmapView::setLabelsShown(bool shown)
{
    if (shown == labelsShown_) return;
    labelsShown_ = shown;
    // A thumbnail's map takes the height its title leaves: the margins that labels would
    // need (the colour bar's reach 44 px below the cells) left an 80-px card a 4-px strip.
    const QCP::MarginSides vertical = QCP::msTop | QCP::msBottom;
    for (QCPLayoutElement* e :
         {static_cast<QCPLayoutElement*>(axisRect()), static_cast<QCPLayoutElement*>(scale_)}) {
        e->setAutoMargins(shown ? QCP::msAll : QCP::msAll & ~vertical);
        if (!shown) e->setMargins(QMargins(e->margins().left(), 3, e->margins().right(), 3));
    }
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::setAxisTitlesShown(bool shown)
{
    if (shown == axisTitlesShown_) return;
    axisTitlesShown_ = shown;
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::zoom(double factor)
{
    xAxis->scaleRange(factor, xAxis->range().center());
    yAxis->scaleRange(factor, yAxis->range().center());
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::resetView()
{
    xAxis->setRange(-0.5, static_cast<double>(content_.cols()) - 0.5);
    yAxis->setRange(-0.5, static_cast<double>(content_.rows()) - 0.5);
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

HeatmapContent HeatmapView::recycleBuffers()
{
    HeatmapContent out;
    map_->dropSource();  // the map reads these matrices in place
    out.values.swap(content_.values);
    out.mask.swap(content_.mask);
    return out;
}

void HeatmapView::setContent(HeatmapContent content)
{
    // The same sequence edited again (same shape and tokens) keeps the user's zoom. The shape
    // is the drawn cells' (the values may have been handed back by recycleBuffers).
    const bool sameSequence =
        hasContent_ && content.rows() == map_->rows() && content.cols() == map_->cols() &&
        content.rowLabels == content_.rowLabels && content.columnLabels == content_.columnLabels;
    const bool sameScale = hasContent_ && content.scale == content_.scale;
    const ValueRange before = range_;
    content_ = std::move(content);
    hasContent_ = true;
    range_ = colorRangeFor(content_);
    const CellSource source = content_.cellSource(range_);
    if (content_.changedRows && sameSequence && sameScale && range_ == before)
        map_->updateRows(source, content_.changedRows->first, content_.changedRows->end);
    else
        map_->setCells(source, content_.scale);
    if (!sameScale) scale_->setGradient(gradientFor(content_.scale));
    scale_->setDataRange(QCPRange(range_.lower, range_.upper));
    fitTitle();
    if (!sameSequence) {
        xAxis->setRange(-0.5, static_cast<double>(content_.cols()) - 0.5);
        yAxis->setRange(-0.5, static_cast<double>(content_.rows()) - 0.5);
    }
    updateTicks();
    updateValueTexts();
    updateMarkers();
    replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapView::updateTicks()
{
    TickKey key{content_.rowLabels,
                content_.columnLabels,
                axisRect()->rect().size(),
                font(),
                cellsShown(yAxis, content_.rows()),
                cellsShown(xAxis, content_.cols()),
                content_.rowAxisTitle,
                content_.columnAxisTitle,
                labelsShown_,
                axisTitlesShown_};
    if (key == ticks_) return false;  // a new ticker would throw away QCustomPlot's label cache
    columnFit_ = fitAxisLabels(content_.columnLabels, key.columnsShown, axisRect()->width(),
                               key.font, true, kLabelDepth * height());
    rowFit_ = fitAxisLabels(content_.rowLabels, key.rowsShown, axisRect()->height(), key.font,
                            false, kLabelDepth * width());
    xAxis->setTickLabelRotation(columnFit_.rotated ? -60 : 0);
    xAxis->setTickLabelFont(columnFit_.font);
    yAxis->setTickLabelFont(rowFit_.font);
    // An axis title no larger than its labels: where they shrank to fit, so does it.
    xAxis->setLabelFont(columnFit_.font);
    yAxis->setLabelFont(rowFit_.font);
    const auto title = [this](const QString& text, int step) {
        return labelsShown_ ? axisTitle(axisTitlesShown_ ? text : QString(), step) : QString();
    };
    xAxis->setLabel(title(content_.columnAxisTitle, columnFit_.step));
    yAxis->setLabel(title(content_.rowAxisTitle, rowFit_.step));
    for (QCPAxis* axis : {xAxis, yAxis, scale_->axis()}) axis->setTickLabels(labelsShown_);
    // Every shown label stays rendered between replots (axis_label_cache.h).
    reserveLabelCache(xAxis, key.columnsShown / columnFit_.step + kSpareCachedLabels);
    reserveLabelCache(yAxis, key.rowsShown / rowFit_.step + kSpareCachedLabels);
    xAxis->setTicker(tickerFor(content_.columnLabels, columnFit_.step));
    yAxis->setTicker(tickerFor(content_.rowLabels, rowFit_.step));
    ticks_ = std::move(key);
    return true;
}

void HeatmapView::updateLayout()
{
    QCustomPlot::updateLayout();
    // Rotated or thinned labels change the margins, and the title wraps to the map's column:
    // lay out once more with them.
    const QString title = title_->text();
    fitTitle();
    if (updateTicks() || title_->text() != title) QCustomPlot::updateLayout();
}

bool HeatmapView::cellAtPosition(const QPoint& pos, int& row, int& column) const
{
    if (!axisRect()->rect().contains(pos)) return false;
    const double x = xAxis->pixelToCoord(pos.x());
    const double y = yAxis->pixelToCoord(pos.y());
    return cellAt(content_.rows(), content_.cols(), x, y, row, column);
}

QString HeatmapView::shownTitle() const
{
    return title_->text();
}

namespace {

// `text` broken into lines of at most `room` pixels where it can be: phrases end after " — "
// or " · "; a phrase too wide alone breaks between words, never around "×" (which keeps
// "(12 × 12)" whole). A word wider than `room` stays whole on its line.
QStringList wrapTitle(const QString& text, const QFontMetrics& fm, int room)
{
    if (fm.horizontalAdvance(text) <= room) return {text};
    QStringList phrases;
    QString phrase;
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int i = 0; i < words.size(); ++i) {
        phrase += (phrase.isEmpty() ? QString() : QStringLiteral(" ")) + words[i];
        const bool separator = words[i] == QStringLiteral("—") || words[i] == QStringLiteral("·");
        if (separator || i + 1 == words.size()) {
            phrases << phrase;
            phrase.clear();
        }
    }
    QStringList lines;
    QString line;
    const auto add = [&](const QString& piece) {
        const QString longer = line.isEmpty() ? piece : line + QLatin1Char(' ') + piece;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > room) {
            lines << line;
            line = piece;
        } else {
            line = longer;
        }
    };
    for (const QString& p : phrases) {
        if (fm.horizontalAdvance(p) <= room) {
            add(p);
            continue;
        }
        const QStringList pw = p.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (int i = 0; i < pw.size(); ++i) {
            QString piece = pw[i];
            while (i + 2 < pw.size() && pw[i + 1] == QStringLiteral("×")) {
                piece += QLatin1Char(' ') + pw[i + 1] + QLatin1Char(' ') + pw[i + 2];
                i += 2;
            }
            add(piece);
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

}  // namespace

int HeatmapView::titleRoom() const
{
    // The title sits in the map's column (the colour scale has the other): that is its room.
    const int column = axisRect()->outerRect().width();
    return std::max(40, (column > 0 ? column : width() * 4 / 5) - 8);
}

bool HeatmapView::titleFits() const
{
    const QFontMetrics fm(title_->font());
    const int room = titleRoom();
    const QStringList lines = title_->text().split(QLatin1Char('\n'));
    for (const QString& line : lines)
        if (fm.horizontalAdvance(line) > room) return false;
    return true;
}

void HeatmapView::fitTitle()
{
    // A title wider than the plot would be cut at both ends: wrap it at spaces instead (each
    // line centred), and where a single word is still too wide (a narrow thumbnail), shrink it.
    const int room = titleRoom();
    QFont f = titleFont(font());
    QStringList lines;
    for (int i = 0; i < 12; ++i) {
        const QFontMetrics fm(f);
        lines = wrapTitle(content_.title, fm, room);
        const bool fits = std::all_of(lines.cbegin(), lines.cend(), [&](const QString& l) {
            return fm.horizontalAdvance(l) <= room;
        });
        if (fits || fontPixels(f) <= kSmallestLabelPixels) break;
        f = scaledFont(f, 0.9);
    }
    if (title_->font() != f) title_->setFont(f);
    const QString wrapped = lines.join(QLatin1Char('\n'));
    if (title_->text() != wrapped) title_->setText(wrapped);
}

void HeatmapView::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() != QEvent::FontChange) return;
    // QCustomPlot copies the widget's font into its axes and title once, when they are made.
    const QFont f = font();
    scale_->axis()->setLabelFont(f);
    scale_->axis()->setTickLabelFont(f);
    fitTitle();
    updateTicks();  // the key holds the font: labels are fitted again
    updateValueTexts();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitTitle();
    // Label thinning and rotation, and the decimals in cells, depend on the size in pixels.
    updateTicks();
    updateValueTexts();
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnlab
