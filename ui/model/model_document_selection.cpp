// SPDX-License-Identifier: GPL-3.0-or-later
// The model document's selection and what the large map shows of it: a head, a layer mean or
// a rollout, whole or made on demand from a pooled run; the attention sinks and the heads a
// lesson asks for (its runs and edits are in model_document.cpp).
#include <algorithm>

#include "core/model/aggregate.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_paint.h"

namespace attnlab {

ModelSelection ModelDocument::clamped(ModelSelection s) const
{
    s.layer = std::clamp(s.layer, 0, std::max(0, layers() - 1));
    s.head = std::clamp(s.head, 0, std::max(0, heads() - 1));
    const int n = snapshot() ? static_cast<int>(snapshot()->tokenCount()) : 0;
    if (s.query >= n) s.query = -1;
    return s;
}

void ModelDocument::setSelection(ModelSelection s)
{
    s = clamped(s);
    if (s == selection_) return;
    selection_ = s;
    Q_EMIT selectionChanged();
}

void ModelDocument::selectHead(int layer, int head)
{
    ModelSelection s = selection_;
    s.layer = layer;
    s.head = head;
    s.focus = ModelFocus::Head;
    setSelection(s);
}

void ModelDocument::selectAggregate(int layer, ModelFocus focus)
{
    ModelSelection s = selection_;
    s.layer = layer;
    s.focus = focus;
    setSelection(s);
}

void ModelDocument::selectQuery(int row)
{
    ModelSelection s = selection_;
    s.query = row;
    setSelection(s);
}

std::shared_ptr<const attn::model::FloatMatrix> ModelDocument::focusedMatrix() const
{
    const auto snap = snapshot();
    if (!snap || snap->layers() == 0) return nullptr;
    const auto l = static_cast<std::size_t>(selection_.layer);
    using Matrix = attn::model::FloatMatrix;
    if (!snap->pooled()) {
        // Views into the published run, which they keep alive.
        switch (selection_.focus) {
        case ModelFocus::Head:
            return std::shared_ptr<const Matrix>(
                snap, &snap->result.layers[l].attention[static_cast<std::size_t>(selection_.head)]);
        case ModelFocus::LayerAverage:
            return std::shared_ptr<const Matrix>(snap, &snap->averages[l]);
        case ModelFocus::Rollout: return std::shared_ptr<const Matrix>(snap, &snap->rollout[l]);
        }
        return nullptr;
    }
    if (selection_.focus == ModelFocus::Rollout) return nullptr;
    ModelSelection key = selection_;
    key.query = -1;
    if (exact_ && exactRun_.lock() == snap && exactFor_ == key) return exact_;
    exact_.reset();  // the old map goes before the new one is made
    auto made = std::make_shared<Matrix>();
    const attn::model::Model& model = loaded_->model;
    // The run's edits of queries and keys, made again with the head's vectors.
    const attn::model::HeadHook hook =
        snap->edited() ? attn::model::withEdits({}, snap->edits, snap->groupSize).hook
                       : attn::model::HeadHook{};
    const std::shared_ptr<const attn::model::LayerVectors> vectors =
        layerVectors(snap, static_cast<bool>(hook));
    if (!vectors) return nullptr;
    const auto headMap = [&](int head, Matrix& out) {
        return attn::model::exactMap(model, snap->result, *vectors, head, out, hook).ok();
    };
    if (selection_.focus == ModelFocus::Head) {
        if (!headMap(selection_.head, *made)) return nullptr;
    } else {
        Matrix one;
        for (int h = 0; h < snap->heads(); ++h) {
            if (!headMap(h, one)) return nullptr;
            if (h == 0)
                made->swap(one);
            else
                *made += one;
        }
        *made /= static_cast<float>(snap->heads());
    }
    exact_ = std::move(made);
    exactRun_ = snap;
    exactFor_ = key;
    return exact_;
}

std::shared_ptr<const attn::model::LayerVectors> ModelDocument::layerVectors(
    const std::shared_ptr<const ModelSnapshot>& snap, bool values) const
{
    if (vectors_ && vectorsRun_.lock() == snap && vectors_->layer == selection_.layer &&
        (!values || vectors_->V.size() > 0))
        return vectors_;
    vectors_.reset();  // the old layer's go before the new ones are made
    auto made = std::make_shared<attn::model::LayerVectors>();
    if (!attn::model::layerVectors(loaded_->model, snap->result, selection_.layer, values, *made)
             .ok())
        return nullptr;
    vectors_ = std::move(made);
    vectorsRun_ = snap;
    return vectors_;
}

QString ModelDocument::focusAbsence() const
{
    const auto snap = snapshot();
    if (!snap) return tr("Type a text to see the model's attention.");
    if (snap->pooled() && selection_.focus == ModelFocus::Rollout)
        return tr("Rollout multiplies every layer's whole map; from %1 tokens on the model view "
                  "keeps each map at screen resolution, and rollout is not computed.")
            .arg(modelPoolAbove() + 1);
    return {};
}

bool ModelDocument::focusedScore(long query, long key, float& score) const
{
    const auto snap = snapshot();
    if (!snap || !loaded_ || snap->edited() || selection_.focus != ModelFocus::Head) return false;
    return attn::model::headScore(loaded_->model, snap->result, selection_.layer, selection_.head,
                                  query, key, score);
}

bool ModelDocument::selectNextSink()
{
    const auto snap = snapshot();
    if (!snap) return false;
    struct Share {
        int layer, head;
        float share;
    };
    std::vector<Share> heads;
    for (int l = 0; l < snap->layers(); ++l) {
        const std::vector<float>& f = snap->result.layers[static_cast<std::size_t>(l)].firstShare;
        for (int h = 0; h < static_cast<int>(f.size()); ++h)
            heads.push_back({l, h, f[static_cast<std::size_t>(h)]});
    }
    if (heads.empty()) return false;
    std::stable_sort(heads.begin(), heads.end(),
                     [](const Share& a, const Share& b) { return a.share > b.share; });
    const auto sinks = std::count_if(heads.begin(), heads.end(),
                                     [](const Share& s) { return s.share >= kSinkMark; });
    std::size_t next = 0;
    if (sinks > 0) {
        // The one after the selected head in the ranking, round the sinks.
        for (std::size_t k = 0; k < static_cast<std::size_t>(sinks); ++k)
            if (selection_.focus == ModelFocus::Head && heads[k].layer == selection_.layer &&
                heads[k].head == selection_.head)
                next = (k + 1) % static_cast<std::size_t>(sinks);
    }
    const Share& s = heads[next];
    selectHead(s.layer, s.head);
    const QString share = QString::number(100.0 * s.share, 'f', 0);
    if (sinks > 0)
        Q_EMIT noticed(tr("Layer %1, head %2 puts %3 % of its attention on the first token "
                          "(attention sink %4 of %5).")
                           .arg(s.layer + 1)
                           .arg(s.head + 1)
                           .arg(share)
                           .arg(next + 1)
                           .arg(sinks));
    else
        Q_EMIT noticed(tr("No head puts half of its attention on the first token; layer %1, "
                          "head %2 comes closest with %3 %.")
                           .arg(s.layer + 1)
                           .arg(s.head + 1)
                           .arg(share));
    return true;
}

QString ModelDocument::focusTitle() const
{
    return modelMapName(selection_.layer, selection_.column(heads()), heads());
}

int ModelDocument::findToken(const QString& word, bool last) const
{
    if (!snapshot()) return -1;
    const QString want = word.toLower();
    const bool cjk = !want.isEmpty() && want.at(0).script() == QChar::Script_Han;
    int found = -1;
    for (int i = 0; i < snapshot()->labels.size(); ++i) {
        QString t = snapshot()->labels[i].toLower();
        t.remove(QChar(0x2423));  // GPT-2's leading space mark
        if (t.startsWith(QLatin1String("##"))) t = t.mid(2);
        if (t.isEmpty()) continue;
        if (t == want || (cjk && want.startsWith(t))) {
            found = i;
            if (!last) break;
        }
    }
    return found;
}

bool ModelDocument::selectStrongestHead(const QStringList& queries, const QStringList& keys)
{
    if (!snapshot()) return false;
    for (const QString& q : queries) {
        const int query = findToken(q, true);
        if (query < 0) continue;
        for (const QString& k : keys) {
            const int key = findToken(k, false);
            if (key < 0) continue;
            const attn::model::HeadWeight best =
                attn::model::strongestHead(snapshot()->result.layers, query, key);
            if (best.layer < 0) continue;
            ModelSelection s = selection_;
            s.layer = best.layer;
            s.head = best.head;
            s.focus = ModelFocus::Head;
            s.query = query;
            setSelection(s);
            Q_EMIT noticed(tr("Layer %1, head %2: “%3” gives “%4” the weight %5, the most of any "
                              "head. Right-click “%4” in the map to double or halve its key.")
                               .arg(best.layer + 1)
                               .arg(best.head + 1)
                               .arg(snapshot()->labels[query], snapshot()->labels[key])
                               .arg(static_cast<double>(best.weight), 0, 'f', 3));
            return true;
        }
    }
    return false;
}

}  // namespace attnlab
