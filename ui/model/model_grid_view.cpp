// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_grid_view.h"

#include <algorithm>

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_paint.h"

namespace attnlab {

ModelGridView::ModelGridView(ModelDocument* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    setObjectName(QStringLiteral("modelGrid"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
    setAccessibleName(tr("Model view: every layer's and head's attention"));
    connect(document_, &ModelDocument::snapshotChanged, this, &ModelGridView::refresh);
    connect(document_, &ModelDocument::selectionChanged, this, qOverload<>(&QWidget::update));
    refresh();
}

double ModelGridView::basePx() const
{
    return std::max(9.0, fontInfo().pixelSize() * 0.95);
}

void ModelGridView::refresh()
{
    shown_ = document_->snapshot();
    thumbnails_ = document_->thumbnails();
    update();
}

QRectF ModelGridView::area() const
{
    return QRectF(rect()).adjusted(6, 6, -6, -6);
}

ModelGridGeometry ModelGridView::geometry() const
{
    return modelGridGeometry(area(), shown_->layers(), shown_->heads(), basePx(),
                             shown_->groupSize);
}

QRect ModelGridView::cellRect(int layer, int column) const
{
    if (!shown_) return {};
    return geometry().cellRect(layer, column).toAlignedRect();
}

void ModelGridView::paintEvent(QPaintEvent*)
{
    ++paints_;
    QPainter p(this);
    if (!shown_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   document_->hasModel() ? tr("Type a text above to see every layer's and head's "
                                              "attention.")
                                         : tr("Open a model folder (File ▸ Open model…) or drop "
                                              "it here."));
        return;
    }
    ModelGridStyle style;
    style.basePx = basePx();
    const ModelSelection& s = document_->selection();
    style.selected.layer = s.layer;
    style.selected.column = s.column(shown_->heads());
    paintModelGrid(p, area(), *shown_, thumbnails_ ? *thumbnails_ : std::vector<QImage>(), style);
    paintEditMarks(p);
    paintScoreFrames(p);
}

void ModelGridView::setHeadScores(HeadScoresSource* scores)
{
    scores_ = scores;
    connect(scores_, &HeadScoresSource::changed, this, qOverload<>(&QWidget::update));
    update();
}

void ModelGridView::paintScoreFrames(QPainter& p) const
{
    if (!shown_ || !scores_ || !scores_->tint()) return;
    const attn::HeadScoreTable& table = scores_->scores();
    p.save();
    for (std::size_t l = 0; l < table.size() && static_cast<int>(l) < shown_->layers(); ++l) {
        for (std::size_t h = 0; h < table[l].size() && static_cast<int>(h) < shown_->heads(); ++h) {
            const double v = std::clamp(attn::scoreOf(table[l][h], *scores_->tint()), 0.0, 1.0);
            const QRectF r = cellRect(static_cast<int>(l), static_cast<int>(h));
            QPen pen(QColor(0x17, 0xbe, 0xcf, static_cast<int>(40 + 215 * v)));
            pen.setWidthF(1.0 + v * std::max(3.0, r.width() / 6));
            pen.setJoinStyle(Qt::MiterJoin);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            const double inset = pen.widthF() / 2;
            p.drawRect(r.adjusted(inset, inset, -inset, -inset));
        }
    }
    p.restore();
}

void ModelGridView::choose(int layer, int column)
{
    if (!shown_ || layer < 0 || column < 0) return;
    const int heads = shown_->heads();
    if (column < heads)
        document_->selectHead(layer, column);
    else
        document_->selectAggregate(
            layer, column == heads ? ModelFocus::LayerAverage : ModelFocus::Rollout);
}

void ModelGridView::mousePressEvent(QMouseEvent* event)
{
    if (!shown_) return;
    const ModelGridGeometry g = geometry();
    const ModelGridCell cell = g.cellAt(event->position());
    choose(cell.layer, cell.column);
}

void ModelGridView::keyPressEvent(QKeyEvent* event)
{
    if (!shown_) return QWidget::keyPressEvent(event);
    const ModelSelection& s = document_->selection();
    int layer = s.layer;
    int column = s.column(shown_->heads());
    switch (event->key()) {
    case Qt::Key_Left: --column; break;
    case Qt::Key_Right: ++column; break;
    case Qt::Key_Up: --layer; break;
    case Qt::Key_Down: ++layer; break;
    default: return QWidget::keyPressEvent(event);
    }
    choose(std::clamp(layer, 0, shown_->layers() - 1), std::clamp(column, 0, shown_->heads() + 1));
}

void ModelGridView::paintEditMarks(QPainter& p) const
{
    if (!shown_) return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const attn::model::HeadEdit& e : shown_->edits) {
        const QRectF r = cellRect(e.layer, e.head);
        if (e.kind == attn::model::HeadEditKind::AblateZero ||
            e.kind == attn::model::HeadEditKind::AblateMean) {
            QPen pen(QColor(0xd6, 0x27, 0x28));
            pen.setWidthF(std::max(1.5, r.width() / 14));
            p.setPen(pen);
            p.fillRect(r, QColor(255, 255, 255, 150));
            p.drawLine(r.topLeft(), r.bottomRight());
            if (e.kind == attn::model::HeadEditKind::AblateZero)
                p.drawLine(r.topRight(), r.bottomLeft());
        } else {
            const double d = std::max(5.0, r.width() / 4);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0xf2, 0x8e, 0x2b));
            p.drawEllipse(QRectF(r.right() - d, r.top(), d, d));
        }
    }
    p.restore();
}

