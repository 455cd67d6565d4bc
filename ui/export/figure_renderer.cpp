// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/figure_renderer.h"

#include <algorithm>
#include <cmath>

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include "ui/export/figure.h"
#include "ui/export/figure_panel.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

using namespace figure_detail;

class FigureRendererTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::FigureRenderer)
};

constexpr double kMargin = 16.0;
const QColor kText(0x20, 0x20, 0x20);

bool sharedScale(const Figure& f)
{
    if (f.panels.size() < 2) return false;
    const ValueRange r0 = colorRangeFor(f.panels.front());
    for (const HeatmapContent& c : f.panels) {
        const ValueRange r = colorRangeFor(c);
        if (c.scale != f.panels.front().scale || r.lower != r0.lower || r.upper != r0.upper)
            return false;
    }
    return true;
}

}  // namespace

QStringList figureFontFamilies()
{
    return {QStringLiteral("Noto Sans"),        QStringLiteral("DejaVu Sans"),
            QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Source Han Sans SC"),
            QStringLiteral("PingFang SC"),      QStringLiteral("Microsoft YaHei")};
}

bool figureFormatForPath(const QString& path, FigureFormat& format)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png"))
        format = FigureFormat::Png;
    else if (ext == QLatin1String("svg"))
        format = FigureFormat::Svg;
    else if (ext == QLatin1String("pdf"))
        format = FigureFormat::Pdf;
    else
        return false;
    return true;
}

void paintFigure(QPainter& p, const QRectF& area, const Figure& f)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const int count = static_cast<int>(f.panels.size());
    const int cols = std::clamp(f.columns, 1, std::max(1, count));
    const int rows = std::max(1, (count + cols - 1) / cols);
    // Text, margins and strokes follow the size of a panel (figureTextPx), so that a figure
    // drawn three times as large for a poster reads like the screen-sized one.
    const double side =
        std::min((area.width() - 2.0 * kMargin) / cols, (area.height() - 2.0 * kMargin) / rows);
    const double basePx = figureTextPx(side);
    const double u = std::max(1.0, basePx / kReferencePx);
    const QRectF inner = area.adjusted(kMargin * u, kMargin * u, -kMargin * u, -kMargin * u);

    // The title as on a figure of the reference size, then scaled with the rest.
    const QFont title = makeFont(u * std::clamp(area.width() / u / 45.0, 14.0, 24.0), true);
    const QFont caption = makeFont(std::max(9.0, basePx * 0.95));
    const QFontMetricsF tfm(title, p.device());
    const QFontMetricsF cfm(caption, p.device());
    p.setPen(kText);
    p.setFont(title);
    const QRectF titleRect(inner.left(), inner.top(), inner.width(), tfm.height() * 2.2);
    const QRectF titleUsed =
        p.boundingRect(titleRect, Qt::AlignHCenter | Qt::TextWordWrap, f.title);
    p.drawText(titleRect, Qt::AlignHCenter | Qt::TextWordWrap, f.title);
    p.setFont(caption);
    const QRectF capRect(inner.left(), inner.bottom() - cfm.height() * 2.2, inner.width(),
                         cfm.height() * 2.2);
    const QRectF capUsed =
        p.boundingRect(capRect, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, f.caption);
    p.setPen(QColor(0x50, 0x50, 0x50));
    p.drawText(capRect, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, f.caption);

    QRectF grid(inner.left(), titleUsed.bottom() + tfm.height() * 0.5, inner.width(), 0.0);
    grid.setBottom(capUsed.top() - cfm.height() * 0.6);
    if (f.drawing) {
        f.drawing(p, grid, basePx);
        p.restore();
        return;
    }
    const bool shared = sharedScale(f);
    const QFont barFont = makeFont(basePx);
    if (shared) grid.setRight(grid.right() - barWidthFor(barFont) - 10.0 * u);
    const double gw = grid.width() / cols;
    const double gh = grid.height() / rows;
    bool masked = false;
    PanelOptions options;
    options.ownBar = !shared;
    options.basePx = basePx;
    options.squareCells = f.squareCells;
    for (int k = 0; k < count; ++k) {
        const QRectF r(grid.left() + (k % cols) * gw, grid.top() + (k / cols) * gh, gw, gh);
        const HeatmapContent& c = f.panels[static_cast<std::size_t>(k)];
        masked = masked || anyMasked(c);
        paintPanel(p, count > 1 ? r.adjusted(4.0 * u, 4.0 * u, -4.0 * u, -8.0 * u) : r, c, options);
    }
    if (shared) {
        const QRectF bar(grid.right() + 10.0 * u, grid.top() + grid.height() * 0.1,
                         kReferenceBarWidth * u, grid.height() * 0.7);
        paintColorBar(p, bar, f.panels.front().scale, colorRangeFor(f.panels.front()), barFont,
                      masked);
    }
    p.restore();
}

QImage renderFigureImage(const Figure& figure, QSize size, double scale)
{
    const QSize px(static_cast<int>(std::lround(size.width() * scale)),
                   static_cast<int>(std::lround(size.height() * scale)));
    QImage image(px, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter p(&image);
    paintFigure(p, QRectF(QPointF(0, 0), QSizeF(size)), figure);
    p.end();
    return image;
}

QByteArray encodeFigure(const Figure& figure, FigureFormat format, QSize size, double scale)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QRectF area(QPointF(0, 0), QSizeF(size));
    if (format == FigureFormat::Png) {
        renderFigureImage(figure, size, scale).save(&buffer, "PNG");
    } else if (format == FigureFormat::Svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(area);
        svg.setResolution(96);
        svg.setTitle(figure.title);
        svg.setDescription(figure.caption);
        QPainter p(&svg);
        p.fillRect(area, Qt::white);
        paintFigure(p, area, figure);
        p.end();
        // QSvgGenerator names only the first family: give viewers the whole list.
        QStringList quoted;
        for (const QString& f : figureFontFamilies())
            quoted << QLatin1Char('\'') + f + QLatin1Char('\'');
        quoted << QStringLiteral("sans-serif");
        const QByteArray list = "font-family=\"" + quoted.join(QStringLiteral(", ")).toUtf8() + '"';
        static const QRegularExpression family(QStringLiteral("font-family=\"[^\"]*\""));
        QString text = QString::fromUtf8(bytes);
        text.replace(family, QString::fromUtf8(list));
        bytes = text.toUtf8();
    } else {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(figure.title);
        pdf.setCreator(QStringLiteral("AttnLab"));
        QPainter p(&pdf);
        paintFigure(p, area, figure);
        p.end();
    }
    return bytes;
}

bool writeFigure(const Figure& figure, const QString& path, QSize size, double scale,
                 QString& error)
{
    FigureFormat format;
    if (!figureFormatForPath(path, format)) {
        error = FigureRendererTr::tr("%1: unknown image format (use .png, .svg or .pdf)").arg(path);
        return false;
    }
    const QByteArray bytes = encodeFigure(figure, format, size, scale);
    QString problem = FigureRendererTr::tr("encoding failed");
    if (bytes.isEmpty() || !writeFileAtomically(path, bytes, problem)) {
        error = FigureRendererTr::tr("%1: could not write the figure (%2)").arg(path, problem);
        return false;
    }
    return true;
}

}  // namespace attnlab
