#include "ui/model/predictions_panel.h"

#include <cmath>

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/model/model_snapshot.h"
#include "ui/model/run_source.h"

namespace attnlab {

namespace {

constexpr int kProbabilityRole = Qt::UserRole + 1;

// A probability as a bar behind its percentage.
class ProbabilityDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        const QVariant v = index.data(kProbabilityRole);
        if (v.isValid()) {
            QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
            bar.setWidth(bar.width() * std::clamp(v.toDouble(), 0.0, 1.0));
            p->fillRect(bar, QColor(0x4e, 0x79, 0xa7, 0x70));
        }
        QStyledItemDelegate::paint(p, option, index);
    }
};

}  // namespace

PredictionsPanel::PredictionsPanel(RunSource* document, QWidget* parent)
    : QWidget(parent), document_(document), note_(new QLabel(this)), tree_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("predictions"));
    note_->setWordWrap(true);
    tree_->setRootIsDecorated(true);
    tree_->setItemDelegate(new ProbabilityDelegate(tree_));
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
    for (const ModelPrediction& p : snap->predictions) {
        const QString at = p.position < snap->labels.size() ? snap->labels[p.position] : QString();
        auto* top = new QTreeWidgetItem(tree_);
        top->setText(0, bert ? tr("[MASK] at position %1").arg(p.position)
                             : tr("After “%1” (position %2)").arg(at).arg(p.position));
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
                const double change = (g.probability - g.before) * 100.0;
                // A change that rounds to 0.0 points is written 0.0 (not "-0.0" or "+0.0").
                const bool none = std::abs(change) < 0.05;
                item->setText(3, none ? QStringLiteral("0.0")
                                      : QStringLiteral("%1%2")
                                            .arg(change > 0 ? QStringLiteral("+") : QString())
                                            .arg(change, 0, 'f', 1));
                if (!none)
                    item->setForeground(
                        3, change > 0 ? QColor(0x2c, 0x7b, 0x2c) : QColor(0xb0, 0x00, 0x20));
            }
            item->setToolTip(0, tr("Token id %1").arg(g.id));
        }
        top->setExpanded(true);
    }
}

}  // namespace attnlab
