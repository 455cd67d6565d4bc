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
    return stage == PipelinePanel::K || stage == PipelinePanel::V;
}
bool isQueryRowStage(int stage)
{
    return stage == PipelinePanel::X || stage == PipelinePanel::Q || stage == PipelinePanel::Output;
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

void PipelinePanel::rebuild()
{
    shownHead_ = document_->head();
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr) return;
    const Session& session = document_->session();
    const attn::AttentionInput& in = session.input;
    const bool cross = in.mode == attn::Mode::Cross;
    const long n = hr->weights.rows();
    const long m = hr->weights.cols();
    const QStringList queries = labelsFor(session.targetTokens, n);
    const QStringList keys = labelsFor(keyTokens(session), m);
    const auto shape = [](const attn::Matrix& mat) {
        return tr("(%1 × %2)").arg(mat.rows()).arg(mat.cols());
    };

    std::array<HeatmapContent, StageCount> c;
    c[X].values = in.X;
    c[X].title = tr("X: token embeddings %1").arg(shape(in.X));
    c[Q].values = hr->Q;
    c[Q].title = tr("Q = X·W_Q %1").arg(shape(hr->Q));
    c[K].values = hr->K;
    c[K].title = (cross ? tr("K = Y·W_K %1") : tr("K = X·W_K %1")).arg(shape(hr->K));
    c[V].values = hr->V;
    c[V].title = (cross ? tr("V = Y·W_V %1") : tr("V = X·W_V %1")).arg(shape(hr->V));
    c[Scores].values = hr->scores;
    c[Scores].title =
        (in.score == attn::ScoreFunction::Additive ? tr("S = vᵀ tanh(W_a q + U_a k) %1")
                                                   : tr("S = Q·Kᵀ %1"))
            .arg(shape(hr->scores));
    c[Scaled].values = hr->scaled;
    switch (in.scaling) {
    case attn::Scaling::SqrtDk:
        c[Scaled].title = tr("S / √d_k, d_k = %1 %2").arg(in.keyDim()).arg(shape(hr->scaled));
        break;
    case attn::Scaling::Temperature:
        c[Scaled].title = tr("S / τ, τ = %1 %2").arg(num(in.temperature)).arg(shape(hr->scaled));
        break;
    case attn::Scaling::None: c[Scaled].title = tr("S (unscaled) %1").arg(shape(hr->scaled)); break;
    }
    if (hr->mask.rows() == n && hr->mask.cols() == m)
        c[Mask].values = hr->mask.cast<double>();
    else
        c[Mask].values = attn::Matrix::Ones(n, m);
    c[Mask].title = tr("Mask: 1 = may attend %1").arg(shape(c[Mask].values));
    c[Mask].scale = ColorScale::Sequential;
    c[Mask].range = QCPRange(0.0, 1.0);
    c[Weights].values = hr->weights;
    c[Weights].title = tr("P = softmax of each row %1").arg(shape(hr->weights));
    c[Weights].scale = ColorScale::Weights;
    if (hr->mask.rows() == n && hr->mask.cols() == m) c[Weights].mask = hr->mask;
    c[Weights].fullyMaskedRows = hr->diagnostics.fullyMasked;
    c[Output].values = hr->output;
    c[Output].title = tr("Output = P·V %1").arg(shape(hr->output));

    for (int s = 0; s < StageCount; ++s) {
        HeatmapContent& h = c[static_cast<std::size_t>(s)];
        const bool keyRows = isKeyRowStage(s);
        h.rowLabels = keyRows ? keys : queries;
        h.rowAxisTitle = keyRows ? tr("key") : tr("query");
        if (isKeyRowStage(s) || isQueryRowStage(s)) {
            h.columnLabels = componentLabels(h.values.cols());
            h.columnAxisTitle = tr("component");
        } else {
            h.columnLabels = keys;
            h.columnAxisTitle = tr("key");
        }
        if (s != Mask && s != Weights) h.scale = ColorScale::Diverging;
        views_[static_cast<std::size_t>(s)]->setContent(h);
    }
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
    const QString q = labelsFor(session.targetTokens, hr->scores.rows()).at(row);
    const QString k = labelsFor(keyTokens(session), hr->scores.cols()).at(col);
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
        const int d = static_cast<int>(hr->Q.cols());
        std::vector<int> listed(static_cast<std::size_t>(d));
        std::iota(listed.begin(), listed.end(), 0);
        const auto term = [&](int c) { return hr->Q(row, c) * hr->K(col, c); };
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
                         .arg(num(hr->Q(row, c)), num(hr->K(col, c)), num(term(c)));
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
    if (stage == Scores || stage == Scaled) {
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
