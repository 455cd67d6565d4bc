// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/train_export.h"

#include <algorithm>
#include <memory>

#include <QPainter>
#include <QPicture>
#include <QRegularExpression>
#include <qcustomplot.h>

namespace attnlab {

QByteArray lossCurveCsv(const std::vector<double>& losses, double final)
{
    QByteArray out = "step,loss\n";
    for (std::size_t k = 0; k < losses.size(); ++k)
        out += QByteArray::number(static_cast<qulonglong>(k)) + ',' +
               QByteArray::number(losses[k], 'g', 17) + '\n';
    out += QByteArray::number(static_cast<qulonglong>(losses.size())) + ',' +
           QByteArray::number(final, 'g', 17) + '\n';
    return out;
}

Figure lossCurveFigure(QCustomPlot* plot, const QString& title, const QString& caption)
{
    // Recorded once as vector drawing commands, replayed into whatever device the figure is
    // written to (so SVG and PDF keep lines and text as vectors).
    constexpr int kWidth = 720, kHeight = 420;
    auto picture = std::make_shared<QPicture>();
    {
        QCPPainter painter(picture.get());
        plot->toPainter(&painter, kWidth, kHeight);
    }
    Figure f;
    f.title = title;
    f.caption = caption;
    f.drawing = [picture](QPainter& p, const QRectF& area, double) {
        const double s = std::min(area.width() / kWidth, area.height() / kHeight);
        p.save();
        p.translate(area.center().x() - s * kWidth / 2.0, area.center().y() - s * kHeight / 2.0);
        p.scale(s, s);
        p.drawPicture(0, 0, *picture);
        p.restore();
    };
    return f;
}

Figure filmStripFigure(const std::map<int, attn::Matrix>& frames, const std::vector<int>& steps,
                       const QStringList& rowLabels, const QStringList& columnLabels,
                       const QString& title, const QString& caption)
{
    Figure f;
    f.title = title;
    f.caption = caption;
    for (int k : steps) {
        const auto it = frames.find(k);
        if (it == frames.end() || it->second.size() == 0) continue;
        HeatmapContent c;
        c.values = it->second;
        c.rowLabels = rowLabels;
        c.columnLabels = columnLabels;
        c.title = QCoreApplication::translate("attnlab::TrainerPanel", "Step %1").arg(k);
        c.scale = ColorScale::Weights;
        f.panels.push_back(std::move(c));
    }
    f.columns = std::max<int>(1, static_cast<int>(f.panels.size()));
    return f;
}

bool parseStepList(const QString& text, std::vector<int>& steps)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    std::vector<int> out;
    for (const QString& part : text.split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const int k = part.toInt(&ok);
        if (!ok || k < 0) return false;
        out.push_back(k);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    steps = std::move(out);
    return !steps.empty();
}

}  // namespace attnlab
