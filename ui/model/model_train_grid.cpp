// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_train_grid.h"

#include <algorithm>
#include <memory>

#include <QFontMetricsF>
#include <QPainter>

#include "core/train/phase_change.h"
#include "ui/model/model_grid_paint.h"
#include "ui/model/model_train_curves.h"

namespace attnlab {

namespace {

constexpr int kThumbnailPixels = 128;
const QColor kText(0x30, 0x30, 0x30);
const QColor kBestFrame(220, 30, 30);

QImage imageOf(const attn::gpt2::HeadMaps& maps, long layer, long head, int maxPixels)
{
    const Eigen::Map<const attn::model::FloatMatrix> w(maps.at(layer, head), maps.T, maps.S);
    return weightsThumbnail(w, maxPixels);
}

// Squares of side `side` in a grid of `rows` x `columns` with headers of `basePx` text, the
// rows `below` text lines taller (scores under each map).
struct Cells {
    QRectF origin;
    double side = 0, gap = 0, rowHeight = 0, header = 0, rowHeader = 0;
    [[nodiscard]] QRectF rect(int row, int column) const
    {
        return {origin.left() + column * (side + gap), origin.top() + row * rowHeight, side, side};
    }
};

Cells layoutCells(const QRectF& area, int rows, int columns, double basePx, double rowHeaderEm,
                  int linesBelow)
{
    Cells c;
    c.header = basePx * 1.8;
    c.rowHeader = basePx * rowHeaderEm;
    const QRectF room = area.adjusted(c.rowHeader, c.header, 0, 0);
    // The lines of text, and above them a bar in the head's colour (that of its curves).
    const double below = linesBelow > 0 ? linesBelow * basePx * 1.3 + basePx * 0.5 : 0.0;
    const double gapShare = 0.1;
    const double byWidth = room.width() / (columns * (1 + gapShare));
    const double byHeight = (room.height() - rows * below) / (rows * (1 + gapShare));
    c.side = std::max(2.0, std::min(byWidth, byHeight));
    c.gap = c.side * gapShare;
    c.rowHeight = c.side + c.gap + below;
    c.origin = QRectF(room.topLeft(), QSizeF(0, 0));
    return c;
}

void drawCentered(QPainter& p, const QRectF& r, const QString& text)
{
    p.drawText(r, Qt::AlignHCenter | Qt::AlignVCenter, text);
}

}  // namespace

std::vector<QImage> headMapImages(const attn::gpt2::HeadMaps& maps, int maxPixels)
{
    std::vector<QImage> out;
    for (long l = 0; l < maps.layers; ++l)
        for (long h = 0; h < maps.heads; ++h) out.push_back(imageOf(maps, l, h, maxPixels));
    return out;
}

void paintHeadMapGrid(QPainter& p, const QRectF& area, const attn::gpt2::HeadMaps& maps,
                      const std::vector<QImage>& images, const attn::HeadScoreTable& scores,
                      double basePx)
{
    const int rows = static_cast<int>(maps.layers), columns = static_cast<int>(maps.heads);
    if (rows <= 0 || columns <= 0) return;
    const Cells c = layoutCells(area, rows, columns, basePx, 2.6, scores.empty() ? 0 : 2);
    int bestLayer = -1, bestHead = -1;
    if (!scores.empty()) attn::bestHead(scores, attn::HeadKind::Induction, bestLayer, bestHead);
    // Framed only once it is an induction head at all (the phase change's floor).
    if (bestLayer >= 0 &&
        scores[static_cast<std::size_t>(bestLayer)][static_cast<std::size_t>(bestHead)].induction <
            attn::gpt2::kPhaseInductionFloor)
        bestLayer = -1;
    p.save();
    QFont font = p.font();
    font.setPixelSize(std::max(6, static_cast<int>(basePx)));
    p.setFont(font);
    p.setPen(kText);
    for (int h = 0; h < columns; ++h) {
        const QRectF r = c.rect(0, h);
        drawCentered(p, QRectF(r.left(), r.top() - c.header, r.width(), c.header),
                     ModelTrainGrid::tr("H%1").arg(h + 1));
    }
    QFont small = font;
    small.setPixelSize(std::max(6, static_cast<int>(basePx * 0.85)));
    for (int l = 0; l < rows; ++l) {
        const QRectF first = c.rect(l, 0);
        p.setFont(font);
        p.setPen(kText);
        drawCentered(p, QRectF(area.left(), first.top(), c.rowHeader, first.height()),
                     ModelTrainGrid::tr("L%1").arg(l + 1));
        for (int h = 0; h < columns; ++h) {
            const QRectF r = c.rect(l, h);
            const auto index = static_cast<std::size_t>(l * columns + h);
            if (index < images.size()) p.drawImage(r, images[index]);
            if (l == bestLayer && h == bestHead) {
                p.setPen(QPen(kBestFrame, std::max(2.0, basePx / 5)));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(-1, -1, 1, 1));
            }
            if (static_cast<std::size_t>(l) < scores.size() &&
                static_cast<std::size_t>(h) < scores[static_cast<std::size_t>(l)].size()) {
                const attn::HeadScores& s =
                    scores[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
                const double bar = basePx * 0.5;
                p.fillRect(QRectF(r.left(), r.bottom() + bar * 0.3, r.width(), bar * 0.5),
                           trainHeadColor(l * columns + h));
                p.setFont(small);
                p.setPen(kText);
                const double line = basePx * 1.3, top = r.bottom() + bar;
                drawCentered(p, QRectF(r.left() - c.gap / 2, top, r.width() + c.gap, line),
                             ModelTrainGrid::tr("ind %1").arg(s.induction, 0, 'f', 2));
                drawCentered(p, QRectF(r.left() - c.gap / 2, top + line, r.width() + c.gap, line),
                             ModelTrainGrid::tr("prev %1").arg(s.previousToken, 0, 'f', 2));
            }
        }
    }
    p.restore();
}

ModelTrainGrid::ModelTrainGrid(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("modelTrainGrid"));
    setMinimumSize(200, 150);
    setToolTip(
        tr("Every head on m random tokens followed by the same m. A previous-token head lights "
           "the diagonal just below the main one; an induction head a stripe m - 1 below it "
           "(each letter of the repeat reads the letter after its earlier copy). Framed: the "
           "best induction head."));
}

