// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/working_panel.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/attention.h"
#include "core/scores.h"
#include "core/softmax.h"
#include "ui/document/document.h"
#include "ui/views/lazy_refresh.h"

namespace attnlab {

namespace {

QString num(double v)
{
    return QString::number(v, 'f', 4);
}

// "(a, b, c)" for short vectors.
QString vectorText(const attn::Matrix& m, long row)
{
    QStringList parts;
    const long shown = std::min<long>(m.cols(), 8);
    for (long c = 0; c < shown; ++c) parts << QString::number(m(row, c), 'f', 3);
    if (shown < m.cols()) parts << QStringLiteral("…");
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

}  // namespace

WorkingPanel::WorkingPanel(Document* document, QWidget* parent)
    : QWidget(parent),
      doc_(document),
      header_(new QLabel(this)),
      table_(new QTableWidget(this)),
      footer_(new QLabel(this))
{
    setObjectName(QStringLiteral("WorkingPanel"));
    auto* layout = new QVBoxLayout(this);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    footer_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(120);
    // It asks for the width of all its columns, so that a dock sized from it shows them.
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    layout->addWidget(header_);
    layout->addWidget(table_, 1);
    layout->addWidget(footer_);
    // A table of every key's dot product: redraw only while its dock is shown.
    auto* lazy = new LazyRefresh(this, [this] { rebuild(); });
    connect(doc_, &Document::changed, lazy, &LazyRefresh::request);
    connect(doc_, &Document::selectionChanged, lazy, &LazyRefresh::request);
    rebuild();
}

QString WorkingPanel::headerText() const
{
    return header_->text();
}

void WorkingPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) rebuild();
    QWidget::changeEvent(event);
}

void WorkingPanel::rebuild()
{
    const Session& s = doc_->session();
    setHeaderLabels(s.input.score == attn::ScoreFunction::Dot);
    const attn::HeadResult* hr = doc_->currentHead();
    const int row = doc_->selectedRow();
    if (!hr || row < 0 || row >= hr->weights.rows()) {
        table_->setRowCount(0);
        header_->setText(tr("No result to show."));
        footer_->clear();
        return;
    }
    // The true maximum of this row and the exps taken from it, computed afresh by the core.
    const attn::RowWorking working = attn::explainRow(*hr, row);
    showRowHeader(*hr, row, divisorText(*hr), working);
    fillRows(*hr, row, working);
}

void WorkingPanel::setHeaderLabels(bool dot)
{
    table_->setColumnCount(6);
    table_->setHorizontalHeaderLabels(
        {tr("Key j"), dot ? tr("q·k_j") : tr("vᵀ tanh(W_a q + U_a k_j)"), tr("Score s_j"),
         tr("Scaled s_j / d"), tr("exp(s_j / d − m)"), tr("Weight")});
}

QString WorkingPanel::divisorText(const attn::HeadResult& hr) const
{
    const Session& s = doc_->session();
    const bool dot = s.input.score == attn::ScoreFunction::Dot;
    const double divisor = s.input.scoreDivisor();
    QString text;
    switch (s.input.scaling) {
    case attn::Scaling::SqrtDk:
        text = tr("d = √d_k = √%1 = %2").arg(hr.Q.cols()).arg(num(divisor));
        break;
    case attn::Scaling::None: text = tr("d = 1 (no scaling)"); break;
    case attn::Scaling::Temperature: text = tr("d = τ = %1").arg(num(divisor)); break;
    }
    if (!dot && s.input.scaling != attn::Scaling::None)
        text +=
            QLatin1Char(' ') + tr("(the additive scores are divided by d too, like dot products)");
    return text;
}

void WorkingPanel::showRowHeader(const attn::HeadResult& hr, int row, const QString& divisor,
                                 const attn::RowWorking& working)
{
    const Session& s = doc_->session();
    const long i = row;
    // With rotary positions the scores are made from q and k turned by their positions.
    const attn::Matrix& Q = hr.scoringQ();
    QString header =
        working.fullyMasked
            ? tr("Row %1 (%2): q = %3.  %4.  Every key is masked: the row's weights are all 0.")
                  .arg(row + 1)
                  .arg(shownLabel(s.targetTokens.value(row)), vectorText(Q, i), divisor)
            : tr("Row %1 (%2): q = %3.  %4.  m = %5 is the shift the softmax subtracts "
                 "(the row's largest scaled score), so that exp never overflows.")
                  .arg(row + 1)
                  .arg(shownLabel(s.targetTokens.value(row)), vectorText(Q, i), divisor,
                       num(working.max));
    if (s.input.rope)
        header = tr("%1 %2", "two sentences")
                     .arg(header, tr("q and k are turned by their positions (RoPE, θ = %1).")
                                      .arg(num(s.input.rope->theta)));
    header_->setText(header);
}

