// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/trainer.h"

#include <cmath>

namespace attn {

namespace {

Status problem(StatusCode code, const char* field, long row = -1, long col = -1)
{
    Status s;
    s.code = code;
    s.field = field;
    s.row = row;
    s.col = col;
    return s;
}

AttentionInput inputFor(const AttentionInput& base, TaskKind kind, const TrainExample& ex)
{
    AttentionInput in = base;
    if (kind == TaskKind::Pattern) return in;
    in.X = ex.X;
    if (in.mode == Mode::Cross) in.Y = ex.X;
    if (in.mask && (in.mask->rows() != in.queryCount() || in.mask->cols() != in.keyCount()))
        in.mask.reset();
    in.edits.clear();
    return in;
}

// With W_V learned, the output too has a target: the embeddings of the tokens the pattern
// asks for (T X, a row without a target asks for its own token), in as many components as
// the output and the embeddings share.
Matrix outputTarget(const AttentionInput& in, const Matrix& pattern, long outputWidth)
{
    Matrix t = pattern;
    for (long i = 0; i < t.rows(); ++i) {
        const double sum = t.row(i).sum();
        if (sum > 0.0)
            t.row(i) /= sum;
        else if (i < t.cols())
            t(i, i) = 1.0;
    }
    const Matrix copied = t * in.keySource();
    Matrix out = Matrix::Zero(copied.rows(), outputWidth);
    const long shared = std::min(outputWidth, copied.cols());
    out.leftCols(shared) = copied.leftCols(shared);
    return out;
}

}  // namespace

Status Trainer::create(const AttentionInput& session, TaskKind kind,
                       std::vector<TrainExample> examples, const TrainSettings& settings,
                       Trainer& out)
{
    if (settings.head < 0 || static_cast<std::size_t>(settings.head) >= session.heads.size())
        return problem(StatusCode::EditOutOfRange, "train.head", settings.head);
    if (examples.empty()) return problem(StatusCode::EmptyTarget, "task.examples");
    if (!(settings.optimizer.learningRate > 0.0) || !std::isfinite(settings.optimizer.learningRate))
        return problem(StatusCode::NonFinite, "train.learning_rate");
    Trainer t;
    t.kind_ = kind;
    t.settings_ = settings;
    t.learned_ = session;
    t.learned_.sharedProjections = settings.shared;
    for (const TrainExample& ex : examples) {
        if (kind != TaskKind::Pattern && ex.X.cols() != session.modelDim())
            return problem(StatusCode::ShapeMismatch, "task.d_model", ex.X.cols(),
                           session.modelDim());
        AttentionInput in = inputFor(t.learned_, kind, ex);
        if (Status s = validate(in, settings.limits); !s.ok()) return s;
        if (ex.pattern.rows() != in.queryCount() || ex.pattern.cols() != in.keyCount()) {
            Status s = problem(StatusCode::ShapeMismatch, "target.patterns[0]", ex.pattern.rows(),
                               ex.pattern.cols());
            s.expectedRows = in.queryCount();
            s.expectedCols = in.keyCount();
            return s;
        }
        t.inputs_.push_back(std::move(in));
    }
    t.examples_ = std::move(examples);
    t.params_ = gatherParameters(t.learned_, settings.trainable);
    t.optimizer_ = Optimizer(settings.optimizer, t.params_.size());
    // The first evaluation checks the targets (negative or non-finite entries).
    double loss = 0.0;
    if (Status s = t.evaluate(false, loss, nullptr); !s.ok()) return s;
    out = std::move(t);
    return Status::success();
}

Status Trainer::evaluate(bool withGradient, double& loss, Vector* grad) const
{
    double total = 0.0;
    Vector sum;
    if (withGradient) sum = Vector::Zero(params_.size());
    for (std::size_t e = 0; e < inputs_.size(); ++e) {
        const AttentionInput& in = inputs_[e];
        AttentionResult result;
        if (Status s = computeAttention(in, result, settings_.limits); !s.ok()) return s;
        LossSpec spec;
        spec.patterns.push_back({settings_.head, examples_[e].pattern});
        if (settings_.trainable.values)
            spec.output = outputTarget(in, examples_[e].pattern, result.output.cols());
        LossValueT<double> value;
        CotangentT<double> cot;
        if (Status s = evaluateLoss(in, result, spec, value, withGradient ? &cot : nullptr);
            !s.ok())
            return s;
        total += value.total;
        if (withGradient) {
            GradientsT<double> g;
            if (Status s = backward(in, result, cot, g); !s.ok()) return s;
            sum += gatherGradients(g, in, settings_.trainable);
        }
    }
    const double count = static_cast<double>(inputs_.size());
    loss = total / count;
    if (!std::isfinite(loss)) return problem(StatusCode::NonFinite, "loss");
    if (withGradient) {
        *grad = sum / count;
        if (!grad->allFinite()) return problem(StatusCode::NonFinite, "loss");
    }
    return Status::success();
}

Status Trainer::step()
{
    double loss = 0.0;
    Vector grad;
    if (Status s = evaluate(true, loss, &grad); !s.ok()) return s;
    Vector next = params_;
    Optimizer trial = optimizer_;
    trial.step(next, grad);
    if (!next.allFinite()) return problem(StatusCode::NonFinite, "loss");
    optimizer_ = std::move(trial);
    params_ = std::move(next);
    scatterParameters(params_, settings_.trainable, learned_);
    for (AttentionInput& in : inputs_) scatterParameters(params_, settings_.trainable, in);
    losses_.push_back(loss);
    return Status::success();
}

Status Trainer::currentLoss(double& loss) const
{
    return evaluate(false, loss, nullptr);
}

AttentionInput Trainer::exampleInput(std::size_t e) const
{
    return e < inputs_.size() ? inputs_[e] : learned_;
}

}  // namespace attn
