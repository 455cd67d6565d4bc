// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/seq2seq_edit.h"

#include <cmath>
#include <memory>

namespace attn::model {

namespace {

bool ablates(HeadEditKind kind)
{
    return kind == HeadEditKind::AblateZero || kind == HeadEditKind::AblateMean;
}

// Whether an edit's index counts in the source (an encoder head's vectors, a cross head's keys
// and values) or in the target.
bool indexesSource(const HeadEdit& e)
{
    return e.attention == AttentionKind::Encoder ||
           (e.attention == AttentionKind::Cross && e.kind != HeadEditKind::Query);
}

std::vector<float> changeOfHeads(const std::vector<FloatMatrix>& a,
                                 const std::vector<FloatMatrix>& b, bool& ok)
{
    std::vector<float> row;
    if (a.size() != b.size()) ok = false;
    for (std::size_t h = 0; ok && h < a.size(); ++h) {
        if (a[h].rows() != b[h].rows() || a[h].cols() != b[h].cols()) {
            ok = false;
            break;
        }
        row.push_back(a[h].size() == 0 ? 0.0f : (a[h] - b[h]).cwiseAbs().maxCoeff());
    }
    return row;
}

}  // namespace

std::string describeSeq2Seq(const HeadEdit& edit)
{
    return std::string(attentionKindName(edit.attention)) + " " + describe(edit);
}

attn::Status checkSeq2SeqEdits(const Seq2SeqModel& model, long sourceTokens, long targetTokens,
                               std::span<const HeadEdit> edits)
{
    const Seq2SeqConfig& c = model.config();
    const auto refuse = [&](attn::StatusCode code, std::size_t i, const char* part, long value,
                            long limit, const std::string& detail) {
        const HeadEdit& e = edits[i];
        attn::Status s = attn::failure(code, "", part, detail);
        s.edit = static_cast<int>(i);
        s.subject = describeSeq2Seq(e);
        s.layer = e.layer;
        s.head = e.head;
        s.value = value;
        s.limit = limit;
        if (!ablates(e.kind)) s.position = e.index;
        return s;
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        const HeadEdit& e = edits[i];
        const bool encoder = e.attention == AttentionKind::Encoder;
        const long layers = encoder ? c.encoderLayers : c.decoderLayers;
        if (e.layer < 0 || e.layer >= layers)
            return refuse(attn::StatusCode::BadLayer, i, "layer", e.layer, layers,
                          std::string("the ") + (encoder ? "encoder" : "decoder") + " has " +
                              std::to_string(layers) + " layers");
        if (e.head < 0 || e.head >= c.heads)
            return refuse(attn::StatusCode::BadLayer, i, "head", e.head, c.heads,
                          "the model has " + std::to_string(c.heads) + " heads");
        const bool inSource = indexesSource(e);
        const long tokens = inSource ? sourceTokens : targetTokens;
        if (!ablates(e.kind) && (e.index < 0 || e.index >= tokens))
            return refuse(attn::StatusCode::BadPosition, i, "index", e.index, tokens,
                          std::string("the ") + (inSource ? "source" : "target") + " has " +
                              std::to_string(tokens) + " tokens");
        if (!std::isfinite(e.scale))
            return refuse(attn::StatusCode::NonFinite, i, "scale", -1, -1, "scale is not finite");
        for (std::size_t k = 0; k < i; ++k) {
            if (!sameEditTarget(edits[k], e, 1)) continue;
            attn::Status s = refuse(attn::StatusCode::DuplicateEdit, i, "", -1, -1,
                                    "the same as edit " + std::to_string(k + 1) + " (" +
                                        describeSeq2Seq(edits[k]) + "); give each once");
            s.row = static_cast<long>(k);
            return s;
        }
    }
    return {};
}

Seq2SeqOptions withSeq2SeqEdits(const Seq2SeqOptions& base, std::vector<HeadEdit> edits)
{
    Seq2SeqOptions o = base;
    const auto all = std::make_shared<const std::vector<HeadEdit>>(std::move(edits));
    o.hook = [all, earlier = base.hook](AttentionKind kind, int layer, int head,
                                        HeadResultT<float>& hr) {
        if (earlier) earlier(kind, layer, head, hr);
        for (const HeadEdit& e : *all) {
            if (e.attention != kind || e.layer != layer || e.head != head) continue;
            // A target position not yet written (greedy decoding grows the target) is edited
            // from the step that has it.
            const long rows = e.kind == HeadEditKind::Query ? hr.Q.rows() : hr.K.rows();
            if (ablates(e.kind) || e.index >= rows) continue;
            if (e.kind == HeadEditKind::Query) hr.Q.row(e.index) *= e.scale;
            if (e.kind == HeadEditKind::Key) hr.K.row(e.index) *= e.scale;
            if (e.kind == HeadEditKind::Value) hr.V.row(e.index) *= e.scale;
        }
    };
    o.outputHook = [all, earlier = base.outputHook](AttentionKind kind, int layer, int head,
                                                    FloatMatrix& output) {
        if (earlier) earlier(kind, layer, head, output);
        for (const HeadEdit& e : *all) {
            if (e.attention != kind || e.layer != layer || e.head != head) continue;
            if (e.kind == HeadEditKind::AblateZero) {
                output.setZero();
            } else if (e.kind == HeadEditKind::AblateMean) {
                const Eigen::RowVectorXf mean = output.colwise().mean();
                output.rowwise() = mean;
            }
        }
    };
    return o;
}

Seq2SeqChange seq2seqChange(const Seq2SeqResult& before, const Seq2SeqResult& after)
{
    Seq2SeqChange change;
    bool ok = before.encoder.size() == after.encoder.size() &&
              before.decoder.size() == after.decoder.size() &&
              before.cross.size() == after.cross.size();
    for (std::size_t l = 0; ok && l < before.encoder.size(); ++l)
        change.encoder.push_back(
            changeOfHeads(before.encoder[l].attention, after.encoder[l].attention, ok));
    for (std::size_t l = 0; ok && l < before.decoder.size(); ++l)
        change.decoder.push_back(
            changeOfHeads(before.decoder[l].attention, after.decoder[l].attention, ok));
    for (std::size_t l = 0; ok && l < before.cross.size(); ++l)
        change.cross.push_back(changeOfHeads(before.cross[l], after.cross[l], ok));
    return ok ? change : Seq2SeqChange();
}

}  // namespace attn::model
