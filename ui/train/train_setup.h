// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the Trainer dock asks for, and the Trainer it makes from the document's session: the
// same steps as `attnlab train` (ops::taskRefusal, makeTask on the session's sizes, then
// Trainer::create), so that the window and the command line train alike.

#include <QString>

#include "core/train/trainer.h"
#include "ui/readers/session.h"

namespace attnlab {

struct TrainChoice {
    attn::TaskKind task = attn::TaskKind::PreviousToken;
    attn::OptimizerKind optimizer = attn::OptimizerKind::Adam;
    double learningRate = 0.05;
    int steps = 1000;
    bool values = false;  // "Train W_V too"
    bool shared = false;  // "One shared projection"
    int head = 0;
    quint64 seed = 1;
    attn::Matrix pattern;  // your own pattern: n x m, the session's weights' shape
};

// The learning rate `attnlab train` uses when none is given.
double defaultLearningRate(attn::OptimizerKind kind);

// Makes the trainer; false with a translated `error` (the refusal's sentence, a pattern of the
// wrong shape, or the core's message).
bool makeTrainer(const Session& session, const TrainChoice& choice, attn::Trainer& out,
                 QString& error);

}  // namespace attnlab
