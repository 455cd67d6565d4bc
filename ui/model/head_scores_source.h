// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The head detectors' scores (core/model/head_detect.h) of the model open in a ModelDocument,
// computed on a worker each time a model opens, and which score (if any) colours the model
// view. A derived view of the model, not part of the session: it has no undo.

#include <optional>

#include <QObject>

#include "core/head_scores.h"
#include "ui/document/async_job.h"

namespace attnlab {

class ModelDocument;

class HeadScoresSource : public QObject {
    Q_OBJECT
public:
    explicit HeadScoresSource(ModelDocument* document, QObject* parent = nullptr);

    // Per layer, per head; empty before a model opens and while its scores are computed.
    [[nodiscard]] const attn::HeadScoreTable& scores() const { return scores_; }
    [[nodiscard]] bool computing() const { return job_.running(); }
    // The tokens per half of the sequences measured on (32, or fewer for a short model).
    [[nodiscard]] long half() const { return half_; }
    // The score that colours the model view, or none.
    [[nodiscard]] std::optional<attn::HeadKind> tint() const { return tint_; }
    void setTint(std::optional<attn::HeadKind> kind);
    // Waits for the scores in flight (tests).
    void wait() { job_.wait(); }

Q_SIGNALS:
    void changed();

private:
    struct Result {
        attn::HeadScoreTable table;
        long half = 0;
    };
    void recompute();

    ModelDocument* document_;
    AsyncJob<Result> job_;
    attn::HeadScoreTable scores_;
    long half_ = 0;
    std::optional<attn::HeadKind> tint_;
};

}  // namespace attnlab