void WorkingPanel::setCell(int r, int c, const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    // Numbers to the right, text to the left, all on the row's middle line (AlignRight
    // alone drew the numbers at the top of rows that the text columns centred in).
    item->setTextAlignment(c == KeyColumn || c == DotColumn
                               ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                               : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    table_->setItem(r, c, item);
}

void WorkingPanel::fillRows(const attn::HeadResult& hr, int row, const attn::RowWorking& working)
{
    const Session& s = doc_->session();
    const bool dot = s.input.score == attn::ScoreFunction::Dot;
    const long i = row;
    const long keys = hr.weights.cols();
    const long shown = std::min<long>(keys, kMaxKeys);
    const QStringList& keyNames = keyTokens(s);
    const int head = doc_->head();
    const long da = dot ? 0 : s.input.heads[static_cast<std::size_t>(head)].additive.v.size();
    const bool terms = dot ? hr.Q.cols() <= 6 : da <= 6;
    table_->setRowCount(static_cast<int>(shown) + 1);
    double expSum = 0.0;
    double weightSum = 0.0;
    for (long j = 0; j < shown; ++j) {
        const int r = static_cast<int>(j);
        setCell(r, KeyColumn,
                QStringLiteral("%1 %2").arg(j + 1).arg(shownLabel(keyNames.value(r))));
        setCell(r, DotColumn, dot ? dotWorking(hr, i, j, terms) : additiveWorking(i, j, terms));
        setCell(r, ScoreColumn, num(hr.scores(i, j)));
        setCell(r, ScaledColumn, num(hr.scaled(i, j)));
        if (!hr.mask(i, j)) {
            setCell(r, ExpColumn, tr("masked"));
            setCell(r, WeightColumn, num(0.0));
            continue;
        }
        expSum += working.exps[j];
        weightSum += hr.weights(i, j);
        setCell(r, ExpColumn, num(working.exps[j]));
        setCell(r, WeightColumn, num(hr.weights(i, j)));
    }
    const int last = static_cast<int>(shown);
    setCell(last, KeyColumn, tr("Σ"));
    setCell(last, DotColumn, QString());
    setCell(last, ScoreColumn, QString());
    setCell(last, ScaledColumn, QString());
    setCell(last, ExpColumn, num(shown == keys ? working.sum : expSum));
    setCell(last, WeightColumn, num(weightSum));
    QFont bold = table_->font();
    bold.setBold(true);
    for (int c = 0; c < 6; ++c)
        if (QTableWidgetItem* item = table_->item(last, c)) item->setFont(bold);
    footer_->setText(shown < keys
                         ? tr("Showing the first %1 of %2 keys.").arg(shown).arg(keys)
                         : tr("weight_j = exp(s_j / d − m) / Σ: every weight is its exp divided by "
                              "the sum, so the weights are positive and add up to one."));
}

QString WorkingPanel::dotWorking(const attn::HeadResult& hr, long i, long j, bool terms) const
{
    const attn::Matrix& Q = hr.scoringQ();
    const attn::Matrix& K = hr.scoringK();
    if (!terms) return tr("k = %1").arg(vectorText(K, j));
    QStringList parts;
    for (long c = 0; c < Q.cols(); ++c)
        parts << QStringLiteral("%1×%2").arg(QString::number(Q(i, c), 'f', 3),
                                             QString::number(K(j, c), 'f', 3));
    return parts.join(QStringLiteral(" + "));
}

// v · h with h = tanh(W_a q + U_a k_j) from the core, written out term by term when short.
QString WorkingPanel::additiveWorking(long i, long j, bool terms) const
{
    const attn::HeadResult* hr = doc_->currentHead();
    const int head = doc_->head();
    const attn::Vector& v = doc_->session().input.heads[static_cast<std::size_t>(head)].additive.v;
    const attn::Vector h = attn::additiveHidden(doc_->session().input, head,
                                                hr->Q.row(i).transpose(), hr->K.row(j).transpose());
    if (!terms) return tr("v · h, h = %1").arg(vectorText(h.transpose(), 0));
    QStringList parts;
    for (long a = 0; a < v.size(); ++a)
        parts << QStringLiteral("%1×%2").arg(QString::number(v[a], 'f', 3),
                                             QString::number(h[a], 'f', 3));
    return tr("v · tanh(…) = %1").arg(parts.join(QStringLiteral(" + ")));
}

}  // namespace attnlab
