#include "ui/model/model_grid_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>

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
    update();
}

QRect ModelGridView::cellRect(int layer, int column) const
{
    if (!shown_) return {};
    const ModelGridGeometry g = modelGridGeometry(QRectF(rect()).adjusted(6, 6, -6, -6),
                                                  shown_->layers(), shown_->heads(), basePx());
    return g.cellRect(layer, column).toAlignedRect();
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
    style.selected.column = s.focus == ModelFocus::Head           ? s.head
                            : s.focus == ModelFocus::LayerAverage ? shown_->heads()
                                                                  : shown_->heads() + 1;
    paintModelGrid(p, QRectF(rect()).adjusted(6, 6, -6, -6), *shown_, shown_->thumbnails, style);
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
    const ModelGridGeometry g = modelGridGeometry(QRectF(rect()).adjusted(6, 6, -6, -6),
                                                  shown_->layers(), shown_->heads(), basePx());
    const ModelGridCell cell = g.cellAt(event->position());
    choose(cell.layer, cell.column);
}

void ModelGridView::keyPressEvent(QKeyEvent* event)
{
    if (!shown_) return QWidget::keyPressEvent(event);
    const ModelSelection& s = document_->selection();
    int layer = s.layer;
    int column = s.focus == ModelFocus::Head           ? s.head
                 : s.focus == ModelFocus::LayerAverage ? shown_->heads()
                                                       : shown_->heads() + 1;
    switch (event->key()) {
    case Qt::Key_Left: --column; break;
    case Qt::Key_Right: ++column; break;
    case Qt::Key_Up: --layer; break;
    case Qt::Key_Down: ++layer; break;
    default: return QWidget::keyPressEvent(event);
    }
    choose(std::clamp(layer, 0, shown_->layers() - 1), std::clamp(column, 0, shown_->heads() + 1));
}

bool ModelGridView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && shown_) {
        auto* help = static_cast<QHelpEvent*>(event);
        const ModelGridGeometry g = modelGridGeometry(QRectF(rect()).adjusted(6, 6, -6, -6),
                                                      shown_->layers(), shown_->heads(), basePx());
        const ModelGridCell cell = g.cellAt(help->pos());
        if (cell.layer < 0) {
            QToolTip::hideText();
            return true;
        }
        const QString text = modelMapName(cell.layer, cell.column, shown_->heads());
        QToolTip::showText(help->globalPos(), text + QLatin1Char('\n') + tr("Click to enlarge"),
                           this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace attnlab
