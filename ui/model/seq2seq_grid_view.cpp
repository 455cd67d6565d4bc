// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/seq2seq_grid_view.h"

#include <algorithm>
#include <cmath>

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include "ui/model/model_grid_paint.h"
#include "ui/model/seq2seq_document.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;

// The maps of one kind in a run, layer by layer.
std::vector<const std::vector<attn::model::FloatMatrix>*> mapsOf(const Seq2SeqSnapshot& s,
                                                                 AttentionKind kind)
{
    std::vector<const std::vector<attn::model::FloatMatrix>*> out;
    if (kind == AttentionKind::Cross) {
        for (const auto& layer : s.result.cross) out.push_back(&layer);
    } else {
        const auto& stack = kind == AttentionKind::Encoder ? s.result.encoder : s.result.decoder;
        for (const attn::model::LayerTrace& t : stack) out.push_back(&t.attention);
    }
    return out;
}

struct Layout {
    QRectF cells;
    double side = 0.0;
    double gap = 0.0;
    int layers = 0;
    int heads = 0;
    [[nodiscard]] QRectF cell(int layer, int head) const
    {
        return {cells.left() + head * (side + gap), cells.top() + layer * (side + gap), side, side};
    }
};

Layout layoutOf(const QRectF& area, int layers, int heads, double labelWidth)
{
    Layout g;
    g.layers = layers;
    g.heads = heads;
    if (layers <= 0 || heads <= 0) return g;
    const double w = area.width() - labelWidth;
    const double h = area.height();
    const double side =
        std::floor(std::min(w / (heads + (heads - 1) * 0.15), h / (layers + (layers - 1) * 0.15)));
    g.side = std::max(4.0, side);
    g.gap = std::max(1.0, std::round(g.side * 0.15));
    g.cells = QRectF(area.left() + labelWidth, area.top(), heads * (g.side + g.gap) - g.gap,
                     layers * (g.side + g.gap) - g.gap);
    return g;
}

}  // namespace

Seq2SeqGridView::Seq2SeqGridView(Seq2SeqDocument* document, AttentionKind kind, QWidget* parent)
    : QWidget(parent), document_(document), kind_(kind)
{
    setObjectName(QStringLiteral("seq2seqGrid-%1").arg(QLatin1String(attentionKindName(kind))));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(document_, &Seq2SeqDocument::snapshotChanged, this, &Seq2SeqGridView::refresh);
    connect(document_, &Seq2SeqDocument::selectionChanged, this,
            qOverload<>(&Seq2SeqGridView::update));
    refresh();
}

QString Seq2SeqGridView::title() const
{
    switch (kind_) {
    case AttentionKind::Encoder: return tr("Encoder: source × source");
    case AttentionKind::Decoder: return tr("Decoder: target × target (masked)");
    case AttentionKind::Cross: return tr("Cross: target rows × source columns");
    }
    return {};
}

void Seq2SeqGridView::refresh()
{
    shown_ = document_->snapshot();
    thumbnails_.clear();
    if (shown_)
        for (const auto* layer : mapsOf(*shown_, kind_))
            for (const attn::model::FloatMatrix& m : *layer)
                thumbnails_.push_back(weightsThumbnail(m, kModelThumbnailPixels));
    update();
}

QRectF Seq2SeqGridView::titleRect() const
{
    const QFontMetricsF fm(font());
    return {4.0, 2.0, width() - 8.0, fm.height() + 2.0};
}

QRect Seq2SeqGridView::cellRect(int layer, int head) const
{
    if (!shown_) return {};
    const QFontMetricsF fm(font());
    const QRectF area(4.0, titleRect().bottom() + 4.0, width() - 8.0,
                      height() - titleRect().bottom() - 8.0);
    const Layout g = layoutOf(area, document_->layers(kind_), document_->heads(),
                              fm.horizontalAdvance(QStringLiteral("L00")) + 6.0);
    if (layer < 0 || layer >= g.layers || head < 0 || head >= g.heads) return {};
    return g.cell(layer, head).toAlignedRect();
}

bool Seq2SeqGridView::cellAt(const QPoint& p, int& layer, int& head) const
{
    for (int l = 0; l < document_->layers(kind_); ++l)
        for (int h = 0; h < document_->heads(); ++h)
            if (cellRect(l, h).contains(p)) {
                layer = l;
                head = h;
                return true;
            }
    return false;
}

void Seq2SeqGridView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::Text));
    const QRectF t = titleRect();
    p.drawText(t, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(font()).elidedText(title(), Qt::ElideRight, t.toRect().width()));
    if (!shown_) return;
    const int heads = document_->heads();
    const Seq2SeqSelection& sel = document_->selection();
    const std::vector<std::vector<float>>* change = changeOf();
    for (int l = 0; l < document_->layers(kind_); ++l) {
        const QRect first = cellRect(l, 0);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(0, first.top(), first.left() - 4, first.height()),
                   Qt::AlignRight | Qt::AlignVCenter, tr("L%1").arg(l + 1));
        for (int h = 0; h < heads; ++h) {
            const auto i = static_cast<std::size_t>(l * heads + h);
            const QRect r = cellRect(l, h);
            if (i < thumbnails_.size()) p.drawImage(r, thumbnails_[i]);
            if (document_->headAblated(kind_, l, h)) {
                p.setPen(QPen(QColor(200, 30, 30), 2));
                p.drawLine(r.topLeft(), r.bottomRight());
                p.drawLine(r.topRight(), r.bottomLeft());
            } else if (document_->headEdited(kind_, l, h)) {
                p.setBrush(QColor(255, 140, 0));
                p.setPen(Qt::NoPen);
                p.drawEllipse(QPointF(r.right() - 4, r.top() + 4), 3.5, 3.5);
                p.setBrush(Qt::NoBrush);
            }
            // How much an edit moved this head's weights: an amber frame as strong as its
            // largest change (1 = a weight moved from 0 to 1); rounding noise draws none.
            if (change != nullptr && static_cast<std::size_t>(l) < change->size() &&
                static_cast<std::size_t>(h) < (*change)[static_cast<std::size_t>(l)].size()) {
                const float c = (*change)[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
                if (isAttentionChange(c)) {
                    QColor amber(255, 140, 0);
                    amber.setAlphaF(std::clamp(0.35 + 0.65 * static_cast<double>(c), 0.35, 1.0));
                    p.setPen(QPen(amber, 3));
                    p.setBrush(Qt::NoBrush);
                    p.drawRect(QRectF(r).adjusted(1.5, 1.5, -1.5, -1.5));
                }
            }
            if (sel.kind == kind_ && sel.layer == l && sel.head == h) {
                p.setPen(QPen(QColor(220, 0, 0), 2));
                p.drawRect(QRectF(r).adjusted(-1, -1, 1, 1));
            }
        }
    }
}

