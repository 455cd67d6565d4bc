// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/seq2seq_head_view.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPainter>

#include "ui/model/seq2seq_document.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;

// The labels of the keys (left) and queries (right) of a map of `kind`.
const QStringList& sideLabels(const Seq2SeqSnapshot& s, AttentionKind kind, bool query)
{
    if (kind == AttentionKind::Encoder) return s.source.labels;
    if (kind == AttentionKind::Decoder) return s.target.labels;
    return query ? s.target.labels : s.source.labels;
}

}  // namespace

Seq2SeqHeadView::Seq2SeqHeadView(Seq2SeqDocument* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    setObjectName(QStringLiteral("seq2seqHeadView"));
    setToolTip(
        tr("Lines from each query (right) to each key (left), as strong as the weight. "
           "Click a token on the right to see its lines alone; click it again for all."));
    connect(document_, &Seq2SeqDocument::snapshotChanged, this, [this] {
        query_ = -1;
        update();
    });
    connect(document_, &Seq2SeqDocument::selectionChanged, this, [this] {
        query_ = -1;
        update();
    });
}

void Seq2SeqHeadView::setFocusedQuery(int row)
{
    query_ = row;
    update();
}

int Seq2SeqHeadView::rowsShown(int count) const
{
    return std::max(1, count);
}

QRect Seq2SeqHeadView::tokenRect(bool query, int index) const
{
    const auto snap = document_->snapshot();
    if (!snap) return {};
    const int count =
        static_cast<int>(sideLabels(*snap, document_->selection().kind, query).size());
    if (index < 0 || index >= count) return {};
    const QFontMetrics fm(font());
    const int top = fm.height() + 8;
    // Rows spread over the height (as far as three lines of text apart), so that the lines
    // between them are steep enough to follow, in the tab and full screen alike.
    const double step = std::min(fm.height() * 3.0, (height() - top - 4.0) / rowsShown(count));
    const int w = std::max(60, width() / 4);
    const int x = query ? width() - w - 4 : 4;
    return QRect(x, top + static_cast<int>(index * step), w, static_cast<int>(step));
}

void Seq2SeqHeadView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const auto snap = document_->snapshot();
    const attn::model::FloatMatrix* map = document_->selectedMap();
    if (!snap || map == nullptr) return;
    const AttentionKind kind = document_->selection().kind;
    const QStringList& keys = sideLabels(*snap, kind, false);
    const QStringList& queries = sideLabels(*snap, kind, true);
    const QFontMetrics fm(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString leftTitle =
        kind == AttentionKind::Decoder ? tr("target (keys)") : tr("source (keys)");
    const QString rightTitle =
        kind == AttentionKind::Encoder ? tr("source (queries)") : tr("target (queries)");
    p.drawText(QRect(4, 2, width() / 2 - 8, fm.height() + 4), Qt::AlignLeft, leftTitle);
    p.drawText(QRect(width() / 2, 2, width() / 2 - 4, fm.height() + 4), Qt::AlignRight, rightTitle);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor line(30, 90, 200);
    for (long i = 0; i < map->rows() && i < queries.size(); ++i) {
        if (query_ >= 0 && i != query_) continue;
        const QRect q = tokenRect(true, static_cast<int>(i));
        for (long j = 0; j < map->cols() && j < keys.size(); ++j) {
            const float w = (*map)(i, j);
            if (w < 0.01f) continue;
            QColor c = line;
            c.setAlphaF(std::clamp(static_cast<double>(w), 0.05, 1.0));
            p.setPen(QPen(c, 1.0 + 3.0 * w));
            const QRect k = tokenRect(false, static_cast<int>(j));
            p.drawLine(QPointF(k.right() + 4, k.center().y()),
                       QPointF(q.left() - 4, q.center().y()));
        }
    }
    p.setPen(palette().color(QPalette::Text));
    for (int j = 0; j < keys.size(); ++j) {
        const QRect r = tokenRect(false, j);
        p.drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(keys[j], Qt::ElideRight, r.width()));
    }
    for (int i = 0; i < queries.size(); ++i) {
        const QRect r = tokenRect(true, i);
        QFont f = font();
        f.setBold(i == query_);
        p.setFont(f);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(f).elidedText(queries[i], Qt::ElideRight, r.width()));
    }
}

void Seq2SeqHeadView::mousePressEvent(QMouseEvent* event)
{
    const auto snap = document_->snapshot();
    if (!snap) return;
    const int count = static_cast<int>(sideLabels(*snap, document_->selection().kind, true).size());
    for (int i = 0; i < count; ++i)
        if (tokenRect(true, i).contains(event->pos())) {
            setFocusedQuery(i == query_ ? -1 : i);
            return;
        }
    QWidget::mousePressEvent(event);
}

}  // namespace attnlab
