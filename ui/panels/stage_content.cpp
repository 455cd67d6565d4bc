#include "ui/panels/stage_content.h"

#include <QCoreApplication>
#include <QString>

namespace attnlab {

namespace {

class StageContent {
    Q_DECLARE_TR_FUNCTIONS(StageContent)
};

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

// The title with a %1 for the shape.
QString titleOf(const Session& session, HeadStage stage, bool full)
{
    using S = StageContent;
    const attn::AttentionInput& in = session.input;
    const bool cross = in.mode == attn::Mode::Cross;
    switch (stage) {
    case HeadStage::X: return full ? S::tr("X: token embeddings %1") : S::tr("X %1");
    case HeadStage::Q: return S::tr("Q = X·W_Q %1");
    case HeadStage::K: return cross ? S::tr("K = Y·W_K %1") : S::tr("K = X·W_K %1");
    case HeadStage::V: return cross ? S::tr("V = Y·W_V %1") : S::tr("V = X·W_V %1");
    case HeadStage::Scores:
        if (in.score == attn::ScoreFunction::Additive)
            return full ? S::tr("S = vᵀ tanh(W_a q + U_a k) %1") : S::tr("S additive %1");
        return full ? S::tr("S = Q·Kᵀ %1") : S::tr("S = QKᵀ %1");
    case HeadStage::Scaled:
        switch (in.scaling) {
        case attn::Scaling::SqrtDk:
            return (full ? S::tr("S / √d_k, d_k = %1 %2") : S::tr("S / √%1 %2"))
                .arg(in.keyDim())
                .arg(QStringLiteral("%1"));
        case attn::Scaling::Temperature:
            return (full ? S::tr("S / τ, τ = %1 %2") : S::tr("S / %1 %2"))
                .arg(number(in.temperature), QStringLiteral("%1"));
        case attn::Scaling::None: return full ? S::tr("S (unscaled) %1") : S::tr("S unscaled %1");
        }
        break;
    case HeadStage::Mask: return full ? S::tr("Mask: 1 = may attend %1") : S::tr("Mask %1");
    case HeadStage::Weights: return full ? S::tr("P = softmax of each row %1") : S::tr("P %1");
    case HeadStage::Output: return full ? S::tr("Output = P·V %1") : S::tr("O = PV %1");
    }
    return QStringLiteral("%1");
}

}  // namespace

QString shapeText(const attn::Matrix& m)
{
    return StageContent::tr("(%1 × %2)").arg(m.rows()).arg(m.cols());
}

QString modeTitle(attn::Mode mode)
{
    switch (mode) {
    case attn::Mode::Self: return StageContent::tr("self-attention");
    case attn::Mode::Causal: return StageContent::tr("causal self-attention");
    case attn::Mode::Cross: return StageContent::tr("cross-attention");
    }
    return {};
}

bool hasKeyRows(HeadStage stage)
{
    return stage == HeadStage::K || stage == HeadStage::V;
}

bool hasComponentColumns(HeadStage stage)
{
    return hasKeyRows(stage) || stage == HeadStage::X || stage == HeadStage::Q ||
           stage == HeadStage::Output;
}

HeatmapContent stageContent(const Session& session, const attn::HeadResult& hr, HeadStage stage,
                            StageTitle title)
{
    HeatmapContent c;
    const long n = hr.weights.rows();
    const long m = hr.weights.cols();
    const bool masked = hr.mask.rows() == n && hr.mask.cols() == m;
    c.scale = ColorScale::Diverging;
    switch (stage) {
    case HeadStage::X: c.values = session.input.X; break;
    case HeadStage::Q: c.values = hr.Q; break;
    case HeadStage::K: c.values = hr.K; break;
    case HeadStage::V: c.values = hr.V; break;
    case HeadStage::Scores: c.values = hr.scores; break;
    case HeadStage::Scaled: c.values = hr.scaled; break;
    case HeadStage::Mask:
        c.values = masked ? attn::Matrix(hr.mask.cast<double>()) : attn::Matrix::Ones(n, m);
        c.scale = ColorScale::Sequential;
        c.range = QCPRange(0.0, 1.0);
        break;
    case HeadStage::Weights:
        c.values = hr.weights;
        if (masked) c.mask = hr.mask;
        c.fullyMaskedRows = hr.diagnostics.fullyMasked;
        c.scale = ColorScale::Weights;
        break;
    case HeadStage::Output: c.values = hr.output; break;
    }
    c.title = titleOf(session, stage, title == StageTitle::Full).arg(shapeText(c.values));
    const bool keyRows = hasKeyRows(stage);
    c.rowLabels = labelsFor(keyRows ? keyTokens(session) : session.targetTokens, c.values.rows());
    c.rowAxisTitle = keyRows ? StageContent::tr("key") : StageContent::tr("query");
    if (hasComponentColumns(stage)) {
        c.columnLabels = componentLabels(c.values.cols());
        c.columnAxisTitle = StageContent::tr("component");
    } else {
        c.columnLabels = labelsFor(keyTokens(session), c.values.cols());
        c.columnAxisTitle = StageContent::tr("key");
    }
    return c;
}

}  // namespace attnlab
