// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/train_ops.h"

#include <QCoreApplication>

namespace attnlab::ops {

namespace {

class TrainOpsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SessionOps)
};

QStringList labels(const std::vector<std::string>& tokens)
{
    QStringList out;
    for (const std::string& t : tokens) out << QString::fromStdString(t);
    return out;
}

}  // namespace

QString taskRefusal(attn::TaskKind kind, const Session& s)
{
    const long d = s.input.modelDim();
    if (kind == attn::TaskKind::Coreference && d < attn::kCoreferenceFeatures)
        return TrainOpsTr::tr(
                   "The coreference task needs d_model of at least %1 (one component per feature: "
                   "noun, animate, place, pronoun, function word, quality); this session has %2.")
            .arg(attn::kCoreferenceFeatures)
            .arg(d);
    if ((kind == attn::TaskKind::PreviousToken || kind == attn::TaskKind::Match) &&
        s.input.queryCount() < 2)
        return TrainOpsTr::tr("This task needs at least 2 tokens; this session has %1.")
            .arg(s.input.queryCount());
    return {};
}

Changed keepTraining(const Session& s, const attn::Trainer& trainer, std::size_t example,
                     bool withSequence)
{
    Changed c{s, {}};
    attn::AttentionInput& in = c.session.input;
    const attn::AttentionInput& learned = trainer.learned();
    in.heads = learned.heads;
    in.W_O = learned.W_O;
    in.sharedProjections = learned.sharedProjections;
    if (c.session.provenance) {
        c.session.provenance.reset();
        c.notes << TrainOpsTr::tr(
            "The session no longer holds the real model's head: its matrices were trained.");
    }
    if (!withSequence || trainer.task() == attn::TaskKind::Pattern || trainer.examples().empty())
        return c;

    const attn::TrainExample& ex =
        trainer.examples()[std::min(example, trainer.examples().size() - 1)];
    in.X = ex.X;
    c.session.targetTokens = labels(ex.tokens);
    if (in.mode == attn::Mode::Cross) {
        in.Y = ex.X;
        c.session.sourceTokens = c.session.targetTokens;
    }
    if (!in.edits.empty()) {
        c.notes << TrainOpsTr::tr("%n vector edit(s) were on the old sequence and were dropped.",
                                  nullptr, static_cast<int>(in.edits.size()));
        in.edits.clear();
    }
    if (in.mask && (in.mask->rows() != in.queryCount() || in.mask->cols() != in.keyCount())) {
        in.mask.reset();
        c.notes << TrainOpsTr::tr(
            "The custom mask was removed: its shape no longer fits the sequences.");
    }
    return c;
}

}  // namespace attnlab::ops
