// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/figure.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

#include "ui/export/figure_numbers.h"
#include "ui/views/stage_content.h"

namespace attnlab {

namespace {

class FigureTr {
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

QString scalingName(const attn::AttentionInput& in)
{
    switch (in.scaling) {
    case attn::Scaling::SqrtDk: return FigureTr::tr("scaled by √d_k");
    case attn::Scaling::Temperature:
        return FigureTr::tr("scaled by τ = %1").arg(figureShortNumber(in.temperature, 6));
    case attn::Scaling::None: return FigureTr::tr("unscaled");
    }
    return {};
}

// A figure of one stage draws attnlab::Stage; "pipeline" is the strip of the nine head stages.
Stage drawnStage(FigureStage stage)
{
    switch (stage) {
    case FigureStage::Combined: return Stage::Combined;
    case FigureStage::Difference: return Stage::Difference;
    case FigureStage::Pipeline: return Stage::Weights;  // not drawn as one stage
    default: return static_cast<Stage>(static_cast<int>(stage));
    }
}
static_assert(static_cast<int>(FigureStage::Output) == static_cast<int>(Stage::Output),
              "the first figure stages are the head stages, in the same order");

// One stage of one head, built as the window builds it (stage_content.h); the weights carry the
// head in their title.
bool stageContent(const FigureSource& src, int head, FigureStage stage, HeatmapContent& c,
                  QString& error)
{
    const StageSource source{src.session, src.result, &src.before};
    if (!buildStage(source, head, drawnStage(stage), StageTitle::Full, c, &error)) return false;
    if (stage == FigureStage::Weights) {
        const attn::HeadResult& hr = src.result->heads[static_cast<std::size_t>(head)];
        c.title = FigureTr::tr("Attention weights P — head %1 %2")
                      .arg(head + 1)
                      .arg(shapeText(hr.weights));
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
    case FigureStage::X: return FigureTr::tr("X: token embeddings");
    case FigureStage::Q: return FigureTr::tr("Q: queries");
    case FigureStage::K: return FigureTr::tr("K: keys");
    case FigureStage::V: return FigureTr::tr("V: values");
    case FigureStage::Scores: return FigureTr::tr("S: raw scores");
    case FigureStage::Scaled: return FigureTr::tr("Scaled scores");
    case FigureStage::Mask: return FigureTr::tr("Mask");
    case FigureStage::Weights: return FigureTr::tr("Attention weights P");
    case FigureStage::Output: return FigureTr::tr("Head output P·V");
    case FigureStage::Combined: return FigureTr::tr("Combined output (all heads, W_O)");
    case FigureStage::Difference: return FigureTr::tr("Difference map (after − before)");
    case FigureStage::Pipeline: return FigureTr::tr("Whole pipeline strip");
    }
    return {};
}

bool buildFigure(const FigureSource& src, const FigureRequest& req, Figure& figure, QString& error)
{
    if (src.session == nullptr || src.result == nullptr || src.result->heads.empty()) {
        error = FigureTr::tr("There is no result to export.");
        return false;
    }
    const int headCount = static_cast<int>(src.result->heads.size());
    if (!req.allHeads && (req.head < 0 || req.head >= headCount)) {
        error = FigureTr::tr("There is no head %1: the session has %2 head(s).")
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
                c.title = FigureTr::tr("P = softmax of each row %1").arg(shapeText(c.values));
            if (heads.size() > 1 && stages.size() == 1)
                c.title = FigureTr::tr("Head %1").arg(h + 1);
            if (heads.size() > 1 && stages.size() > 1)
                c.title = FigureTr::tr("Head %1 · %2").arg(h + 1).arg(c.title);
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
                                 ? FigureTr::tr("all %1 heads").arg(headCount)
                                 : FigureTr::tr("head %1 of %2").arg(req.head + 1).arg(headCount);
    if (req.stage == FigureStage::Pipeline) {
        f.title = FigureTr::tr("The attention pipeline, %1").arg(headText);
    } else if (f.panels.size() == 1) {
        f.title = f.panels.front().title;
        f.panels.front().title.clear();
    } else {
        f.title = FigureTr::tr("%1, %2").arg(stageDisplayName(req.stage), headText);
    }
    QStringList parts;
    if (req.stage != FigureStage::Combined) parts << headText;
    parts << modeTitle(in.mode) << scalingName(in)
          << (in.score == attn::ScoreFunction::Additive ? FigureTr::tr("additive scores")
                                                        : FigureTr::tr("dot-product scores"));
    if (in.sharedProjections) parts << FigureTr::tr("shared projections");
    if (!in.edits.empty())
        parts << FigureTr::tr("%n vector edit(s)", nullptr, int(in.edits.size()));
    if (req.stage == FigureStage::Difference && !src.beforeDescription.isEmpty())
        parts << src.beforeDescription;
    if (req.fixedRange)
        parts << FigureTr::tr("colour range fixed to [%1, %2]")
                     .arg(figureShortNumber(req.fixedRange->lower, 4),
                          figureShortNumber(req.fixedRange->upper, 4));
    else if (!req.weightsOnDataRange &&
             (req.stage == FigureStage::Weights || req.stage == FigureStage::Pipeline))
        parts << FigureTr::tr("weights on [0, 1]");
    f.caption = parts.join(QStringLiteral(" · "));
    f.squareCells = req.squareCells;
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
