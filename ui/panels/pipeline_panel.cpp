// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/pipeline_panel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <QCursor>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lazy_refresh.h"
#include "ui/views/stage_content.h"

namespace attnlab {

namespace {

constexpr int Columns = 3;
constexpr int ListAllTerms = 32;  // beyond this d_k only the largest terms are listed
constexpr int ListedTerms = 12;

QString num(double v)
{
    return QString::number(v, 'g', 6);
}

// `count` labels: the given ones, padded with positions when too few.
bool isKeyRowStage(int stage)
{
    return hasKeyRows(static_cast<Stage>(stage));
}
bool isQueryRowStage(int stage)
{
    const auto s = static_cast<Stage>(stage);
    return s == Stage::X || s == Stage::Q || s == Stage::Output;
}

}  // namespace

PipelinePanel::PipelinePanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* caption =
        new QLabel(tr("The steps of one head, in order: project, score, scale, mask, softmax, mix. "
                      "Hover a score to see its dot product term by term."),
                   this);
    caption->setWordWrap(true);
    caption->setObjectName(QStringLiteral("panelCaption"));  // the presenter view hides it
    layout->addWidget(caption);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* grid = new QWidget(scroll);
    auto* gridLayout = new QGridLayout(grid);
    for (int s = 0; s < StageCount; ++s) {
        auto* view = new HeatmapView(grid);
        view->setMinimumSize(280, 240);
        views_[static_cast<std::size_t>(s)] = view;
        gridLayout->addWidget(view, s / Columns, s % Columns);
        connect(view, &HeatmapView::cellHovered, this,
                [this, s](int row, int col) { onHovered(s, row, col); });
        connect(view, &HeatmapView::cellClicked, this,
                [this, s](int row, int col, Qt::KeyboardModifiers) { onClicked(s, row, col); });
    }
    scroll->setWidget(grid);
    layout->addWidget(scroll, 1);

    // Nine maps of up to n x n cells: redraw only while the tab is shown.
    auto* lazy = new LazyRefresh(this, [this] { rebuild(); });
    connect(document_, &Document::changed, lazy, &LazyRefresh::request);
    connect(document_, &Document::selectionChanged, this, [this, lazy] {
        if (document_->head() != shownHead_ || lazy->pending())
            lazy->request();
        else
            updateSelection();
    });
    rebuild();
}

HeatmapView* PipelinePanel::stageView(int stage) const
{
    if (stage < 0 || stage >= StageCount) return nullptr;
    return views_[static_cast<std::size_t>(stage)];
}

QString PipelinePanel::stageTitle(int stage) const
{
    const HeatmapView* v = stageView(stage);
    return v ? v->content().title : QString();
}

static_assert(PipelinePanel::StageCount == static_cast<int>(Stage::Output) + 1,
              "the Pipeline tab shows the head stages in their order");

void PipelinePanel::rebuild()
{
    shownHead_ = document_->head();
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr) return;
    for (int s = 0; s < StageCount; ++s)
        views_[static_cast<std::size_t>(s)]->setContent(
            stageContent(document_->session(), *hr, static_cast<Stage>(s)));
    updateSelection();
}

void PipelinePanel::updateSelection()
{
    const int row = document_->selectedRow();
    const int col = document_->selectedColumn();
    for (int s = 0; s < StageCount; ++s) {
        HeatmapView* v = views_[static_cast<std::size_t>(s)];
        if (isQueryRowStage(s))
            v->setSelection(row, -1);
        else if (isKeyRowStage(s))
            v->setSelection(col, -1);
        else
            v->setSelection(row, col);
    }
}

