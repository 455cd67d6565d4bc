// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model trainer's live grid: every head's attention on one repeated sequence (m random
// tokens, then the same m), layers as rows and heads as columns, each with its induction and
// previous-token scores under it; the best induction head is framed. A previous-token head
// shows the diagonal just below the main one, an induction head a stripe m - 1 below it.
// The same painting makes the film strip: one row per head, one column per kept step.

#include <map>
#include <vector>

#include <QImage>
#include <QWidget>

#include "core/head_scores.h"
#include "ui/export/figure.h"
#include "ui/model/model_train_run.h"

namespace attnlab {

// Thumbnails of every head of `maps`, layer by layer.
std::vector<QImage> headMapImages(const attn::gpt2::HeadMaps& maps, int maxPixels);

// The grid into `area`; `scores` (per layer, per head; may be empty) are printed under the maps.
void paintHeadMapGrid(QPainter& painter, const QRectF& area, const attn::gpt2::HeadMaps& maps,
                      const std::vector<QImage>& images, const attn::HeadScoreTable& scores,
                      double basePx);

class ModelTrainGrid : public QWidget {
    Q_OBJECT
public:
    explicit ModelTrainGrid(QWidget* parent = nullptr);
    void setMaps(const MapsPtr& maps, const attn::HeadScoreTable& scores);
    [[nodiscard]] const MapsPtr& maps() const { return maps_; }
    [[nodiscard]] QSize sizeHint() const override { return {320, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    MapsPtr maps_;
    attn::HeadScoreTable scores_;
    std::vector<QImage> images_;
};

// The film strip: for each head a row of its maps at the kept steps (`steps` picks which of
// `frames`; missing ones are left out). False with `error` (translated) when none is kept.
bool modelFilmStrip(const std::map<long, MapsPtr>& frames, const std::vector<long>& steps,
                    const QString& title, Figure& figure, QString& error);

}  // namespace attnlab