void ModelGridView::contextMenuEvent(QContextMenuEvent* event)
{
    if (!shown_) return;
    const ModelGridGeometry g = geometry();
    const ModelGridCell cell = g.cellAt(event->pos());
    if (cell.layer < 0 || cell.column >= shown_->heads()) return;
    const int layer = cell.layer, head = cell.column;
    QMenu menu(this);
    menu.addSection(modelMapName(layer, head, shown_->heads()));
    menu.addAction(tr("Switch Off This Head (output 0)"), this,
                   [this, layer, head] { document_->ablateHead(layer, head, false); });
    menu.addAction(tr("Replace by Its Mean over Positions"), this,
                   [this, layer, head] { document_->ablateHead(layer, head, true); });
    QAction* restore = menu.addAction(tr("Restore This Head"), this,
                                      [this, layer, head] { document_->restoreHead(layer, head); });
    restore->setEnabled(document_->headEdited(layer, head));
    if (document_->hasWorkbench()) {
        menu.addSeparator();
        QAction* open = menu.addAction(tr("Open in &Workbench"), this, [this, layer, head] {
            document_->openInWorkbench(layer, head);
        });
        open->setToolTip(
            tr("Its real queries, keys and values in the workbench: drag a key "
               "and watch the model's prediction"));
    }
    menu.exec(event->globalPos());
}

bool ModelGridView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && shown_) {
        auto* help = static_cast<QHelpEvent*>(event);
        const ModelGridGeometry g = geometry();
        const ModelGridCell cell = g.cellAt(help->pos());
        if (cell.layer < 0) {
            QToolTip::hideText();
            return true;
        }
        QString text = modelMapName(cell.layer, cell.column, shown_->heads());
        const std::vector<float>& first =
            shown_->result.layers[static_cast<std::size_t>(cell.layer)].firstShare;
        if (cell.column < static_cast<int>(first.size()))
            text += QLatin1Char('\n') +
                    tr("%1 % of its attention on the first token")
                        .arg(QString::number(100.0 * first[static_cast<std::size_t>(cell.column)],
                                             'f', 0));
        if (shown_->pooled())
            text += QLatin1Char('\n') + tr("Drawn at screen resolution: each pixel the strongest "
                                           "weight of its block of cells");
        QToolTip::showText(help->globalPos(), text + QLatin1Char('\n') + tr("Click to enlarge"),
                           this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace attnlab
