// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Draws a Figure with QPainter only: cells as rectangles, labels, titles and the
// caption as text, the colour bar as a stack of rectangles. The same painting makes
// PNG (QImage at a device pixel ratio), SVG (QSvgGenerator: real vectors) and PDF
// (QPdfWriter), so every format shows the same figure. Maps of more than 256 x 256 cells
// have their cells drawn as one picture at the figure's resolution, pooled like the screen's
// (an SVG then embeds that one image; the axes, labels and colour bar stay vectors).

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

class QPainter;
class QRectF;

namespace attnlab {

struct Figure;

enum class FigureFormat { Png, Svg, Pdf };

// The format named by the file's extension (.png, .svg, .pdf); false when none.
bool figureFormatForPath(const QString& path, FigureFormat& format);

// Paints the figure into `area` (logical units: pixels for images, points for PDF).
void paintFigure(QPainter& painter, const QRectF& area, const Figure& figure);

// A white image of size * scale pixels (device pixel ratio `scale`).
QImage renderFigureImage(const Figure& figure, QSize size, double scale);

// The file's bytes. SVG text carries a font-family list that includes the CJK fonts.
QByteArray encodeFigure(const Figure& figure, FigureFormat format, QSize size, double scale);

// Encodes and writes atomically; on failure returns false with a translated `error`.
bool writeFigure(const Figure& figure, const QString& path, QSize size, double scale,
                 QString& error);

// The font family list used for every text of a figure (Latin first, then CJK).
QStringList figureFontFamilies();

}  // namespace attnlab
