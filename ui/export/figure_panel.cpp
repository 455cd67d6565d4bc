// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/figure_panel.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QPainter>

#include "ui/export/figure_numbers.h"
#include "ui/export/figure_renderer.h"
#include "ui/views/heatmap_pyramid.h"
#include "ui/views/heatmap_view.h"

namespace attnlab::figure_detail {

namespace {

class FigurePanelTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::FigureRenderer)
};

constexpr int kBarSteps = 96;
const QColor kInk(0x20, 0x20, 0x20);
const QColor kFrame(0x80, 0x80, 0x80);

std::vector<double> niceTicks(const ValueRange& r)
{
    std::vector<double> out;
    const double span = r.size();
    if (!(span > 0.0)) return {r.lower};
    const double raw = span / 4.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    const double step = (f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0) * mag;
    for (double v = std::ceil(r.lower / step - 1e-9) * step; v <= r.upper + step * 1e-9; v += step)
        out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

double widestOf(const QStringList& labels, const QFontMetricsF& fm)
{
    double w = 0.0;
    for (const QString& l : labels) w = std::max(w, fm.horizontalAdvance(l));
    return w;
}

int thinningStep(long count, double pitch, double extent)
{
    return std::max(1, static_cast<int>(std::ceil(count * pitch / std::max(extent, 1.0))));
}

// Lengths given at the reference size grow with the font (never shrink below it).
double unitOf(const QFont& font)
{
    return std::max(1.0, font.pixelSize() / kReferencePx);
}

}  // namespace

double figureTextPx(double side)
{
    return std::max(std::clamp(side / 30.0, 8.0, kReferencePx), side / 54.0);
}

QFont makeFont(double px, bool bold)
{
    QFont f;
    f.setFamilies(figureFontFamilies());
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(px))));
    f.setBold(bold);
    return f;
}

bool anyMasked(const HeatmapContent& c)
{
    return (c.causal && c.cols() > 1) || (c.mask && !c.mask->all());
}

// A vertical colour bar in `bar` with tick labels to its right; returns the width used.
double paintColorBar(QPainter& p, const QRectF& bar, ColorScale scale, const ValueRange& range,
                     const QFont& font, bool maskedLegend)
{
    QCPColorGradient g = gradientFor(scale);
    const double h = bar.height() / kBarSteps;
    for (int i = 0; i < kBarSteps; ++i) {
        const double v = range.lower + range.size() * (i + 0.5) / kBarSteps;
        const double top = bar.bottom() - (i + 1) * h;
        // Each step overlaps the next a little so that viewers show no seams.
        p.fillRect(QRectF(bar.left(), top - (i + 1 < kBarSteps ? 0.5 : 0.0), bar.width(),
                          h + (i + 1 < kBarSteps ? 0.5 : 0.0)),
                   QColor(g.color(v, QCPRange(range.lower, range.upper))));
    }
    const double u = unitOf(font);
    p.setPen(QPen(kFrame, 0.8 * u));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    double widest = 0.0;
    p.setPen(QPen(kInk, u));
    for (double v : niceTicks(range)) {
        const double y = bar.bottom() - (v - range.lower) / range.size() * bar.height();
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3.0 * u, y));
        const QString t = figureShortNumber(v);
        widest = std::max(widest, fm.horizontalAdvance(t));
        p.drawText(QPointF(bar.right() + 5.0 * u, y + fm.ascent() / 2.0 - u), t);
    }
    if (maskedLegend) {
        const QRectF sw(bar.left(), bar.bottom() + fm.height() * 0.6, bar.width(), fm.height());
        p.fillRect(sw, maskedCellColor());
        p.drawText(QPointF(sw.right() + 5.0 * u, sw.top() + fm.ascent()),
                   FigurePanelTr::tr("masked"));
        widest = std::max(widest, fm.horizontalAdvance(FigurePanelTr::tr("masked")));
    }
    return bar.width() + 5.0 * u + widest;
}

double barWidthFor(const QFont& font)
{
    const QFontMetricsF fm(font);
    const double u = unitOf(font);
    // Room for the widest tick label a range can have ("-0.25", "1e+03").
    return (kReferenceBarWidth + 5.0 + 4.0) * u +
           std::max(fm.horizontalAdvance(QStringLiteral("-0.000")),
                    fm.horizontalAdvance(FigurePanelTr::tr("masked")));
}

