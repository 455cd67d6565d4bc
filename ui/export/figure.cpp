#include "ui/export/figure.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace attnlab {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Figure)
};

struct StageInfo {
    FigureStage stage;
    const char* key;
};

constexpr StageInfo kStages[] = {
    {FigureStage::X, "X"},
    {FigureStage::Q, "Q"},
    {FigureStage::K, "K"},
    {FigureStage::V, "V"},
    {FigureStage::Scores, "scores"},
    {FigureStage::Scaled, "scaled"},
    {FigureStage::Mask, "mask"},
    {FigureStage::Weights, "weights"},
    {FigureStage::Output, "output"},
    {FigureStage::Combined, "combined"},
    {FigureStage::Difference, "diff"},
    {FigureStage::Pipeline, "pipeline"},
};

constexpr FigureStage kPipeline[] = {
    FigureStage::X,    FigureStage::Q,       FigureStage::K,
    FigureStage::V,    FigureStage::Scores,  FigureStage::Scaled,
    FigureStage::Mask, FigureStage::Weights, FigureStage::Output,
};

QString shape(const attn::Matrix& m)
{
    return Tr::tr("(%1 × %2)").arg(m.rows()).arg(m.cols());
}

QString modeName(attn::Mode mode)
{
    switch (mode) {
    case attn::Mode::Self: return Tr::tr("self-attention");
    case attn::Mode::Causal: return Tr::tr("causal self-attention");
    case attn::Mode::Cross: return Tr::tr("cross-attention");
    }
    return {};
}

QString scalingName(const attn::AttentionInput& in)
{
    switch (in.scaling) {
    case attn::Scaling::SqrtDk: return Tr::tr("scaled by √d_k");
    case attn::Scaling::Temperature:
        return Tr::tr("scaled by τ = %1").arg(QString::number(in.temperature, 'g', 6));
    case attn::Scaling::None: return Tr::tr("unscaled");
    }
    return {};
}

bool hasMask(const attn::HeadResult& hr)
{
    return hr.mask.rows() == hr.weights.rows() && hr.mask.cols() == hr.weights.cols();
}