const std::vector<std::vector<float>>* Seq2SeqGridView::changeOf() const
{
    if (!shown_ || !shown_->edited()) return nullptr;
    const attn::model::Seq2SeqChange& c = shown_->change;
    return kind_ == AttentionKind::Encoder   ? &c.encoder
           : kind_ == AttentionKind::Decoder ? &c.decoder
                                             : &c.cross;
}

float Seq2SeqGridView::changeAt(int layer, int head) const
{
    const std::vector<std::vector<float>>* c = changeOf();
    if (c == nullptr || layer < 0 || static_cast<std::size_t>(layer) >= c->size()) return 0.0f;
    const std::vector<float>& row = (*c)[static_cast<std::size_t>(layer)];
    return head >= 0 && static_cast<std::size_t>(head) < row.size()
               ? row[static_cast<std::size_t>(head)]
               : 0.0f;
}

void Seq2SeqGridView::mousePressEvent(QMouseEvent* event)
{
    int layer = 0, head = 0;
    if (event->button() == Qt::LeftButton && cellAt(event->pos(), layer, head))
        document_->select({kind_, layer, head});
    QWidget::mousePressEvent(event);
}

void Seq2SeqGridView::keyPressEvent(QKeyEvent* event)
{
    Seq2SeqSelection s = document_->selection();
    if (s.kind != kind_) s = {kind_, 0, 0};
    switch (event->key()) {
    case Qt::Key_Left: --s.head; break;
    case Qt::Key_Right: ++s.head; break;
    case Qt::Key_Up: --s.layer; break;
    case Qt::Key_Down: ++s.layer; break;
    default: QWidget::keyPressEvent(event); return;
    }
    document_->select(s);
}

void Seq2SeqGridView::contextMenuEvent(QContextMenuEvent* event)
{
    int layer = 0, head = 0;
    if (cellAt(event->pos(), layer, head)) showEditMenu(layer, head, event->globalPos());
}

void Seq2SeqGridView::showEditMenu(int layer, int head, const QPoint& globalPos)
{
    const auto snap = document_->snapshot();
    if (!snap) return;
    document_->select({kind_, layer, head});
    QMenu menu(this);
    menu.addAction(tr("Switch Off This Head"), this,
                   [this, layer, head] { document_->ablateHead(kind_, layer, head); });
    QAction* restore = menu.addAction(tr("Restore This Head"), this, [this, layer, head] {
        document_->restoreHead(kind_, layer, head);
    });
    restore->setEnabled(document_->headEdited(kind_, layer, head));
    // Keys: an encoder or cross head's are the source's tokens, a decoder head's the target's.
    const Seq2SeqSide& keys = kind_ == AttentionKind::Decoder ? snap->target : snap->source;
    for (const auto& [factor, text] :
         {std::pair{0.0f, tr("Switch Off the Key of")}, std::pair{2.0f, tr("Double the Key of")}}) {
        QMenu* sub = menu.addMenu(text);
        for (int j = 0; j < keys.labels.size(); ++j)
            sub->addAction(QStringLiteral("%1  %2").arg(j + 1).arg(keys.labels[j]), this,
                           [this, layer, head, j, f = factor] {
                               document_->scaleVector(kind_, attn::model::HeadEditKind::Key, layer,
                                                      head, j, f);
                           });
    }
    if (kind_ == AttentionKind::Cross) {
        menu.addSeparator();
        QAction* open = menu.addAction(tr("Open in Workbench"), this, [this, layer, head] {
            document_->openInWorkbench(layer, head);
        });
        open->setEnabled(document_->hasWorkbench());
        open->setToolTip(
            tr("Study this head in the workbench in cross mode: the target's tokens "
               "are the queries, the source's the keys and values."));
    }
    menu.exec(globalPos);
}

bool Seq2SeqGridView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int layer = 0, head = 0;
        if (!shown_ || !cellAt(help->pos(), layer, head)) {
            QToolTip::hideText();
            return true;
        }
        QString text = tr("Layer %1, head %2").arg(layer + 1).arg(head + 1) + QLatin1Char('\n') +
                       document_->explanation(kind_);
        if (shown_->edited())
            text += QLatin1Char('\n') +
                    (isAttentionChange(changeAt(layer, head))
                         ? tr("The edits moved a weight of this head by up to %1")
                               .arg(static_cast<double>(changeAt(layer, head)), 0, 'f', 4)
                         : tr("The edits leave this head's weights as they were"));
        QToolTip::showText(help->globalPos(),
                           text + QLatin1Char('\n') + tr("Click to enlarge; right-click to edit"),
                           this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace attnlab
