// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/cross_link.h"

#include <memory>

#include "ui/document/document.h"
#include "ui/model/seq2seq_document.h"

namespace attnlab {

CrossLink::CrossLink(Document* workbench, QObject* parent) : QObject(parent), workbench_(workbench)
{
    connect(workbench_, &Document::changed, this, &CrossLink::sessionChanged);
}

void CrossLink::attach(Seq2SeqDocument* translator, const CrossHeadRequest& request)
{
    detach();
    translator_ = translator;
    taken_ = request.taken;
    sourceTokens_ = request.session.sourceTokens;
    targetTokens_ = request.session.targetTokens;
    // Published already (a head is computed at once): carry it now; else when it is.
    if (!workbench_->computing()) sessionChanged();
}

void CrossLink::detach()
{
    if (translator_) translator_->carry(nullptr);
    translator_ = nullptr;
    setMismatch(QString());
}

void CrossLink::setMismatch(const QString& why)
{
    if (why == mismatch_) return;
    mismatch_ = why;
    if (translator_ && !why.isEmpty()) translator_->carry(nullptr, why);
}

void CrossLink::sessionChanged()
{
    if (!translator_) return;
    const Session& s = workbench_->session();
    if (s.input.mode != attn::Mode::Cross || s.targetTokens != targetTokens_ ||
        s.sourceTokens != sourceTokens_) {
        setMismatch(
            tr("The workbench no longer holds the translator's cross head (its mode or "
               "tokens changed); undo the change to carry it into the translator again."));
        return;
    }
    const attn::AttentionResult& r = workbench_->result();
    const auto n = static_cast<long>(taken_.targetIds.size());
    const auto m = static_cast<long>(taken_.sourceIds.size());
    if (!workbench_->hasResult() || r.heads.empty() || r.heads.front().weights.rows() != n ||
        r.heads.front().weights.cols() != m) {
        setMismatch(tr("The workbench has no map of the translator's tokens."));
        return;
    }
    if (r.heads.front().output.cols() != taken_.headDim) {
        setMismatch(tr("The head's values are %1 wide, the model's heads %2 (d_v changed); undo "
                       "the change to carry the head into the translator again.")
                        .arg(r.heads.front().output.cols())
                        .arg(taken_.headDim));
        return;
    }
    setMismatch(QString());
    auto carry = std::make_shared<CrossCarry>();
    carry->layer = taken_.layer;
    carry->head = taken_.head;
    carry->sourceIds = taken_.sourceIds;
    carry->targetIds = taken_.targetIds;
    carry->weights = r.heads.front().weights.cast<float>();
    carry->output = r.heads.front().output.cast<float>();
    translator_->carry(std::move(carry));
}

}  // namespace attnlab
