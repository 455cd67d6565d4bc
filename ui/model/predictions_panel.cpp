#include "ui/model/predictions_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/model/model_document.h"
#include "ui/views/color_scales.h"

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

PredictionsPanel::PredictionsPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      note_(new QLabel(this)),
      tree_(new QTreeWidget(this)),
      changeTitle_(new QLabel(this)),
      change_(new QTableWidget(this))
{
    setObjectName(QStringLiteral("predictions"));
    note_->setWordWrap(true);
    tree_->setRootIsDecorated(true);
    tree_->setItemDelegate(new ProbabilityDelegate(tree_));
    changeTitle_->setWordWrap(true);
    change_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    change_->setToolTip(
        tr("For each layer (row) and head (column): the largest change of one "
           "attention weight that the head edits caused"));
    change_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Compact rows: a GPT-2-small grid (12 layers) fits without scrolling.
    const int row = std::max(10, fontMetrics().height() - 2);
    change_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    change_->verticalHeader()->setDefaultSectionSize(row);
    change_->horizontalHeader()->setMinimumSectionSize(8);
    change_->setMinimumHeight(row * 13 + 6);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(note_);
    layout->addWidget(tree_, 1);
    layout->addWidget(changeTitle_);
    layout->addWidget(change_, 1);
    connect(document_, &ModelDocument::snapshotChanged, this, &PredictionsPanel::refresh);
    connect(document_, &ModelDocument::modelChanged, this, &PredictionsPanel::refresh);
    refresh();
}

void PredictionsPanel::refreshChange(const ModelSnapshot* snap)
{
    const bool shown = snap && snap->edited() && !snap->change.empty();
    changeTitle_->setVisible(shown);
    change_->setVisible(shown);
    if (!shown) return;
    changeTitle_->setText(
        tr("Largest change of a weight, per layer and head (%n head edit(s); "
           "colour from 0 to 1, the value on hover):",
           nullptr, static_cast<int>(snap->edits.size())));
    const int layers = static_cast<int>(snap->change.size());
    const int heads = static_cast<int>(snap->change.front().size());
    change_->setRowCount(layers);
    change_->setColumnCount(heads);
    QStringList rows, columns;
    for (int l = 0; l < layers; ++l) rows << tr("L%1").arg(l + 1);
    for (int h = 0; h < heads; ++h) columns << tr("H%1").arg(h + 1);
    change_->setVerticalHeaderLabels(rows);
    change_->setHorizontalHeaderLabels(columns);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const double v = snap->change[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
            // Colour only (a 12 x 12 grid has no room for numbers); the value on hover.
            auto* item = new QTableWidgetItem;
            const QColor c(lut.color(v, QCPRange(0.0, 1.0)));
            item->setBackground(c);
            item->setToolTip(tr("Layer %1, head %2: %3").arg(l + 1).arg(h + 1).arg(v, 0, 'f', 4));
            change_->setItem(l, h, item);
        }
}

void PredictionsPanel::refresh()
{
    tree_->clear();
    const auto snap = document_->snapshot();
    refreshChange(snap.get());
    const bool edited = snap && snap->edited();
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
    if (edited)
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
                item->setText(3, QStringLiteral("%1%2")
                                     .arg(change >= 0 ? QStringLiteral("+") : QString())
                                     .arg(change, 0, 'f', 1));
                item->setForeground(
                    3, change >= 0 ? QColor(0x2c, 0x7b, 0x2c) : QColor(0xb0, 0x00, 0x20));
            }
            item->setToolTip(0, tr("Token id %1").arg(g.id));
        }
        top->setExpanded(true);
    }
}

}  // namespace attnlab
