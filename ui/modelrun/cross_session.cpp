// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/cross_session.h"

#include <QCoreApplication>

#include "core/model/seq2seq_slice.h"
#include "ui/modelrun/head_session.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class CrossSessionTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::HeadSession)
};

}  // namespace

bool crossHeadSession(const LoadedSeq2Seq& loaded, const Seq2SeqSnapshot& run, int layer, int head,
                      Session& out, QString& error)
{
    const attn::model::Seq2SeqResult& model = run.edited() ? run.unedited : run.result;
    attn::model::CrossSlice slice;
    if (const attn::Status s = attn::model::sliceCrossHead(loaded.model, model, layer, head, slice);
        !s.ok()) {
        error = CrossSessionTr::tr("Cannot open that head: %1").arg(statusMessage(s));
        return false;
    }
    Session session;
    session.input = attn::model::crossHeadInput(slice);
    session.targetTokens = run.target.labels;
    session.sourceTokens = run.source.labels;
    drawAdditive(session);
    out = std::move(session);
    return true;
}

QString crossHeadTitle(const LoadedSeq2Seq& loaded, int layer, int head)
{
    return CrossSessionTr::tr("Cross-attention, layer %1, head %2 of %3")
        .arg(layer + 1)
        .arg(head + 1)
        .arg(QString::fromStdString(loaded.model.config().modelType));
}

}  // namespace attnlab
