#include "ui/panels/working_panel.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/attention.h"
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
    table_->setMinimumHeight(160);
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
    table_->setColumnCount(6);
    table_->setHorizontalHeaderLabels({tr("Key j"), tr("q·k_j"), tr("Score s_j"),
                                       tr("Scaled s_j / d"), tr("exp(s_j / d − m)"), tr("Weight")});
    const attn::HeadResult* hr = doc_->currentHead();
    const Session& s = doc_->session();
    const int row = doc_->selectedRow();
    if (!hr || row < 0 || row >= hr->weights.rows()) {
        table_->setRowCount(0);
        header_->setText(tr("No result to show."));
        footer_->clear();
        return;
    }
    const long i = row;
    const long keys = hr->weights.cols();
    const long shown = std::min<long>(keys, kMaxKeys);
    const QStringList& keyNames = keyTokens(s);
    const bool dot = s.input.score == attn::ScoreFunction::Dot;
    const bool terms = dot && hr->Q.cols() <= 6;
    const double divisor = s.input.scoreDivisor();
    QString divisorText;
    switch (s.input.scaling) {
    case attn::Scaling::SqrtDk:
        divisorText = tr("d = √d_k = √%1 = %2").arg(hr->Q.cols()).arg(num(divisor));
        break;
    case attn::Scaling::None: divisorText = tr("d = 1 (no scaling)"); break;
    case attn::Scaling::Temperature: divisorText = tr("d = τ = %1").arg(num(divisor)); break;
    }
    header_->setText(
        tr("Row %1 (%2): q = %3.  %4.  m = %5 is the shift the softmax subtracts "
           "(the row's largest scaled score), so that exp never overflows.")
            .arg(row + 1)
            .arg(s.targetTokens.value(row), vectorText(hr->Q, i), divisorText, num(hr->rowMax(i))));

    table_->setRowCount(static_cast<int>(shown) + 1);
    auto set = [this](int r, int c, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (c != KeyColumn && c != DotColumn) item->setTextAlignment(Qt::AlignRight);
        table_->setItem(r, c, item);
    };
    const double rowSum = hr->rowSum(i);
    double expSum = 0.0;
    double weightSum = 0.0;
    for (long j = 0; j < shown; ++j) {
        const int r = static_cast<int>(j);
        set(r, KeyColumn, QStringLiteral("%1 %2").arg(j + 1).arg(keyNames.value(r)));
        QString dotText = dot ? QString() : tr("vᵀ tanh(W q + U k)");
        if (terms) {
            QStringList parts;
            for (long c = 0; c < hr->Q.cols(); ++c)
                parts << QStringLiteral("%1×%2").arg(QString::number(hr->Q(i, c), 'f', 3),
                                                     QString::number(hr->K(j, c), 'f', 3));
            dotText = parts.join(QStringLiteral(" + "));
        } else if (dot) {
            dotText = tr("k = %1").arg(vectorText(hr->K, j));
        }
        set(r, DotColumn, dotText);
        set(r, ScoreColumn, num(hr->scores(i, j)));
        set(r, ScaledColumn, num(hr->scaled(i, j)));
        if (!hr->mask(i, j)) {
            set(r, ExpColumn, tr("masked"));
            set(r, WeightColumn, num(0.0));
            continue;
        }
        const double e = hr->weights(i, j) * rowSum;
        expSum += e;
        weightSum += hr->weights(i, j);
        set(r, ExpColumn, num(e));
        set(r, WeightColumn, num(hr->weights(i, j)));
    }
    const int last = static_cast<int>(shown);
    set(last, KeyColumn, tr("Σ"));
    set(last, DotColumn, QString());
    set(last, ScoreColumn, QString());
    set(last, ScaledColumn, QString());
    set(last, ExpColumn, num(shown == keys ? rowSum : expSum));
    set(last, WeightColumn, num(weightSum));
    QFont bold = table_->font();
    bold.setBold(true);
    for (int c = 0; c < 6; ++c)
        if (QTableWidgetItem* item = table_->item(last, c)) item->setFont(bold);
    footer_->setText(shown < keys
                         ? tr("Showing the first %1 of %2 keys.").arg(shown).arg(keys)
                         : tr("weight_j = exp(s_j / d − m) / Σ: every weight is its exp divided by "
                              "the sum, so the weights are positive and add up to one."));
}

}  // namespace attnlab