QString PipelinePanel::scoreBreakdown(int row, int col) const
{
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr || row < 0 || col < 0 || row >= hr->scores.rows() || col >= hr->scores.cols())
        return QString();
    const Session& session = document_->session();
    const attn::AttentionInput& in = session.input;
    const QString q = shownLabelsFor(session.targetTokens, hr->scores.rows()).at(row);
    const QString k = shownLabelsFor(keyTokens(session), hr->scores.cols()).at(col);
    const double score = hr->scores(row, col);
    QStringList lines;
    if (in.score == attn::ScoreFunction::Additive) {
        lines << tr("S[“%1”, “%2”] = vᵀ tanh(W_a q_%3 + U_a k_%4) = %5")
                     .arg(q, k)
                     .arg(row + 1)
                     .arg(col + 1)
                     .arg(num(score))
              << tr("Additive scoring: a small feed-forward network scores each pair; "
                    "it is not a sum of products.");
    } else {
        lines << tr("S[“%1”, “%2”] = q_%3 · k_%4 = Σ_c q_%3[c] × k_%4[c]")
                     .arg(q, k)
                     .arg(row + 1)
                     .arg(col + 1);
        // With rotary positions, the turned q and k (those the scores are made from).
        const attn::Matrix& Q = hr->scoringQ();
        const attn::Matrix& K = hr->scoringK();
        if (in.rope)
            lines << tr("q_%1 and k_%2 are turned by their positions (RoPE, θ = %3).")
                         .arg(row + 1)
                         .arg(col + 1)
                         .arg(num(in.rope->theta));
        const int d = static_cast<int>(Q.cols());
        std::vector<int> listed(static_cast<std::size_t>(d));
        std::iota(listed.begin(), listed.end(), 0);
        const auto term = [&](int c) { return Q(row, c) * K(col, c); };
        double rest = 0.0;
        if (d > ListAllTerms) {
            // Only the largest terms, in component order; the others as one total.
            std::partial_sort(listed.begin(), listed.begin() + ListedTerms, listed.end(),
                              [&](int a, int b) { return std::abs(term(a)) > std::abs(term(b)); });
            for (auto it = listed.begin() + ListedTerms; it != listed.end(); ++it)
                rest += term(*it);
            listed.resize(ListedTerms);
            std::sort(listed.begin(), listed.end());
        }
        for (int c : listed)
            lines << tr("  c = %1:  %2 × %3 = %4")
                         .arg(c + 1)
                         .arg(num(Q(row, c)), num(K(col, c)), num(term(c)));
        if (d > ListAllTerms)
            lines << tr("  … %1 smaller terms: %2 in total").arg(d - ListedTerms).arg(num(rest));
        lines << tr("Sum: %1").arg(num(score));
    }
    const double scaled = hr->scaled(row, col);
    switch (in.scaling) {
    case attn::Scaling::SqrtDk:
        lines << tr("Scaled: %1 / √%2 = %3").arg(num(score)).arg(in.keyDim()).arg(num(scaled));
        break;
    case attn::Scaling::Temperature:
        lines
            << tr("Scaled: %1 / τ (τ = %2) = %3").arg(num(score), num(in.temperature), num(scaled));
        break;
    case attn::Scaling::None:
        lines << tr("Not scaled: %1 goes to the softmax as is").arg(num(scaled));
        break;
    }
    if (hr->mask.rows() == hr->scores.rows() && hr->mask.cols() == hr->scores.cols() &&
        !hr->mask(row, col))
        lines << tr("Masked: this score is replaced by −∞ before the softmax, so its weight is 0.");
    return lines.join(QLatin1Char('\n'));
}

void PipelinePanel::onHovered(int stage, int row, int col)
{
    HeatmapView* v = stageView(stage);
    if (row < 0 || col < 0 || row >= v->content().values.rows() ||
        col >= v->content().values.cols()) {
        QToolTip::hideText();
        return;
    }
    QString text;
    if (stage == static_cast<int>(Stage::Scores) || stage == static_cast<int>(Stage::Scaled)) {
        text = scoreBreakdown(row, col);
    } else {
        const HeatmapContent& c = v->content();
        text = tr("%1\n[“%2”, %3] = %4")
                   .arg(c.title, c.rowLabels.value(row), c.columnLabels.value(col))
                   .arg(num(c.values(row, col)));
    }
    QToolTip::showText(QCursor::pos(), text, v);
}

void PipelinePanel::onClicked(int stage, int row, int col)
{
    if (isQueryRowStage(stage))
        document_->select(row, document_->selectedColumn());
    else if (isKeyRowStage(stage))
        document_->select(document_->selectedRow(), row);
    else
        document_->select(row, col);
}

}  // namespace attnlab
