// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator trainer's live cross-attention map: one head's weights on the fixed example
// (二〇二六年十二月四日 → December 4, 2026), the target's pieces as rows and the source's as
// columns, drawn as the model window draws a real model's map. As the run learns, the crossing
// diagonal forms: "December" reads 十二月, the digits of the day read 四, the year's digits
// read 二〇二六 at the start of the source. The head is the best aligned one at the latest
// measure unless one is chosen. The same maps at kept steps make the film strip.

#include <map>
#include <vector>

#include <QStringList>
#include <QWidget>

#include "ui/export/figure.h"
#include "ui/model/model_train_run.h"

class QLabel;
class QStackedLayout;

namespace attnlab {

class HeatmapView;

// The head a map is drawn for: decoder layer and head, from 0.
struct CrossHead {
    int layer = 0;
    int head = 0;
};

// Pieces as labels: SentencePiece's "▁" (a space) shown as "␣", so that it reads as a space.
QStringList pieceLabels(const std::vector<std::string>& pieces);

// The weights of `head` in `maps` as a labelled map figure (rows: target, columns: source).
Figure crossMapFigure(const attn::gpt2::HeadMaps& maps, CrossHead head, const QStringList& rows,
                      const QStringList& columns, const QString& title);

class TranslatorCrossView : public QWidget {
    Q_OBJECT
public:
    explicit TranslatorCrossView(QWidget* parent = nullptr);
    void setLabels(const QStringList& rows, const QStringList& columns);
    // The map of `head` in `maps` (null, or maps that do not fit the labels: the placeholder).
    void setMaps(const MapsPtr& maps, CrossHead head, const QString& title);
    [[nodiscard]] const MapsPtr& maps() const { return maps_; }
    [[nodiscard]] CrossHead head() const { return head_; }
    [[nodiscard]] HeatmapView* map() const { return map_; }
    [[nodiscard]] QSize sizeHint() const override { return {320, 240}; }

private:
    MapsPtr maps_;
    CrossHead head_;
    QStringList rows_, columns_;
    HeatmapView* map_;
    QLabel* placeholder_;
    QStackedLayout* stack_;
};

// The film strip: `head`'s map at each of `steps` that `frames` holds, left to right. False
// with `error` (translated) when none is kept.
bool translatorFilmStrip(const std::map<long, MapsPtr>& frames, const std::vector<long>& steps,
                         CrossHead head, const QStringList& rows, const QStringList& columns,
                         const QString& title, Figure& figure, QString& error);

}  // namespace attnlab
