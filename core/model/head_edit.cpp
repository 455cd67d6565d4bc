// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/head_edit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace attn::model {

namespace {

const char* kindName(HeadEditKind kind)
{
    switch (kind) {
    case HeadEditKind::Query: return "query";
    case HeadEditKind::Key: return "key";
    case HeadEditKind::Value: return "value";
    case HeadEditKind::AblateZero: return "ablate";
    case HeadEditKind::AblateMean: return "ablate (mean)";
    }
    return "?";
}

bool isAblation(HeadEditKind kind)
{
    return kind == HeadEditKind::AblateZero || kind == HeadEditKind::AblateMean;
}

}  // namespace

bool sameEditTarget(const HeadEdit& a, const HeadEdit& b, long group)
{
    if (a.layer != b.layer || a.attention != b.attention) return false;
    const bool shared = a.kind == HeadEditKind::Key || a.kind == HeadEditKind::Value;
    if (shared ? a.head / group != b.head / group : a.head != b.head) return false;
    if (isAblation(a.kind) || isAblation(b.kind)) return isAblation(a.kind) && isAblation(b.kind);
    return a.kind == b.kind && a.index == b.index;
}

std::string describe(const HeadEdit& e)
{
    std::string s = std::string(kindName(e.kind)) + " layer " + std::to_string(e.layer + 1) +
                    " head " + std::to_string(e.head + 1);
    if (!isAblation(e.kind)) {
        char scale[32];
        std::snprintf(scale, sizeof scale, "%g", static_cast<double>(e.scale));
        s += " index " + std::to_string(e.index + 1) + " x" + scale;
    }
    return s;
}

attn::Status checkEdits(const Model& model, long tokens, std::span<const HeadEdit> edits)
{
    const ModelConfig& c = model.config();
    // "edit 2 (key layer 13 head 1 index 1 x2): the model has 12 layers"; the status keeps the
    // edit's index and the sentence after the names, so a caller can name its own option.
    // `field` names the part of the edit at fault ("layer", "head", "index", "scale"), `value`
    // its number and `limit` what the model or text has, so that a window can say it again.
    const auto refuse = [&](attn::StatusCode code, std::size_t i, const char* part, long value,
                            long limit, const std::string& detail) {
        const HeadEdit& e = edits[i];
        attn::Status s = attn::failure(code, "", part, detail);
        s.edit = static_cast<int>(i);
        s.subject = describe(e);
        s.layer = e.layer;
        s.head = e.head;
        s.value = value;
        s.limit = limit;
        if (!isAblation(e.kind)) s.position = e.index;
        return s;
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        const HeadEdit& e = edits[i];
        if (e.layer < 0 || e.layer >= c.layers)
            return refuse(attn::StatusCode::BadLayer, i, "layer", e.layer, c.layers,
                          "the model has " + std::to_string(c.layers) + " layers");
        if (e.head < 0 || e.head >= c.heads)
            return refuse(attn::StatusCode::BadLayer, i, "head", e.head, c.heads,
                          "the model has " + std::to_string(c.heads) + " heads");
        if (!isAblation(e.kind) && (e.index < 0 || e.index >= tokens))
            return refuse(attn::StatusCode::BadPosition, i, "index", e.index, tokens,
                          "the text has " + std::to_string(tokens) + " tokens");
        if (!std::isfinite(e.scale))
            return refuse(attn::StatusCode::NonFinite, i, "scale", -1, -1, "scale is not finite");
        for (std::size_t k = 0; k < i; ++k) {
            if (!sameEditTarget(edits[k], e, std::max(1L, c.groupSize()))) continue;
            attn::Status s = refuse(attn::StatusCode::DuplicateEdit, i, "", -1, -1,
                                    "the same as edit " + std::to_string(k + 1) + " (" +
                                        describe(edits[k]) + "); give each once");
            s.row = static_cast<long>(k);
            return s;
        }
    }
    return {};
}

