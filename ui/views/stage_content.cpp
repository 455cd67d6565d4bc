// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/stage_content.h"

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
QString titleOf(const Session& session, Stage stage, bool full)
{
    const attn::AttentionInput& in = session.input;
    const bool cross = in.mode == attn::Mode::Cross;
    switch (stage) {
    case Stage::X:
        return full ? StageContent::tr("X: token embeddings %1") : StageContent::tr("X %1");
    case Stage::Q:
        // With rotary positions the stage shows the turned vectors the scores are made from.
        return in.rope ? StageContent::tr("Q = RoPE(X·W_Q) %1") : StageContent::tr("Q = X·W_Q %1");
    case Stage::K:
        if (in.rope)
            return cross ? StageContent::tr("K = RoPE(Y·W_K) %1")
                         : StageContent::tr("K = RoPE(X·W_K) %1");
        return cross ? StageContent::tr("K = Y·W_K %1") : StageContent::tr("K = X·W_K %1");
    case Stage::V:
        return cross ? StageContent::tr("V = Y·W_V %1") : StageContent::tr("V = X·W_V %1");
    case Stage::Scores:
        if (in.score == attn::ScoreFunction::Additive)
            return full ? StageContent::tr("S = vᵀ tanh(W_a q + U_a k) %1")
                        : StageContent::tr("S additive %1");
        return full ? StageContent::tr("S = Q·Kᵀ %1") : StageContent::tr("S = QKᵀ %1");
    case Stage::Scaled:
        switch (in.scaling) {
        case attn::Scaling::SqrtDk:
            return (full ? StageContent::tr("S / √d_k, d_k = %1 %2")
                         : StageContent::tr("S / √%1 %2"))
                .arg(in.keyDim())
                .arg(QStringLiteral("%1"));
        case attn::Scaling::Temperature:
            return (full ? StageContent::tr("S / τ, τ = %1 %2") : StageContent::tr("S / %1 %2"))
                .arg(number(in.temperature), QStringLiteral("%1"));
        case attn::Scaling::None:
            return full ? StageContent::tr("S (unscaled) %1") : StageContent::tr("S unscaled %1");
        }
        break;
    case Stage::Mask:
        return full ? StageContent::tr("Mask: 1 = may attend %1") : StageContent::tr("Mask %1");
    case Stage::Weights:
        return full ? StageContent::tr("P = softmax of each row %1") : StageContent::tr("P %1");
    case Stage::Output:
        return full ? StageContent::tr("Output = P·V %1") : StageContent::tr("O = PV %1");
    case Stage::Difference: return StageContent::tr("Difference after − before %1");
    case Stage::Combined: return StageContent::tr("Combined output %1");
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

bool hasKeyRows(Stage stage)
{
    return stage == Stage::K || stage == Stage::V;
}

bool hasComponentColumns(Stage stage)
{
    return hasKeyRows(stage) || stage == Stage::X || stage == Stage::Q || stage == Stage::Output ||
           stage == Stage::Combined;
}

namespace {

HeatmapContent buildStageFor(const Session& session, const attn::HeadResult& hr, Stage stage,
                             StageTitle title)
{
    HeatmapContent c;
    const long n = hr.weights.rows();
    const long m = hr.weights.cols();
    const bool masked = hr.mask.rows() == n && hr.mask.cols() == m;
    c.scale = ColorScale::Diverging;
    switch (stage) {
    case Stage::X: c.values = session.input.X; break;
    case Stage::Q: c.values = hr.scoringQ(); break;
    case Stage::K: c.values = hr.scoringK(); break;
    case Stage::V: c.values = hr.V; break;
    case Stage::Scores: c.values = hr.scores; break;
    case Stage::Scaled: c.values = hr.scaled; break;
    case Stage::Mask:
        c.values = masked ? attn::Matrix(hr.mask.cast<double>()) : attn::Matrix::Ones(n, m);
        c.scale = ColorScale::Sequential;
        c.range = ValueRange(0.0, 1.0);
        break;
    case Stage::Weights:
        c.values = hr.weights;
        if (masked) c.mask = hr.mask;
        c.fullyMaskedRows = hr.diagnostics.fullyMasked;
        c.scale = ColorScale::Weights;
        break;
    case Stage::Output: c.values = hr.output; break;
    case Stage::Difference:
    case Stage::Combined: break;  // buildStage() makes these from the whole result
    }
    c.title = titleOf(session, stage, title == StageTitle::Full).arg(shapeText(c.values));
    const bool keyRows = hasKeyRows(stage);
    c.rowLabels =
        shownLabelsFor(keyRows ? keyTokens(session) : session.targetTokens, c.values.rows());
    c.rowAxisTitle = keyRows ? StageContent::tr("key") : StageContent::tr("query");
    if (hasComponentColumns(stage)) {
        c.columnLabels = componentLabels(c.values.cols());
        c.columnAxisTitle = StageContent::tr("component");
    } else {
        c.columnLabels = shownLabelsFor(keyTokens(session), c.values.cols());
        c.columnAxisTitle = StageContent::tr("key");
    }
    return c;
}

}  // namespace

HeatmapContent stageContent(const Session& session, const attn::HeadResult& hr, Stage stage,
                            StageTitle title)
{
    return buildStageFor(session, hr, stage, title);
}

bool buildStage(const StageSource& src, int head, Stage stage, StageTitle title, HeatmapContent& c,
                QString* error)
{
    const Session& s = *src.session;
    const attn::AttentionResult& result = *src.result;
    const attn::HeadResult& hr = result.heads[static_cast<std::size_t>(head)];
    if (stage == Stage::Combined) {
        const attn::Matrix& out = result.output;
        c = buildStageFor(s, hr, Stage::Output, title);
        c.values = out;
        c.rowLabels = shownLabelsFor(s.targetTokens, out.rows());
        c.columnLabels = componentLabels(out.cols());
        c.title =
            s.input.W_O.size() == 0
                ? StageContent::tr("Combined output: heads concatenated %1").arg(shapeText(out))
                : StageContent::tr("Combined output: [head 1 … head %1]·W_O %2")
                      .arg(result.heads.size())
                      .arg(shapeText(out));
        return true;
    }
    if (stage != Stage::Difference) {
        c = buildStageFor(s, hr, stage, title);
        return true;
    }
    const auto h = static_cast<std::size_t>(head);
    const long n = hr.weights.rows();
    const long m = hr.weights.cols();
    const bool usable = src.before && h < src.before->size() && (*src.before)[h].rows() == n &&
                        (*src.before)[h].cols() == m && n > 0 && m > 0;
    c = buildStageFor(s, hr, Stage::Weights, title);
    c.scale = ColorScale::Diverging;
    if (!usable) {
        if (error)
            *error = StageContent::tr(
                         "There is nothing to compare with for head %1: pin the weights first "
                         "(Attention ▸ Pin weights), then edit.")
                         .arg(head + 1);
        c.values.setZero();
        c.title = StageContent::tr("Difference (nothing pinned)");
        return false;
    }
    c.values = hr.weights - (*src.before)[h];
    const double a = std::max(c.values.cwiseAbs().maxCoeff(), 1e-6);
    c.range = ValueRange(-a, a);
    c.title = StageContent::tr("Difference after − before — head %1 %2")
                  .arg(head + 1)
                  .arg(shapeText(c.values));
    return true;
}

}  // namespace attnlab
