// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/predictions_panel.h"

#include <cmath>

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/model/run_source.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab {

namespace {

constexpr int kProbabilityRole = Qt::UserRole + 1;

constexpr int kTextMargin = 4;

}  // namespace

// A probability as a bar beside its percentage.
class ProbabilityDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    // The pixels a probability column gives its bar beside the digits.
    void setBarRoom(int pixels) { barRoom_ = pixels; }
    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        const QVariant v = index.data(kProbabilityRole);
        if (!v.isValid()) return QStyledItemDelegate::paint(p, option, index);
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString text = opt.text;
        opt.text.clear();
        const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, p, opt.widget);
        const ProbabilityCellLayout cell =
            probabilityCellLayout(opt.rect, opt.fontMetrics.horizontalAdvance(text), v.toDouble());
        p->fillRect(cell.bar, QColor(0x4e, 0x79, 0xa7, 0x70));
        p->setFont(opt.font);
        p->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                       : QPalette::Text));
        p->drawText(cell.text, Qt::AlignRight | Qt::AlignVCenter, text);
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        if (index.data(kProbabilityRole).isValid()) size.rwidth() += barRoom_;
        return size;
    }

private:
    int barRoom_ = 56;
};

ProbabilityCellLayout probabilityCellLayout(const QRect& cell, int textWidth, double probability)
{
    ProbabilityCellLayout out;
    const QRect inner = cell.adjusted(2, 0, -kTextMargin, 0);
    const int textLeft = std::max(inner.left(), inner.right() + 1 - textWidth);
    out.text = QRect(QPoint(textLeft, inner.top()), QPoint(inner.right(), inner.bottom()));
    // The bar's part ends a margin before the digits.
    const double barRight = textLeft - kTextMargin;
    const double barRoom = std::max(0.0, barRight - inner.left());
    out.bar = QRectF(inner.left(), inner.top() + 3, barRoom * std::clamp(probability, 0.0, 1.0),
                     std::max(0, inner.height() - 6));
    return out;
}

PredictionsPanel::PredictionsPanel(RunSource* document, QWidget* parent)
    : QWidget(parent), document_(document), note_(new QLabel(this)), tree_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("predictions"));
    note_->setWordWrap(true);
    tree_->setRootIsDecorated(true);
    delegate_ = new ProbabilityDelegate(tree_);
    tree_->setItemDelegate(delegate_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(note_);
    layout->addWidget(tree_, 1);
    connect(document_, &RunSource::snapshotChanged, this, &PredictionsPanel::refresh);
    connect(document_, &RunSource::modelChanged, this, &PredictionsPanel::refresh);
    refresh();
}

void PredictionsPanel::refresh()
{
    tree_->clear();
    const auto snap = document_->snapshot();
    const bool edited = snap && snap->compared();
    // Before and after share a dock's width with the tokens and the change: shorter bars.
    delegate_->setBarRoom(edited ? 24 : 56);
    if (edited) {
        tree_->setColumnCount(4);
        tree_->setHeaderLabels({tr("Token"), tr("Before"), tr("After"), tr("Change")});
    } else {
        tree_->setColumnCount(2);
        tree_->setHeaderLabels({tr("Token"), tr("Probability")});
    }
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < tree_->columnCount(); ++c)
        tree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    const bool bert = document_->modelType() == QLatin1String("bert");
    if (!snap) {
        note_->setText(document_->hasModel() ? tr("No run yet.") : tr("No model open."));
        return;
    }
    if (snap->predictions.empty()) {
        note_->setText(bert ? tr("Put [MASK] in the text to see what BERT fills in (a "
                                 "checkpoint without its masked-LM head predicts nothing).")
                            : tr("This model gives no predictions."));
        return;
    }
    note_->setText(bert ? tr("The 10 most probable tokens for each [MASK].")
                        : tr("The 10 most probable next tokens."));
    if (snap->fromWorkbench)
        note_->setText(note_->text() + QLatin1Char(' ') +
                       tr("With the workbench's head (after) beside the unedited model (before); "
                          "change in percentage points."));
    else if (edited)
        note_->setText(note_->text() + QLatin1Char(' ') +
                       tr("With the head edits (after) beside the unedited model (before); "
                          "change in percentage points."));
    const bool cutOff = std::any_of(
        snap->predictions.begin(), snap->predictions.end(), [](const ModelPrediction& p) {
            return std::any_of(p.top.begin(), p.top.end(),
                               [](const ModelGuess& g) { return g.cutOff; });
        });
    if (cutOff)
        note_->setText(note_->text() + QLatin1Char(' ') +
                       tr("A token such as <E5><AE>… holds only the first bytes of a character "
                          "(in hex): the next token would complete it."));
    for (const ModelPrediction& p : snap->predictions) {
        const QString at = tokenText(*snap, p.position);
        auto* top = new QTreeWidgetItem(tree_);
        top->setText(0, bert ? tr("[MASK] at position %1").arg(p.position + 1)
                             : tr("After “%1” (position %2)").arg(at).arg(p.position + 1));
        top->setFirstColumnSpanned(true);
        for (const ModelGuess& g : p.top) {
            auto* item = new QTreeWidgetItem(top);
            item->setText(0, g.label);
            const int after = edited ? 2 : 1;
            item->setText(after, QStringLiteral("%1 %").arg(g.probability * 100.0, 0, 'f', 1));
            item->setData(after, kProbabilityRole, g.probability);
            if (edited) {
                item->setText(1, QStringLiteral("%1 %").arg(g.before * 100.0, 0, 'f', 1));
                item->setData(1, kProbabilityRole, g.before);
                const double change = g.probability - g.before;
                item->setText(3, percentPointChange(g.before, g.probability));
                item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
                // Rounding noise keeps the neutral colour, as its text reads "0.0 pp".
                if (isProbabilityChange(g.before, g.probability))
                    item->setForeground(
                        3, change > 0 ? QColor(0x2c, 0x7b, 0x2c) : QColor(0xb0, 0x00, 0x20));
            }
            item->setToolTip(0, g.cutOff ? tr("Token id %1: the first bytes of a character, which "
                                              "a next token would complete")
                                               .arg(g.id)
                                         : tr("Token id %1").arg(g.id));
        }
        top->setExpanded(true);
    }
}

}  // namespace attnlab
