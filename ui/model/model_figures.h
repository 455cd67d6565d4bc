// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A real model's pictures as export figures (ui/export/figure.h), drawn by the same renderer
// as every other figure (PNG, SVG, PDF): the model view's grid, one map enlarged (a head, a
// layer mean or a rollout, ui/export/model_map_figure.h) and the head view.

#include <vector>

#include "ui/export/figure.h"
#include "ui/export/model_map_figure.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab {

// Every layer and head, with the layer means and rollouts; `modelName` heads the title.
// The figure holds the snapshot: it may outlive the caller's pointer.
Figure modelGridFigure(std::shared_ptr<const ModelSnapshot> snapshot, const QString& modelName);

// The head view of `layer` for `heads` (all of the layer's when empty).
Figure headLinesFigure(std::shared_ptr<const ModelSnapshot> snapshot, int layer,
                       const std::vector<int>& heads);

}  // namespace attnlab