ForwardOptions withEdits(const ForwardOptions& base, std::vector<HeadEdit> edits, long groupSize)
{
    ForwardOptions o = base;
    const auto all = std::make_shared<const std::vector<HeadEdit>>(std::move(edits));
    const long group = std::max(1L, groupSize);
    o.hook = [all, group, earlier = base.hook](int layer, int head, HeadResultT<float>& hr) {
        if (earlier) earlier(layer, head, hr);
        for (const HeadEdit& e : *all) {
            if (e.layer != layer) continue;
            const bool sameHead = e.head == head;
            // Keys and values belong to the key/value head the group shares.
            const bool sameKeyValueHead = e.head / group == head / group;
            // A position not written yet (a text that grows, decode.h) is edited from the step
            // that writes it; every caller has checked the positions against its text.
            if (e.index >= hr.Q.rows()) continue;
            switch (e.kind) {
            case HeadEditKind::Query:
                if (sameHead) hr.Q.row(e.index) *= e.scale;
                break;
            case HeadEditKind::Key:
                if (sameKeyValueHead) hr.K.row(e.index) *= e.scale;
                break;
            case HeadEditKind::Value:
                if (sameKeyValueHead) hr.V.row(e.index) *= e.scale;
                break;
            default: break;
            }
        }
    };
    o.outputHook = [all, earlier = base.outputHook](int layer, int head, FloatMatrix& output) {
        if (earlier) earlier(layer, head, output);
        for (const HeadEdit& e : *all) {
            if (e.layer != layer || e.head != head) continue;
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

attn::Status runEdited(const Model& model, const ForwardResult& before,
                       std::span<const HeadEdit> edits, const ForwardOptions& options,
                       ForwardResult& after)
{
    const long n = static_cast<long>(before.ids.size());
    if (attn::Status s = checkEdits(model, n, edits); !s.ok()) return s;
    after = before;
    if (edits.empty()) return {};
    int first = model.config().layers - 1;
    for (const HeadEdit& e : edits) first = std::min(first, e.layer);
    const ForwardOptions edited =
        withEdits(options, {edits.begin(), edits.end()}, model.config().groupSize());
    attn::Status s = forwardFrom(model, first, edited, after);
    if (s.code != attn::StatusCode::NonFinite || (s.layer < 0 && s.stage.empty())) return s;
    // `before` ran the same ids to the end with finite values, so the edits made these. Name
    // the one on the failing head, else the edit of the earliest layer.
    std::size_t blamed = 0;
    for (std::size_t i = 0; i < edits.size(); ++i) {
        const HeadEdit& e = edits[i];
        if (e.layer == s.layer && e.head == s.head) {
            blamed = i;
            break;
        }
        if (e.layer < edits[blamed].layer) blamed = i;
    }
    s.cause = attn::Cause::Edit;
    s.edit = static_cast<int>(blamed);
    s.subject = describe(edits[blamed]);
    return s;
}

std::vector<std::vector<float>> attentionChange(const ForwardResult& before,
                                                const ForwardResult& after)
{
    std::vector<std::vector<float>> change;
    if (before.layers.size() != after.layers.size()) return change;
    for (std::size_t l = 0; l < before.layers.size(); ++l) {
        if (before.layers[l].isPooled() || after.layers[l].isPooled()) {
            // A long run's maps are pooled: the change of the largest weight of each block.
            const auto& a = before.layers[l].pooled;
            const auto& b = after.layers[l].pooled;
            if (a.size() != b.size()) return {};
            std::vector<float> row;
            for (std::size_t h = 0; h < a.size(); ++h) {
                if (a[h].cells.rows() != b[h].cells.rows() || a[h].block != b[h].block) return {};
                row.push_back(a[h].cells.size() == 0
                                  ? 0.0f
                                  : (a[h].cells - b[h].cells).cwiseAbs().maxCoeff());
            }
            change.push_back(std::move(row));
            continue;
        }
        const auto& a = before.layers[l].attention;
        const auto& b = after.layers[l].attention;
        if (a.size() != b.size()) return {};
        std::vector<float> row;
        for (std::size_t h = 0; h < a.size(); ++h) {
            if (a[h].rows() != b[h].rows() || a[h].cols() != b[h].cols()) return {};
            row.push_back(a[h].size() == 0 ? 0.0f : (a[h] - b[h]).cwiseAbs().maxCoeff());
        }
        change.push_back(std::move(row));
    }
    return change;
}

}  // namespace attn::model
