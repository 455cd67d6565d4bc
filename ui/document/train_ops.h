// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What keeping a training run does to a session (the window's Keep and `attnlab train -o`).

#include "core/train/trainer.h"
#include "ui/document/session_ops.h"

namespace attnlab::ops {

// Why `kind` cannot train on `s`, as a translated sentence, or empty when it can (the
// coreference toy needs d_model >= 6, one component per feature; pattern tasks need a target
// the size of the session's weights, checked when it is given).
QString taskRefusal(attn::TaskKind kind, const Session& s);

// The session with the learned matrices of `trainer` (W_Q, W_K, W_V, biases, additive
// parameters and W_O as trained, and shared projections as the run had them). A generated
// task's run also brings the sequence it showed, example `example` (its tokens and X; in
// cross mode also as the source), so that the kept map is the map the trainer showed: the
// session's vector edits are then dropped and a custom mask that no longer fits is removed,
// each with a note. A pattern task's run keeps the session's own sequence and edits, and so
// does any run when `withSequence` is false (the learned matrices only).
Changed keepTraining(const Session& s, const attn::Trainer& trainer, std::size_t example = 0,
                     bool withSequence = true);

}  // namespace attnlab::ops