void ModelTrainGrid::setMaps(const MapsPtr& maps, const attn::HeadScoreTable& scores)
{
    maps_ = maps;
    scores_ = scores;
    images_ = maps ? headMapImages(*maps, kThumbnailPixels) : std::vector<QImage>();
    update();
}

void ModelTrainGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (!maps_ || maps_->empty()) {
        p.setPen(kText);
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Every head's attention appears here when training starts."));
        return;
    }
    const double basePx = std::clamp(height() / 22.0, 9.0, 13.0);
    paintHeadMapGrid(p, QRectF(rect()).adjusted(4, 4, -4, -4), *maps_, images_, scores_, basePx);
}

bool modelFilmStrip(const std::map<long, MapsPtr>& frames, const std::vector<long>& steps,
                    const QString& title, Figure& figure, QString& error)
{
    std::vector<std::pair<long, MapsPtr>> kept;
    for (long s : steps)
        if (const auto it = frames.find(s);
            it != frames.end() && it->second && !it->second->empty())
            kept.emplace_back(s, it->second);
    if (kept.empty()) {
        error = ModelTrainGrid::tr(
            "No step of the film strip has been kept yet: train past one of its "
            "steps, or press Keep This Step.");
        return false;
    }
    const attn::gpt2::HeadMaps& shape = *kept.front().second;
    auto images = std::make_shared<std::vector<std::vector<QImage>>>();
    for (const auto& [step, maps] : kept) images->push_back(headMapImages(*maps, 256));
    const int rows = static_cast<int>(shape.layers * shape.heads);
    const int heads = static_cast<int>(shape.heads);
    std::vector<long> keptSteps;
    for (const auto& k : kept) keptSteps.push_back(k.first);
    figure = Figure{};
    figure.title = title;
    figure.caption = ModelTrainGrid::tr(
                         "Each row is one head on %1 random tokens followed by the same %1; "
                         "each column a step of training. Weights on [0, 1].")
                         .arg(shape.T / 2);
    figure.drawing = [images, keptSteps, rows, heads](QPainter& p, const QRectF& area,
                                                      double basePx) {
        const int columns = static_cast<int>(keptSteps.size());
        const Cells c = layoutCells(area, rows, columns, basePx, 4.2, 0);
        p.save();
        QFont font = p.font();
        font.setPixelSize(std::max(6, static_cast<int>(basePx)));
        p.setFont(font);
        p.setPen(kText);
        for (int k = 0; k < columns; ++k) {
            const QRectF r = c.rect(0, k);
            drawCentered(
                p, QRectF(r.left() - c.gap / 2, r.top() - c.header, r.width() + c.gap, c.header),
                ModelTrainGrid::tr("step %1").arg(keptSteps[static_cast<std::size_t>(k)]));
        }
        for (int row = 0; row < rows; ++row) {
            const QRectF first = c.rect(row, 0);
            drawCentered(p, QRectF(area.left(), first.top(), c.rowHeader, first.height()),
                         ModelTrainGrid::tr("L%1 H%2").arg(row / heads + 1).arg(row % heads + 1));
            for (int k = 0; k < columns; ++k)
                p.drawImage(c.rect(row, k),
                            (*images)[static_cast<std::size_t>(k)][static_cast<std::size_t>(row)]);
        }
        p.restore();
    };
    return true;
}

}  // namespace attnlab