// One stage of one head, titled and labelled as in the Pipeline tab.
bool stageContent(const FigureSource& src, int head, FigureStage stage, HeatmapContent& c,
                  QString& error)
{
    const Session& s = *src.session;
    const attn::AttentionInput& in = s.input;
    const attn::HeadResult& hr = src.result->heads[static_cast<std::size_t>(head)];
    const bool cross = in.mode == attn::Mode::Cross;
    const long n = hr.weights.rows();
    const long m = hr.weights.cols();
    const QStringList queries = labelsFor(s.targetTokens, n);
    const QStringList keys = labelsFor(keyTokens(s), m);
    c.scale = ColorScale::Diverging;
    c.rowLabels = queries;
    c.rowAxisTitle = Tr::tr("query");
    c.columnLabels = keys;
    c.columnAxisTitle = Tr::tr("key");
    bool components = true;
    switch (stage) {
    case FigureStage::X:
        c.values = in.X;
        c.title = Tr::tr("X: token embeddings %1").arg(shape(in.X));
        break;
    case FigureStage::Q:
        c.values = hr.Q;
        c.title = Tr::tr("Q = X·W_Q %1").arg(shape(hr.Q));
        break;
    case FigureStage::K:
    case FigureStage::V: {
        const bool isK = stage == FigureStage::K;
        c.values = isK ? hr.K : hr.V;
        const QString t = isK ? (cross ? Tr::tr("K = Y·W_K %1") : Tr::tr("K = X·W_K %1"))
                              : (cross ? Tr::tr("V = Y·W_V %1") : Tr::tr("V = X·W_V %1"));
        c.title = t.arg(shape(c.values));
        c.rowLabels = keys;
        c.rowAxisTitle = Tr::tr("key");
        break;
    }
    case FigureStage::Output:
        c.values = hr.output;
        c.title = Tr::tr("Output = P·V %1").arg(shape(hr.output));
        break;
    case FigureStage::Combined: {
        const attn::Matrix& out = src.result->output;
        c.values = out;
        c.rowLabels = labelsFor(s.targetTokens, out.rows());
        c.title = in.W_O.size() == 0
                      ? Tr::tr("Combined output: heads concatenated %1").arg(shape(out))
                      : Tr::tr("Combined output: [head 1 … head %1]·W_O %2")
                            .arg(src.result->heads.size())
                            .arg(shape(out));
        break;
    }
    default: components = false; break;
    }
    switch (stage) {
    case FigureStage::Scores:
        c.values = hr.scores;
        c.title =
            (in.score == attn::ScoreFunction::Additive ? Tr::tr("S = vᵀ tanh(W_a q + U_a k) %1")
                                                       : Tr::tr("S = Q·Kᵀ %1"))
                .arg(shape(hr.scores));
        break;
    case FigureStage::Scaled:
        c.values = hr.scaled;
        if (in.scaling == attn::Scaling::SqrtDk)
            c.title = Tr::tr("S / √d_k, d_k = %1 %2").arg(in.keyDim()).arg(shape(hr.scaled));
        else if (in.scaling == attn::Scaling::Temperature)
            c.title = Tr::tr("S / τ, τ = %1 %2")
                          .arg(QString::number(in.temperature, 'g', 6), shape(hr.scaled));
        else
            c.title = Tr::tr("S (unscaled) %1").arg(shape(hr.scaled));
        break;
    case FigureStage::Mask:
        c.values = hasMask(hr) ? attn::Matrix(hr.mask.cast<double>()) : attn::Matrix::Ones(n, m);
        c.title = Tr::tr("Mask: 1 = may attend %1").arg(shape(c.values));
        c.scale = ColorScale::Sequential;
        c.range = QCPRange(0.0, 1.0);
        break;
    case FigureStage::Weights:
    case FigureStage::Difference:
        c.values = hr.weights;
        if (hasMask(hr)) c.mask = hr.mask;
        c.fullyMaskedRows = hr.diagnostics.fullyMasked;
        c.scale = ColorScale::Weights;
        c.title = Tr::tr("Attention weights P — head %1 %2").arg(head + 1).arg(shape(hr.weights));
        if (stage == FigureStage::Difference) {
            const std::size_t h = static_cast<std::size_t>(head);
            const bool usable = h < src.before.size() && src.before[h].rows() == n &&
                                src.before[h].cols() == m && n > 0 && m > 0;
            if (!usable) {
                error = Tr::tr(
                            "There is nothing to compare with for head %1: pin the weights "
                            "first (Attention ▸ Pin weights), then edit.")
                            .arg(head + 1);
                return false;
            }
            c.values = hr.weights - src.before[h];
            c.scale = ColorScale::Diverging;
            const double a = std::max(c.values.cwiseAbs().maxCoeff(), 1e-6);
            c.range = QCPRange(-a, a);
            c.title =
                Tr::tr("Difference after − before — head %1 %2").arg(head + 1).arg(shape(c.values));
        }
        break;
    default: break;
    }
    if (components) {
        c.columnLabels = componentLabels(c.values.cols());
        c.columnAxisTitle = Tr::tr("component");
    }
    return true;
}

}  // namespace

QString stageKey(FigureStage stage)
{
    for (const StageInfo& s : kStages)
        if (s.stage == stage) return QString::fromLatin1(s.key);
    return {};
}

bool parseStage(const QString& key, FigureStage& stage)
{
    for (const StageInfo& s : kStages) {
        if (key == QLatin1String(s.key)) {
            stage = s.stage;
            return true;
        }
    }
    return false;
}

QStringList stageKeys()
{
    QStringList out;
    for (const StageInfo& s : kStages) out << QString::fromLatin1(s.key);
    return out;
}

QString stageDisplayName(FigureStage stage)
{
    switch (stage) {
    case FigureStage::X: return Tr::tr("X: token embeddings");
    case FigureStage::Q: return Tr::tr("Q: queries");
    case FigureStage::K: return Tr::tr("K: keys");
    case FigureStage::V: return Tr::tr("V: values");
    case FigureStage::Scores: return Tr::tr("S: raw scores");
    case FigureStage::Scaled: return Tr::tr("Scaled scores");
    case FigureStage::Mask: return Tr::tr("Mask");
    case FigureStage::Weights: return Tr::tr("Attention weights P");
    case FigureStage::Output: return Tr::tr("Head output P·V");
    case FigureStage::Combined: return Tr::tr("Combined output (all heads, W_O)");
    case FigureStage::Difference: return Tr::tr("Difference map (after − before)");
    case FigureStage::Pipeline: return Tr::tr("Whole pipeline strip");
    }
    return {};
}

