// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/train_setup.h"

#include <QCoreApplication>

#include "ui/document/train_ops.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class TrainSetupTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::TrainerPanel)
};

}  // namespace

double defaultLearningRate(attn::OptimizerKind kind)
{
    return kind == attn::OptimizerKind::Adam ? 0.05 : 0.5;
}

bool makeTrainer(const Session& session, const TrainChoice& choice, attn::Trainer& out,
                 QString& error)
{
    if (const QString why = ops::taskRefusal(choice.task, session); !why.isEmpty()) {
        error = why;
        return false;
    }
    attn::TaskSpec spec;
    spec.kind = choice.task;
    spec.seed = choice.seed;
    spec.n = session.input.queryCount();
    spec.dModel = session.input.modelDim();
    if (choice.task == attn::TaskKind::Pattern) {
        if (choice.pattern.rows() != session.input.queryCount() ||
            choice.pattern.cols() != session.input.keyCount()) {
            error = TrainSetupTr::tr("The pattern is %1 x %2, the session's weights %3 x %4.")
                        .arg(choice.pattern.rows())
                        .arg(choice.pattern.cols())
                        .arg(session.input.queryCount())
                        .arg(session.input.keyCount());
            return false;
        }
        spec.X = session.input.X;
        for (const QString& t : session.targetTokens) spec.tokens.push_back(t.toStdString());
        spec.pattern = choice.pattern;
    }
    std::vector<attn::TrainExample> examples;
    if (const attn::Status s = attn::makeTask(spec, examples); !s.ok()) {
        error = statusMessage(s);
        return false;
    }
    attn::TrainSettings settings;
    settings.optimizer.kind = choice.optimizer;
    settings.optimizer.learningRate = choice.learningRate;
    settings.shared = choice.shared;
    settings.trainable.values = choice.values;
    settings.head = choice.head;
    if (const attn::Status s =
            attn::Trainer::create(session.input, choice.task, std::move(examples), settings, out);
        !s.ok()) {
        error = statusMessage(s);
        return false;
    }
    return true;
}

}  // namespace attnlab
