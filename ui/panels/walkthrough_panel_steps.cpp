// SPDX-License-Identifier: GPL-3.0-or-later
// The walkthrough's content: the captions of the five steps and the stage maps, both
// read from the document's result.
#include <QStringList>

#include "ui/document/document.h"
#include "ui/panels/walkthrough_panel.h"  // IWYU pragma: associated
#include "ui/views/heatmap_view.h"
#include "ui/views/stage_content.h"

namespace attnlab {

namespace {

QString shape(long rows, long cols)
{
    return WalkthroughPanel::tr("(%1 × %2)").arg(rows).arg(cols);
}
QString shape(const attn::Matrix& m)
{
    return shape(m.rows(), m.cols());
}

}  // namespace

QString WalkthroughPanel::stepName(int step) const
{
    switch (step) {
    case 1: return tr("Projections");
    case 2: return tr("Scores");
    case 3: return tr("Scaling");
    case 4: return tr("Softmax");
    case 5: return tr("Weighted sum");
    default: return QString();
    }
}

QString WalkthroughPanel::stageName(int stage) const
{
    if (stage < 0 || stage >= StageCount) return QString();
    switch (static_cast<Stage>(stage)) {
    case Stage::X: return tr("X");
    case Stage::Q: return tr("Q");
    case Stage::K: return tr("K");
    case Stage::V: return tr("V");
    case Stage::Scores: return tr("S");
    case Stage::Scaled: return tr("scaled S");
    case Stage::Mask: return tr("mask");
    case Stage::Weights: return tr("P");
    case Stage::Output: return tr("O");
    default: return QString();
    }
}

QString WalkthroughPanel::stepIndicator() const
{
    return tr("Step %1 of %2").arg(step_).arg(StepCount);
}

QString WalkthroughPanel::caption(int step) const
{
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr) return tr("Nothing computed yet.");
    const attn::AttentionInput& in = document_->session().input;
    const bool cross = in.mode == attn::Mode::Cross;
    const long n = hr->weights.rows();
    const long m = hr->weights.cols();
    const long dk = hr->Q.cols();
    const long dv = hr->V.cols();
    switch (step) {
    case 1:
        if (cross)
            return tr("Step 1 — Linear projections: three learnable matrices project every "
                      "position at once: Q = X·W_Q %1 from the target X %2; K = Y·W_K %3 and "
                      "V = Y·W_V %4 from the source Y %5.")
                .arg(shape(n, dk), shape(in.X), shape(m, dk), shape(m, dv), shape(in.Y));
        return tr("Step 1 — Linear projections: the token vectors stacked as X %1 are multiplied "
                  "by three learnable matrices, giving Q = X·W_Q %2, K = X·W_K %3 and "
                  "V = X·W_V %4 — every position in one matrix product.")
            .arg(shape(in.X), shape(n, dk), shape(m, dk), shape(m, dv));
    case 2:
        if (in.score == attn::ScoreFunction::Additive)
            return tr("Step 2 — Additive scores: S = vᵀ tanh(W_a q_i + U_a k_j) %1; entry "
                      "(i, j) is how well query i matches key j.")
                .arg(shape(n, m));
        return tr("Step 2 — Dot-product scores: S = QKᵀ, %1 · %2 → %3; entry (i, j) is how well "
                  "query i matches key j.")
            .arg(shape(n, dk), shape(dk, m), shape(n, m));
    case 3:
        switch (in.scaling) {
        case attn::Scaling::SqrtDk:
            return tr("Step 3 — Scaling: S / √d_k = S / √%1 %2 brings the variance of the scores "
                      "back near one, so the softmax does not saturate.")
                .arg(dk)
                .arg(shape(n, m));
        case attn::Scaling::Temperature:
            return tr("Step 3 — Scaling by a temperature: S / τ with τ = %1 %2; a smaller τ "
                      "sharpens the softmax, a larger one flattens it.")
                .arg(QString::number(in.temperature, 'g', 4), shape(n, m));
        case attn::Scaling::None: break;
        }
        return tr("Step 3 — No scaling in this session: S %1 goes to the softmax as it is; with "
                  "d_k = %2 the scores can grow large and the softmax saturate.")
            .arg(shape(n, m))
            .arg(dk);
    case 4: {
        QString text = tr("Step 4 — Softmax: each row of the scaled scores becomes non-negative "
                          "weights that sum to one, P %1 — query i's attention budget.")
                           .arg(shape(n, m));
        const bool anyMasked = hr->mask.size() > 0 && !hr->mask.all();
        // Two sentences: English puts a space between them, Chinese none after "。".
        const auto then = [](const QString& first, const QString& second) {
            return tr("%1 %2", "two sentences, one after the other").arg(first, second);
        };
        if (in.mode == attn::Mode::Causal)
            text = then(text, tr("The causal mask sets future positions to −∞ first, so their "
                                 "weight is 0."));
        else if (anyMasked)
            text = then(text, tr("Masked cells are set to −∞ first, so their weight is 0."));
        return text;
    }
    case 5:
        return tr("Step 5 — Weighted sum: O = PV, %1 · %2 → %3; each position's new "
                  "representation is the sum of the value vectors weighted by its row of P.")
            .arg(shape(n, m), shape(m, dv), shape(n, dv));
    default: return QString();
    }
}

void WalkthroughPanel::rebuild()
{
    const attn::HeadResult* hr = document_->currentHead();
    if (!hr) return;
    for (int s = 0; s < StageCount; ++s)
        views_[static_cast<std::size_t>(s)]->setContent(
            stageContent(document_->session(), *hr, static_cast<Stage>(s), StageTitle::Short));
}

}  // namespace attnlab
