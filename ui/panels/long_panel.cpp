// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/long_panel.h"

#include <algorithm>
#include <numeric>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/document/long_document.h"

namespace attnlab {

namespace {

QString mib(std::size_t bytes)
{
    return QLocale().toString(static_cast<qint64>(bytes >> 20));
}

QString number(double v, int decimals = 4)
{
    return QLocale().toString(v, 'f', decimals);
}

}  // namespace

LongPanel::LongPanel(LongDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildKeptBox());
    layout->addWidget(buildOptionsBox());
    layout->addWidget(buildKeyBox());
    layout->addWidget(buildRowBox(), 1);
    connectParts();
    retranslate();
}

// What the long run keeps in memory.
QGroupBox* LongPanel::buildKeptBox()
{
    keptBox_ = new QGroupBox(this);
    kept_ = new QLabel(keptBox_);
    kept_->setWordWrap(true);
    kept_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    (new QVBoxLayout(keptBox_))->addWidget(kept_);
    return keptBox_;
}

// The head, mode and scaling of the computation.
QGroupBox* LongPanel::buildOptionsBox()
{
    optionsBox_ = new QGroupBox(this);
    auto* options = new QFormLayout(optionsBox_);
    headLabel_ = new QLabel(optionsBox_);
    head_ = new QSpinBox(optionsBox_);
    options->addRow(headLabel_, head_);
    modeLabel_ = new QLabel(optionsBox_);
    mode_ = new QComboBox(optionsBox_);
    options->addRow(modeLabel_, mode_);
    scaling_ = new QCheckBox(optionsBox_);
    options->addRow(scaling_);
    return optionsBox_;
}

// One key scaled by a factor, applied on request.
QGroupBox* LongPanel::buildKeyBox()
{
    keyBox_ = new QGroupBox(this);
    auto* keys = new QFormLayout(keyBox_);
    keyLabel_ = new QLabel(keyBox_);
    key_ = new QSpinBox(keyBox_);
    keys->addRow(keyLabel_, key_);
    keyToken_ = new QLabel(keyBox_);
    keys->addRow(keyToken_);
    scaleLabel_ = new QLabel(keyBox_);
    scale_ = new QDoubleSpinBox(keyBox_);
    scale_->setRange(-10.0, 10.0);
    scale_->setSingleStep(0.5);
    scale_->setDecimals(2);
    scale_->setValue(2.0);
    keys->addRow(scaleLabel_, scale_);
    apply_ = new QPushButton(keyBox_);
    apply_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    keys->addRow(apply_);
    return keyBox_;
}

// The selected row: its summary and the keys it attends to most.
QGroupBox* LongPanel::buildRowBox()
{
    rowBox_ = new QGroupBox(this);
    auto* rowLayout = new QVBoxLayout(rowBox_);
    row_ = new QLabel(rowBox_);
    row_->setWordWrap(true);
    row_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rowLayout->addWidget(row_);
    table_ = new QTableWidget(0, 4, rowBox_);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    // The key column takes what the numbers leave, so that no column hides behind a scroll bar.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    rowLayout->addWidget(table_, 1);
    return rowBox_;
}

void LongPanel::connectParts()
{
    connect(head_, &QSpinBox::valueChanged, this, [this](int v) { doc_->setHead(v - 1); });
    connect(mode_, &QComboBox::activated, this,
            [this](int i) { doc_->setMode(static_cast<attn::Mode>(mode_->itemData(i).toInt())); });
    connect(scaling_, &QCheckBox::clicked, this, [this](bool on) {
        doc_->setScaling(on ? attn::Scaling::SqrtDk : attn::Scaling::None);
    });
    connect(key_, &QSpinBox::valueChanged, this, [this] { refreshKey(); });
    connect(apply_, &QPushButton::clicked, this,
            [this] { doc_->scaleKey(doc_->head(), key_->value() - 1, scale_->value()); });
    connect(doc_, &LongDocument::changed, this, [this] {
        refresh();
        refreshRow();
    });
    connect(doc_, &LongDocument::selectionChanged, this, [this] {
        refresh();
        refreshRow();
    });
    connect(doc_, &LongDocument::busyChanged, this, [this] {
        refresh();
        refreshRow();  // "Computing…" rather than "No map is computed" while it computes
    });
}

QString LongPanel::keptText() const
{
    return kept_->text();
}

QString LongPanel::rowText() const
{
    return row_->text();
}

void LongPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void LongPanel::retranslate()
{
    keptBox_->setTitle(tr("What is kept"));
    optionsBox_->setTitle(tr("Attention"));
    headLabel_->setText(tr("Head:"));
    modeLabel_->setText(tr("Mode:"));
    scaling_->setText(tr("Divide the scores by √d_k"));
    scaling_->setToolTip(tr("Without it, long rows of large scores saturate the softmax"));
    keyBox_->setTitle(tr("Scale one key"));
    keyLabel_->setText(tr("Key:"));
    scaleLabel_->setText(tr("Scale by:"));
    apply_->setText(tr("Apply"));
    apply_->setToolTip(tr("Recompute every row with this key scaled (Ctrl+Return)"));
    rowBox_->setTitle(tr("Selected row"));
    table_->setHorizontalHeaderLabels({tr("Key"), tr("P"), tr("q·k"), tr("Scaled")});
    table_->setToolTip(
        tr("The keys this row weighs most: P is the weight, q·k the score, Scaled "
           "the score after the scaling; the scores are recomputed from Q and K"));
    refresh();
    refreshRow();
}