namespace {

// Maps with more cells than this are drawn as one picture (an SVG or PDF of a 4096 map would
// otherwise hold up to 16 million rectangles); smaller ones keep a rectangle per cell.
constexpr long kVectorCellLimit = 256L * 256L;

// The cells as one picture of the map's size in device pixels (at most one pixel per cell),
// pooled from the same levels as the screen (heatmap_pyramid.h): no cell is lost.
void paintPooledCells(QPainter& p, const QRectF& map, const HeatmapContent& c,
                      const ValueRange& range)
{
    const int rows = static_cast<int>(c.rows());
    const int cols = static_cast<int>(c.cols());
    const double ratio = std::max(1.0, p.device()->devicePixelRatioF());
    const int w = std::clamp(static_cast<int>(std::lround(map.width() * ratio)), 1, cols);
    const int h = std::clamp(static_cast<int>(std::lround(map.height() * ratio)), 1, rows);
    HeatmapPyramid pyramid;
    pyramid.reset(c.cellSource(range));
    QImage image;
    pyramid.render(spansForPixels(rows, h), spansForPixels(cols, w), colorLutFor(c.scale), image);
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(map, image);
    p.restore();
}

void paintCells(QPainter& p, const QRectF& map, const HeatmapContent& c, const ValueRange& range,
                double cw, double ch)
{
    const long rows = c.rows();
    const long cols = c.cols();
    if (rows * cols > kVectorCellLimit) {
        paintPooledCells(p, map, c, range);
        return;
    }
    QCPColorGradient g = gradientFor(c.scale);
    const bool gaps = cw >= 14.0 && ch >= 14.0;
    const auto colorAt = [&](long i, long j) {
        if (c.isMasked(i, j)) return maskedCellColor();
        return QColor(g.color(c.at(i, j), QCPRange(range.lower, range.upper)));
    };
    for (long i = 0; i < rows; ++i) {
        const double y = map.top() + i * ch;
        // Neighbouring cells of one colour become one rectangle (smaller SVG and PDF).
        long j = 0;
        while (j < cols) {
            const QColor col = colorAt(i, j);
            long k = j + 1;
            while (!gaps && k < cols && colorAt(i, k) == col) ++k;
            QRectF r(map.left() + j * cw, y, (k - j) * cw, ch);
            if (gaps)
                r.adjust(0.5, 0.5, -0.5, -0.5);
            else  // overlap the next cell by half a unit so that viewers show no seams
                r.adjust(0.0, 0.0, k < cols ? 0.5 : 0.0, i + 1 < rows ? 0.5 : 0.0);
            p.fillRect(r, col);
            j = k;
        }
    }
}

// The numbers in the cells, when the cells are large enough: three decimals where they fit,
// fewer (and then a smaller font) where they do not; figureCellNumber keeps two significant
// digits of every non-zero value whatever the decimals.
void paintValues(QPainter& p, const QRectF& map, const HeatmapContent& c, const ValueRange& range,
                 double cw, double ch, double basePx)
{
    const long rows = c.rows();
    const long cols = c.cols();
    if (rows * cols > 900) return;
    const auto isMasked = [&](long i, long j) { return c.isMasked(i, j); };
    const double px = std::min(basePx * 1.1, ch * 0.42);
    QStringList texts;
    QFont font;
    bool fits = false;
    for (const double shrink : {1.0, 0.85, 0.72}) {
        font = makeFont(px * shrink);
        const QFontMetricsF fm(font, p.device());
        if (font.pixelSize() < 6 || fm.height() > ch) break;
        for (int decimals = 3; decimals >= 0 && !fits; --decimals) {
            texts.clear();
            double widest = 0.0;
            for (long i = 0; i < rows; ++i) {
                for (long j = 0; j < cols; ++j) {
                    texts << (isMasked(i, j) ? QStringLiteral("–")
                                             : figureCellNumber(c.at(i, j), decimals));
                    widest = std::max(widest, fm.horizontalAdvance(texts.back()));
                }
            }
            fits = widest + 4.0 <= cw;
        }
        if (fits) break;
    }
    if (!fits) return;
    p.setFont(font);
    for (long i = 0; i < rows; ++i) {
        for (long j = 0; j < cols; ++j) {
            const bool masked = isMasked(i, j);
            const double v = c.at(i, j);
            double rel = (v - range.lower) / std::max(range.size(), 1e-300);
            if (c.scale == ColorScale::Diverging) rel = std::abs(rel - 0.5) * 2.0;
            const bool light =
                masked || (c.scale == ColorScale::Diverging ? rel < 0.6 : rel > 0.55);
            p.setPen(light ? kInk : Qt::white);
            const QRectF cell(map.left() + j * cw, map.top() + i * ch, cw, ch);
            p.drawText(cell, Qt::AlignCenter | Qt::TextDontClip, texts[i * cols + j]);
        }
    }
}

// Where the parts of one panel go: the cells, the room for the labels beside and below them.
struct PanelPlacement {
    QRectF map;
    double cw = 0.0;
    double ch = 0.0;
    double rowLabelW = 0.0;
    double colLabelH = 0.0;
    double colWidest = 0.0;
    double axisH = 0.0;
    bool rotate = false;
};

// The title above the panel; returns the room left below it.
QRectF paintPanelTitle(QPainter& p, const QRectF& r, const HeatmapContent& c, double basePx)
{
    QRectF area = r;
    if (c.title.isEmpty()) return area;
    const QFont tf = makeFont(basePx * 1.15, true);
    const QFontMetricsF tfm(tf, p.device());
    p.setFont(tf);
    p.setPen(kInk);
    p.drawText(QRectF(area.left(), area.top(), area.width(), tfm.height()),
               Qt::AlignHCenter | Qt::AlignTop,
               tfm.elidedText(c.title, Qt::ElideRight, area.width()));
    area.setTop(area.top() + tfm.height() * 1.4);
    return area;
}

PanelPlacement placePanel(const QRectF& area, const HeatmapContent& c, const QFontMetricsF& fm,
                          double u, double barW, bool squareCells)
{
    const long rows = c.rows();
    const long cols = c.cols();
    PanelPlacement pl;
    pl.axisH = fm.height() * 1.3;
    pl.rowLabelW = std::min(widestOf(c.rowLabels, fm) + 6.0 * u, area.width() * 0.25);
    const double left = area.left() + pl.axisH + pl.rowLabelW;
    const double availW = area.right() - barW - 8.0 * u - left;
    pl.colWidest = widestOf(c.columnLabels, fm);
    // Square cells by default (a cell is one query-key pair: a 3 x 7 map is a wide band, not
    // a stretched square), else the cells fill the room; column labels rotate to read
    // upwards when they do not fit side by side.
    for (int pass = 0; pass < 2; ++pass) {
        pl.colLabelH =
            pl.rotate ? std::min(pl.colWidest + 6.0 * u, area.height() * 0.25) : fm.height() * 1.3;
        pl.cw = availW / static_cast<double>(cols);
        pl.ch = (area.height() - pl.colLabelH - pl.axisH) / static_cast<double>(rows);
        if (squareCells) pl.cw = pl.ch = std::max(0.0, std::min(pl.cw, pl.ch));
        if (pl.rotate || pl.colWidest + 8.0 * u <= pl.cw) break;
        pl.rotate = true;
    }
    // A square map narrower or shorter than the room is centred in it (with its labels and
    // bar): top-aligned, a square map in a tall figure left a band of white above the caption.
    const double spare = std::max(0.0, availW - pl.cw * static_cast<double>(cols));
    const double spareH =
        std::max(0.0, area.height() - pl.colLabelH - pl.axisH - pl.ch * static_cast<double>(rows));
    pl.map = QRectF(left + spare / 2.0, area.top() + spareH / 2.0,
                    pl.cw * static_cast<double>(cols), pl.ch * static_cast<double>(rows));
    return pl;
}

// Row labels, thinned when crowded.
void paintRowLabels(QPainter& p, const HeatmapContent& c, const PanelPlacement& pl,
                    const QFontMetricsF& fm, double u)
{
    const long rows = c.rows();
    const QRectF& map = pl.map;
    const int rowStep = thinningStep(rows, fm.height() + 1.0, map.height());
    for (long i = 0; i < rows && i < c.rowLabels.size(); i += rowStep) {
        const QRectF lr(map.left() - pl.rowLabelW, map.top() + i * pl.ch, pl.rowLabelW - 5.0 * u,
                        pl.ch);
        p.drawText(lr, Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip,
                   fm.elidedText(c.rowLabels[i], Qt::ElideRight, lr.width()));
    }
}

// Column labels: side by side, or rotated to read upwards when they do not fit.
void paintColumnLabels(QPainter& p, const HeatmapContent& c, const PanelPlacement& pl,
                       const QFontMetricsF& fm, double u)
{
    const long cols = c.cols();
    const QRectF& map = pl.map;
    const double cw = pl.cw;
    const double colLabelH = pl.colLabelH;
    const double colPitch = pl.rotate ? fm.height() + 1.0 : pl.colWidest + 8.0;
    const int colStep = thinningStep(cols, colPitch, map.width());
    for (long j = 0; j < cols && j < c.columnLabels.size(); j += colStep) {
        const double x = map.left() + (j + 0.5) * cw;
        if (pl.rotate) {
            const QString t = fm.elidedText(c.columnLabels[j], Qt::ElideRight, colLabelH - 6.0 * u);
            p.save();
            p.translate(x, map.bottom() + 4.0 * u);
            p.rotate(-90.0);
            p.drawText(QRectF(-colLabelH, -fm.height() / 2.0, colLabelH - 2.0 * u, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip, t);
            p.restore();
        } else {
            p.drawText(
                QRectF(x - cw / 2.0 - 20.0 * u, map.bottom() + 3.0 * u, cw + 40.0 * u, fm.height()),
                Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip, c.columnLabels[j]);
        }
    }
}

void paintAxisTitles(QPainter& p, const HeatmapContent& c, const PanelPlacement& pl)
{
    const QRectF& map = pl.map;
    const double axisH = pl.axisH;
    if (!c.columnAxisTitle.isEmpty())
        p.drawText(QRectF(map.left(), map.bottom() + pl.colLabelH, map.width(), axisH),
                   Qt::AlignCenter | Qt::TextDontClip, c.columnAxisTitle);
    if (!c.rowAxisTitle.isEmpty()) {
        p.save();
        p.translate(map.left() - pl.rowLabelW - axisH / 2.0, map.center().y());
        p.rotate(-90.0);
        p.drawText(QRectF(-map.height() / 2.0, -axisH / 2.0, map.height(), axisH),
                   Qt::AlignCenter | Qt::TextDontClip, c.rowAxisTitle);
        p.restore();
    }
}

// Fully masked rows are marked in the middle of the row.
void paintMaskedRows(QPainter& p, const HeatmapContent& c, const PanelPlacement& pl,
                     const QFontMetricsF& fm)
{
    const long rows = c.rows();
    const QRectF& map = pl.map;
    p.setPen(QColor(0x60, 0x00, 0x00));
    for (long i = 0; i < rows && i < static_cast<long>(c.fullyMaskedRows.size()); ++i) {
        if (c.fullyMaskedRows[static_cast<std::size_t>(i)] && pl.ch >= fm.height() * 0.8)
            p.drawText(QRectF(map.left(), map.top() + i * pl.ch, map.width(), pl.ch),
                       Qt::AlignCenter, FigurePanelTr::tr("fully masked"));
    }
}

}  // namespace

// One heatmap with its labels in `r`; returns where the cells went.
PanelGeometry paintPanel(QPainter& p, const QRectF& r, const HeatmapContent& c,
                         const PanelOptions& options)
{
    const double basePx = options.basePx;
    const QFont label = makeFont(basePx);
    const QFont axis = makeFont(basePx, true);
    const QFontMetricsF fm(label, p.device());
    const double u = unitOf(label);
    const QRectF area = paintPanelTitle(p, r, c, basePx);
    PanelGeometry geometry;
    if (c.rows() == 0 || c.cols() == 0) return geometry;
    const ValueRange range = colorRangeFor(c);
    const double barW = options.ownBar ? barWidthFor(label) : 0.0;
    const PanelPlacement pl = placePanel(area, c, fm, u, barW, options.squareCells);
    geometry.map = pl.map;
    geometry.cellWidth = pl.cw;
    geometry.cellHeight = pl.ch;
    geometry.rotatedColumnLabels = pl.rotate;

    // Layers from the bottom up: cells, their numbers, the frame, labels, marks, the bar.
    paintCells(p, pl.map, c, range, pl.cw, pl.ch);
    paintValues(p, pl.map, c, range, pl.cw, pl.ch, basePx);
    p.setPen(QPen(kFrame, 0.8 * u));
    p.setBrush(Qt::NoBrush);
    p.drawRect(pl.map);
    p.setFont(label);
    p.setPen(kInk);
    paintRowLabels(p, c, pl, fm, u);
    paintColumnLabels(p, c, pl, fm, u);
    p.setFont(axis);
    paintAxisTitles(p, c, pl);
    p.setFont(label);
    paintMaskedRows(p, c, pl, fm);
    if (options.ownBar)
        paintColorBar(p,
                      QRectF(pl.map.right() + 10.0 * u, pl.map.top(), kReferenceBarWidth * u,
                             pl.map.height()),
                      c.scale, range, label, anyMasked(c));
    return geometry;
}

}  // namespace attnlab::figure_detail
