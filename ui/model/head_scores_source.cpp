// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/head_scores_source.h"

#include <algorithm>

#include "ui/model/model_document.h"

namespace attnlab {

namespace {

constexpr long kHalf = 32;   // m, as attnlab heads uses by default
constexpr long kCount = 16;  // sequences averaged over

}  // namespace

HeadScoresSource::HeadScoresSource(ModelDocument* document, QObject* parent)
    : QObject(parent), document_(document), job_(this)
{
    connect(document_, &ModelDocument::modelChanged, this, &HeadScoresSource::recompute);
    recompute();
}

void HeadScoresSource::setTint(std::optional<attn::HeadKind> kind)
{
    if (tint_ == kind) return;
    tint_ = kind;
    Q_EMIT changed();
}

void HeadScoresSource::recompute()
{
    job_.drop();
    scores_.clear();
    half_ = 0;
    const std::shared_ptr<const LoadedModel> loaded = document_->loaded();
    if (!loaded) {
        Q_EMIT changed();
        return;
    }
    attn::model::DetectSpec spec;
    spec.m = std::min(kHalf, loaded->model.config().positions / 2);
    spec.count = kCount;
    job_.start(
        [loaded, spec](JobControl& control) {
            Result r;
            r.half = spec.m;
            const auto progress = [&control](int done, int total) {
                control.report(static_cast<double>(done) / std::max(1, total));
                return !control.cancelled();
            };
            if (!detectHeadsOf(*loaded, spec, r.table, progress).ok()) r.table.clear();
            return r;
        },
        [this](Result r) {
            scores_ = std::move(r.table);
            half_ = r.half;
            Q_EMIT changed();
        });
    Q_EMIT changed();
}

}  // namespace attnlab