void LongPanel::refresh()
{
    const Session& s = doc_->session();
    const attn::AttentionInput& in = s.input;
    const bool busy = doc_->computing();
    const auto heads = static_cast<int>(in.heads.size());
    kept_->setText(
        tr("%1 queries × %2 keys, d_k = %3, %n head(s), in float. Of the n × m stages only the "
           "weights P are kept (%4 MiB); the scores of a row are recomputed from Q and K when you "
           "point at it or select it. Held: %5 MiB of the %6 MiB budget; every stage in double "
           "would need %7 MiB.",
           nullptr, heads)
            .arg(QLocale().toString(static_cast<qint64>(in.queryCount())),
                 QLocale().toString(static_cast<qint64>(in.keyCount())))
            .arg(in.keyDim())
            .arg(mib(doc_->weightsBytes()), mib(doc_->heldBytes()), mib(doc_->limits().maxBytes),
                 mib(attn::estimateBytes(in, sizeof(double)))) +
        (doc_->keepsMapWhileComputing()
             ? QString()
             : QLatin1Char(' ') + tr("Two maps do not fit at once: while a change is computed, "
                                     "its map takes the memory of the one shown.")));
    const QSignalBlocker b1(head_), b2(mode_), b3(scaling_), b4(key_);
    head_->setRange(1, std::max(1, heads));
    head_->setValue(doc_->head() + 1);
    headLabel_->setVisible(heads > 1);
    head_->setVisible(heads > 1);
    mode_->clear();
    if (in.mode == attn::Mode::Cross) {
        mode_->addItem(tr("Cross-attention"), static_cast<int>(attn::Mode::Cross));
    } else {
        mode_->addItem(tr("Self-attention"), static_cast<int>(attn::Mode::Self));
        mode_->addItem(tr("Causal (masked)"), static_cast<int>(attn::Mode::Causal));
    }
    mode_->setCurrentIndex(std::max(0, mode_->findData(static_cast<int>(in.mode))));
    scaling_->setChecked(in.scaling != attn::Scaling::None);
    key_->setRange(1, static_cast<int>(std::max<long>(1, in.keyCount())));
    for (QWidget* w : {static_cast<QWidget*>(optionsBox_), static_cast<QWidget*>(keyBox_)})
        w->setEnabled(!busy);
    mode_->setEnabled(in.mode != attn::Mode::Cross);
    refreshKey();
}

void LongPanel::refreshKey()
{
    const Session& s = doc_->session();
    const int k = key_->value() - 1;
    const QStringList& tokens = keyTokens(s);
    const QString token = k >= 0 && k < tokens.size() ? shownLabel(tokens[k]) : QString();
    double current = 1.0;
    if (const attn::VectorEdit* e = attn::findEdit(s.input.edits, attn::Role::Key, doc_->head(), k))
        current = e->scale;
    keyToken_->setText(tr("“%1”, now scaled by %2").arg(token, number(current, 2)));
}

void LongPanel::refreshRow()
{
    const auto result = doc_->result();
    const int i = doc_->selectedRow();
    attn::VectorT<float> raw, scaled;
    if (!result || !doc_->rowScores(i, raw, scaled)) {
        row_->setText(doc_->computing() ? tr("Computing…") : tr("No map is computed."));
        table_->setRowCount(0);
        return;
    }
    const attn::LongHead& hd = result->heads[static_cast<std::size_t>(doc_->head())];
    const Session& s = doc_->session();
    const QStringList& keys = keyTokens(s);
    const QString token = i < s.targetTokens.size() ? shownLabel(s.targetTokens[i]) : QString();
    if (hd.argmax[i] < 0) {
        row_->setText(
            tr("Row %1 “%2” is fully masked: it attends to nothing.").arg(i + 1).arg(token));
        table_->setRowCount(0);
        return;
    }
    const int best = hd.argmax[i];
    row_->setText(tr("Row %1 “%2”: entropy %3 nats; its largest weight %4 is on key %5 “%6”.")
                      .arg(i + 1)
                      .arg(token, number(hd.entropy[i], 3), number(hd.maxWeight[i]))
                      .arg(best + 1)
                      .arg(best < keys.size() ? shownLabel(keys[best]) : QString()));
    const long m = hd.weights.cols();
    const long count = std::min<long>(kTopKeys, m);
    std::vector<long> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0L);
    const float* w = &hd.weights(i, 0);
    std::partial_sort(order.begin(), order.begin() + count, order.end(),
                      [w](long a, long b) { return w[a] > w[b] || (w[a] == w[b] && a < b); });
    table_->setRowCount(static_cast<int>(count));
    for (int r = 0; r < count; ++r) {
        const long j = order[static_cast<std::size_t>(r)];
        const QString name = QStringLiteral("%1 %2").arg(j + 1).arg(
            j < keys.size() ? shownLabel(keys[static_cast<int>(j)], 12) : QString());
        const QStringList cells{name, number(w[j]), number(raw[j], 3), number(scaled[j], 3)};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(r, c, new QTableWidgetItem(cells[c]));
    }
}

}  // namespace attnlab
