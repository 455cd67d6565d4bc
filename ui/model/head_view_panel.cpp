// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/head_view_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/model/head_lines_paint.h"
#include "ui/model/model_document.h"

namespace attnlab {

HeadLinesCanvas::HeadLinesCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
}

double HeadLinesCanvas::basePx() const
{
    return std::max(9.0, fontInfo().pixelSize() * 1.0);
}

QRectF HeadLinesCanvas::area() const
{
    return QRectF(rect()).adjusted(8, 8, -8, -8);
}

HeadLinesGeometry HeadLinesCanvas::geometry() const
{
    const int n = snapshot_ ? static_cast<int>(snapshot_->tokenCount()) : 0;
    return headLinesGeometry(area(), n, basePx());
}

void HeadLinesCanvas::setContent(std::shared_ptr<const ModelSnapshot> snapshot, int layer, int head)
{
    snapshot_ = std::move(snapshot);
    layer_ = layer;
    head_ = head;
    if (!snapshot_ || hoverQuery_ >= snapshot_->tokenCount()) hoverQuery_ = -1;
    if (!snapshot_ || hoverKey_ >= snapshot_->tokenCount()) hoverKey_ = -1;
    update();
}

int HeadLinesCanvas::drawnHeads() const
{
    if (!snapshot_) return 0;
    return head_ >= 0 ? 1 : snapshot_->heads();
}

QPoint HeadLinesCanvas::tokenCentre(int side, int index) const
{
    const HeadLinesGeometry g = geometry();
    const QRectF column = side == 0 ? g.left : g.right;
    return QPointF(column.center().x(), column.top() + (index + 0.5) * g.rowHeight).toPoint();
}

void HeadLinesCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!snapshot_ || layer_ >= snapshot_->layers()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No run yet."));
        return;
    }
    if (snapshot_->pooled()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   headLinesTooLong(snapshot_->tokenCount()));
        return;
    }
    HeadLinesContent c;
    c.labels = snapshot_->labels;
    const auto& attention = snapshot_->result.layers[static_cast<std::size_t>(layer_)].attention;
    for (int h = 0; h < static_cast<int>(attention.size()); ++h) {
        if (head_ >= 0 && h != head_) continue;
        c.weights.push_back(&attention[static_cast<std::size_t>(h)]);
        c.colors.push_back(headColor(h));
    }
    c.hoverQuery = hoverQuery_;
    c.hoverKey = hoverKey_;
    paintHeadLines(p, area(), c, basePx());
}

void HeadLinesCanvas::mouseMoveEvent(QMouseEvent* event)
{
    const HeadLinesGeometry g = geometry();
    int side = -1, index = -1;
    g.tokenAt(event->position(), side, index);
    const int query = side == 0 ? index : -1;
    const int key = side == 1 ? index : -1;
    if (query == hoverQuery_ && key == hoverKey_) return;
    hoverQuery_ = query;
    hoverKey_ = key;
    update();
}

QString HeadLinesCanvas::toolTipAt(const QPoint& pos) const
{
    const QString help = tr("Left: queries; right: keys. Point at a token to see only its lines.");
    if (!snapshot_) return help;
    int side = -1, index = -1;
    geometry().tokenAt(pos, side, index);
    if (side < 0 || index < 0 || index >= snapshot_->tokenCount()) return help;
    return (side == 0 ? tr("Query %1 %2") : tr("Key %1 %2"))
        .arg(QString::number(index + 1), tokenDetail(*snapshot_, index));
}

bool HeadLinesCanvas::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), toolTipAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

void HeadLinesCanvas::leaveEvent(QEvent*)
{
    hoverQuery_ = hoverKey_ = -1;
    update();
}

HeadViewPanel::HeadViewPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      layers_(new QComboBox(this)),
      heads_(new QComboBox(this)),
      canvas_(new HeadLinesCanvas(this))
{
    setObjectName(QStringLiteral("headView"));
    auto* bar = new QHBoxLayout;
    auto* layerLabel = new QLabel(tr("&Layer:"), this);
    layerLabel->setBuddy(layers_);
    auto* headLabel = new QLabel(tr("H&ead:"), this);
    headLabel->setBuddy(heads_);
    layers_->setToolTip(tr("The layer whose heads are drawn"));
    heads_->setToolTip(tr("One head, or all of the layer's heads in their colours"));
    bar->addWidget(layerLabel);
    bar->addWidget(layers_, 1);
    bar->addWidget(headLabel);
    bar->addWidget(heads_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(canvas_, 1);
    connect(document_, &ModelDocument::modelChanged, this, &HeadViewPanel::refill);
    connect(document_, &ModelDocument::snapshotChanged, this, &HeadViewPanel::follow);
    connect(document_, &ModelDocument::selectionChanged, this, &HeadViewPanel::follow);
    connect(layers_, &QComboBox::activated, this, &HeadViewPanel::chosen);
    connect(heads_, &QComboBox::activated, this, &HeadViewPanel::chosen);
    refill();
}

int HeadViewPanel::shownHead() const
{
    return heads_->currentData().toInt();
}

void HeadViewPanel::refill()
{
    filling_ = true;
    layers_->clear();
    heads_->clear();
    for (int l = 0; l < document_->layers(); ++l) layers_->addItem(tr("Layer %1").arg(l + 1), l);
    heads_->addItem(tr("All heads"), -1);
    for (int h = 0; h < document_->heads(); ++h) heads_->addItem(tr("Head %1").arg(h + 1), h);
    filling_ = false;
    follow();
}

void HeadViewPanel::follow()
{
    const ModelSelection& s = document_->selection();
    filling_ = true;
    layers_->setCurrentIndex(s.layer);
    // A head chosen in the model view shows alone; a mean or a rollout shows all the heads.
    heads_->setCurrentIndex(s.focus == ModelFocus::Head ? s.head + 1 : 0);
    filling_ = false;
    canvas_->setContent(document_->snapshot(), s.layer, shownHead());
}

void HeadViewPanel::chosen()
{
    if (filling_) return;
    const int layer = std::max(0, layers_->currentIndex());
    const int head = shownHead();
    if (head >= 0)
        document_->selectHead(layer, head);
    else
        document_->selectAggregate(layer, ModelFocus::LayerAverage);
    canvas_->setContent(document_->snapshot(), layer, head);
}

}  // namespace attnlab
