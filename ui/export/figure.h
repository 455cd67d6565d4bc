// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A figure for export: one or more heatmaps (panels) with a title and a caption,
// built from a session and its core result. Used by the Export menu and by
// `attnlab render`; drawn by figure_renderer.h. Nothing here computes attention:
// the matrices come from the result (and, for the difference map, a baseline).

#include <functional>
#include <optional>
#include <vector>

#include <QSize>
#include <QString>
#include <QStringList>

#include "core/attention.h"
#include "ui/readers/session.h"
#include "ui/views/heatmap_content.h"

class QPainter;
class QRectF;

namespace attnlab {

// What to draw. The names (stageKey) are those of `attnlab compute`'s JSON, plus
// "X", "combined" (the output through W_O), "diff" and "pipeline" (the whole strip).
enum class FigureStage {
    X,
    Q,
    K,
    V,
    Scores,
    Scaled,
    Mask,
    Weights,
    Output,
    Combined,
    Difference,
    Pipeline,
};

QString stageKey(FigureStage stage);
// Parses a stage name (case-sensitive key as above); false when unknown.
bool parseStage(const QString& key, FigureStage& stage);
// Every stage name, in order, for usage texts and dialogs.
QStringList stageKeys();
// A translated, human name for dialogs ("Attention weights P").
QString stageDisplayName(FigureStage stage);

struct FigureRequest {
    FigureStage stage = FigureStage::Weights;
    int head = 0;           // 0-based
    bool allHeads = false;  // one panel (or strip) per head
    // When set, every panel uses this colour range (keeps several exports comparable).
    // When unset, weights use [0, 1] unless `weightsOnDataRange`, others their own range.
    std::optional<ValueRange> fixedRange;
    bool weightsOnDataRange = false;
    // Square cells (the default: a cell is a token pair, not a shape of its own); false lets
    // the cells fill the room, wider or taller.
    bool squareCells = true;
};

// What the figure is drawn from. `before[h]` is head h's weights before the edits,
// for the difference map (an empty matrix when there is none for that head).
struct FigureSource {
    const Session* session = nullptr;
    const attn::AttentionResult* result = nullptr;
    std::vector<attn::Matrix> before;
    QString beforeDescription;  // how `before` was obtained, for the caption
};

struct Figure {
    QString title;
    QString caption;
    std::vector<HeatmapContent> panels;
    // A figure that is not a grid of heatmaps (a real model's grid of thumbnails, its head
    // view): painted between the title and the caption instead of the panels. `basePx` is the
    // figure's text size in logical pixels.
    std::function<void(QPainter& painter, const QRectF& area, double basePx)> drawing;
    int columns = 1;  // panels per row
    bool squareCells = true;
};

// Builds the figure; on failure returns false and sets `error` (translated).
bool buildFigure(const FigureSource& source, const FigureRequest& request, Figure& figure,
                 QString& error);

// A good default size (logical pixels / points) for a figure of this shape.
QSize defaultFigureSize(const Figure& figure);

}  // namespace attnlab