bool buildFigure(const FigureSource& src, const FigureRequest& req, Figure& figure, QString& error)
{
    if (src.session == nullptr || src.result == nullptr || src.result->heads.empty()) {
        error = Tr::tr("There is no result to export.");
        return false;
    }
    const int headCount = static_cast<int>(src.result->heads.size());
    if (!req.allHeads && (req.head < 0 || req.head >= headCount)) {
        error = Tr::tr("There is no head %1: the session has %2 head(s).")
                    .arg(req.head + 1)
                    .arg(headCount);
        return false;
    }
    Figure f;
    std::vector<int> heads;
    if (req.allHeads && req.stage != FigureStage::Combined) {
        for (int h = 0; h < headCount; ++h) heads.push_back(h);
    } else {
        heads.push_back(req.head);
    }
    std::vector<FigureStage> stages;
    if (req.stage == FigureStage::Pipeline)
        stages.assign(std::begin(kPipeline), std::end(kPipeline));
    else
        stages.push_back(req.stage);
    for (int h : heads) {
        for (FigureStage st : stages) {
            HeatmapContent c;
            if (!stageContent(src, h, st, c, error)) return false;
            if (stages.size() > 1 && st == FigureStage::Weights)
                c.title = Tr::tr("P = softmax of each row %1").arg(shape(c.values));
            if (heads.size() > 1 && stages.size() == 1) c.title = Tr::tr("Head %1").arg(h + 1);
            if (heads.size() > 1 && stages.size() > 1)
                c.title = Tr::tr("Head %1 · %2").arg(h + 1).arg(c.title);
            if (c.scale == ColorScale::Weights && req.weightsOnDataRange)
                c.scale = ColorScale::Sequential;
            if (req.fixedRange && st != FigureStage::Mask) c.range = *req.fixedRange;
            f.panels.push_back(std::move(c));
        }
    }
    if (req.stage == FigureStage::Pipeline)
        f.columns = heads.size() > 1 ? static_cast<int>(stages.size()) : 3;
    else
        f.columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(f.panels.size()))));

    const attn::AttentionInput& in = src.session->input;
    const QString headText = req.allHeads
                                 ? Tr::tr("all %1 heads").arg(headCount)
                                 : Tr::tr("head %1 of %2").arg(req.head + 1).arg(headCount);
    if (req.stage == FigureStage::Pipeline) {
        f.title = Tr::tr("The attention pipeline, %1").arg(headText);
    } else if (f.panels.size() == 1) {
        f.title = f.panels.front().title;
        f.panels.front().title.clear();
    } else {
        f.title = Tr::tr("%1, %2").arg(stageDisplayName(req.stage), headText);
    }
    QStringList parts;
    if (req.stage != FigureStage::Combined) parts << headText;
    parts << modeName(in.mode) << scalingName(in)
          << (in.score == attn::ScoreFunction::Additive ? Tr::tr("additive scores")
                                                        : Tr::tr("dot-product scores"));
    if (in.sharedProjections) parts << Tr::tr("shared projections");
    if (!in.edits.empty()) parts << Tr::tr("%n vector edit(s)", nullptr, int(in.edits.size()));
    if (req.stage == FigureStage::Difference && !src.beforeDescription.isEmpty())
        parts << src.beforeDescription;
    if (req.fixedRange)
        parts << Tr::tr("colour range fixed to [%1, %2]")
                     .arg(QString::number(req.fixedRange->lower, 'g', 4),
                          QString::number(req.fixedRange->upper, 'g', 4));
    else if (!req.weightsOnDataRange &&
             (req.stage == FigureStage::Weights || req.stage == FigureStage::Pipeline))
        parts << Tr::tr("weights on [0, 1]");
    f.caption = parts.join(QStringLiteral(" · "));
    figure = std::move(f);
    return true;
}

QSize defaultFigureSize(const Figure& figure)
{
    const int count = std::max<int>(1, static_cast<int>(figure.panels.size()));
    const int cols = std::clamp(figure.columns, 1, count);
    const int rows = (count + cols - 1) / cols;
    const int cell = count == 1 ? 760 : (cols >= 6 ? 300 : 440);
    return {std::min(cols * cell + 80, 6000), std::min(rows * (cell - 40) + 140, 6000)};
}

}  // namespace attnlab
