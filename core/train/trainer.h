// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Training W_Q and W_K (and optionally W_V, biases, additive parameters, W_O) by gradient
// descent on a task's examples. One step = forward, loss and backward on every example, the
// mean gradient, one optimiser step. Deterministic: no randomness after the task is made.
//
// Every example runs with the session's settings (mode, scaling, scoring, heads, masks); a
// generated task's examples replace X (and, in cross mode, Y) by their own sequence, keep the
// session's custom mask only when it fits and drop the session's vector edits, which name
// positions of another sequence.
//
// The loss is the cross-entropy between the trained head's P and the task's pattern. With
// Trainable::values, the output must also copy the embeddings of the tokens the pattern asks
// for (mean squared error against T X, in the components that output and X share): that is
// what gives W_V something to learn.

#include <vector>

#include "core/train/optimizer.h"
#include "core/train/parameters.h"
#include "core/train/tasks.h"

namespace attn {

struct TrainSettings {
    OptimizerSettings optimizer;
    Trainable trainable;
    bool shared = false;  // one shared projection: W_K = W_V = W_Q (learned as W_Q)
    int head = 0;         // the head whose pattern is trained
    Limits limits;
};

class Trainer {
public:
    // Checks the session, the examples and the settings; on failure `out` is untouched.
    // Errors name the problem: a head that does not exist ("train.head"), a task whose d_model
    // differs from the session's ("task.d_model"), the session's own validate() errors.
    static Status create(const AttentionInput& session, TaskKind kind,
                         std::vector<TrainExample> examples, const TrainSettings& settings,
                         Trainer& out);

    // One optimiser step. NonFinite ("loss") if the loss or a gradient is not finite: the
    // parameters are then left as they were before the step.
    Status step();

    [[nodiscard]] int steps() const { return static_cast<int>(losses_.size()); }
    // Loss before each step (losses()[k] = loss of the parameters after k steps).
    [[nodiscard]] const std::vector<double>& losses() const { return losses_; }
    // The loss of the current parameters (computed on demand).
    Status currentLoss(double& loss) const;
    // The session's settings with the learned matrices (sharedProjections as trained).
    [[nodiscard]] const AttentionInput& learned() const { return learned_; }
    // Example e's input with the learned matrices, e.g. for showing its map.
    [[nodiscard]] AttentionInput exampleInput(std::size_t e) const;
    [[nodiscard]] const std::vector<TrainExample>& examples() const { return examples_; }
    [[nodiscard]] const TrainSettings& settings() const { return settings_; }
    [[nodiscard]] TaskKind task() const { return kind_; }

private:
    Status evaluate(bool withGradient, double& loss, Vector* grad) const;

    TaskKind kind_ = TaskKind::PreviousToken;
    TrainSettings settings_;
    std::vector<TrainExample> examples_;
    std::vector<AttentionInput> inputs_;  // per example, with the current parameters
    AttentionInput learned_;
    Vector params_;
    Optimizer optimizer_{OptimizerSettings{}, 0};
    std::vector<double> losses_;
};

}  // namespace attn
