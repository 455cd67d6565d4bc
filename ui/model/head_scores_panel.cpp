// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/head_scores_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"

namespace attnlab {

namespace {

attn::HeadKind kindAt(int index)
{
    return attn::kHeadKinds[std::clamp(index, 0, 3)];
}

}  // namespace

HeadScoresPanel::HeadScoresPanel(ModelDocument* document, HeadScoresSource* source, QWidget* parent)
    : QWidget(parent),
      document_(document),
      source_(source),
      kind_(new QComboBox(this)),
      tint_(new QCheckBox(tr("Colour the model view"), this)),
      note_(new QLabel(this)),
      table_(new QTableWidget(this))
{
    kind_->addItem(tr("Previous-token"));
    kind_->addItem(tr("Duplicate-token"));
    kind_->addItem(tr("Induction"));
    kind_->addItem(tr("First-token (sink)"));
    kind_->setCurrentIndex(2);
    kind_->setToolTip(
        tr("Measured on m random tokens followed by the same m tokens. Previous-token: the mean "
           "weight on the token just before; duplicate-token: on the earlier copy of the same "
           "token; induction: on the token after that copy (what copying needs); first-token: "
           "on token 1."));
    tint_->setToolTip(tr("Frame every head of the model view by this score"));
    note_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(kind_);
    layout->addWidget(tint_);
    layout->addWidget(table_, 1);
    layout->addWidget(note_);

    connect(source_, &HeadScoresSource::changed, this, &HeadScoresPanel::refresh);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (tint_->isChecked()) source_->setTint(kindAt(index));
        refresh();
    });
    connect(tint_, &QCheckBox::toggled, this, [this](bool on) {
        source_->setTint(on ? std::optional(kindAt(kind_->currentIndex())) : std::nullopt);
    });
    connect(table_, &QTableWidget::cellClicked, this,
            [this](int row, int column) { document_->selectHead(row, column); });
    refresh();
}

void HeadScoresPanel::refresh()
{
    const attn::HeadScoreTable& scores = source_->scores();
    const attn::HeadKind kind = kindAt(kind_->currentIndex());
    const int layers = static_cast<int>(scores.size());
    const int heads = layers > 0 ? static_cast<int>(scores.front().size()) : 0;
    table_->setRowCount(layers);
    table_->setColumnCount(heads);
    QStringList rows, columns;
    for (int l = 0; l < layers; ++l) rows << tr("L%1").arg(l + 1);
    for (int h = 0; h < heads; ++h) columns << tr("H%1").arg(h + 1);
    table_->setVerticalHeaderLabels(rows);
    table_->setHorizontalHeaderLabels(columns);
    for (int l = 0; l < layers; ++l) {
        for (int h = 0; h < heads; ++h) {
            const double v = attn::scoreOf(scores[l][h], kind);
            auto* item = new QTableWidgetItem(QString::number(v, 'f', 2));
            const int shade = static_cast<int>(255 - 200 * std::clamp(v, 0.0, 1.0));
            item->setBackground(QColor(shade, shade, 255));
            item->setForeground(v > 0.6 ? Qt::white : Qt::black);
            item->setTextAlignment(Qt::AlignCenter);
            item->setToolTip(tr("Layer %1, head %2: previous-token %3, duplicate-token %4, "
                                "induction %5, first-token %6")
                                 .arg(l + 1)
                                 .arg(h + 1)
                                 .arg(scores[l][h].previousToken, 0, 'f', 3)
                                 .arg(scores[l][h].duplicateToken, 0, 'f', 3)
                                 .arg(scores[l][h].induction, 0, 'f', 3)
                                 .arg(scores[l][h].firstToken, 0, 'f', 3));
            table_->setItem(l, h, item);
        }
    }
    if (source_->computing())
        note_->setText(tr("Measuring the heads…"));
    else if (layers == 0)
        note_->setText(tr("Open a model to see what kind of head each head is."));
    else
        note_->setText(tr("Mean weights on %1 random tokens followed by the same %1, over 16 "
                          "such sequences.")
                           .arg(source_->half()));
}

}  // namespace attnlab
