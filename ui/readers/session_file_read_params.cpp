// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the projections, rotary positions, edits, view state and seed of a session file.

#include <algorithm>
#include <functional>

#include <QRegularExpression>

#include "ui/readers/session_format.h"
#include "ui/readers/session_reader.h"

namespace attnlab::sessionio {

namespace {

bool readPerHead(Reader& r, const JObject& o, const QString& path, const char* key, long heads,
                 long rows, long cols, bool allowEmpty,
                 const std::function<attn::Matrix&(attn::HeadParams&)>& slot,
                 std::vector<attn::HeadParams>& params)
{
    const QString p = member(path, key);
    JArray list;
    if (!r.array(o[QLatin1String(key)], p, list)) return false;
    if (list.size() != heads)
        return r.fail(p, SessionReaderTr::tr("should have one matrix per head (%1) but has %2.")
                             .arg(heads)
                             .arg(list.size()));
    for (long h = 0; h < heads; ++h) {
        if (!r.matrix(list[h], element(p, h), rows, cols, allowEmpty, slot(params[h])))
            return false;
    }
    return true;
}

// An optional list of one bias vector per head (each `size` numbers, or [] for none).
bool readPerHeadBias(Reader& r, const JObject& o, const QString& path, const char* key, long heads,
                     long size, const std::function<attn::Vector&(attn::HeadParams&)>& slot,
                     std::vector<attn::HeadParams>& params)
{
    if (!o.contains(QLatin1String(key))) return true;
    const QString p = member(path, key);
    JArray list;
    if (!r.array(o[QLatin1String(key)], p, list)) return false;
    if (list.size() != heads)
        return r.fail(p, SessionReaderTr::tr("should have one vector per head (%1) but has %2.")
                             .arg(heads)
                             .arg(list.size()));
    for (long h = 0; h < heads; ++h) {
        if (!r.vector(list[h], element(p, h), size, slot(params[static_cast<std::size_t>(h)])))
            return false;
    }
    return true;
}

}  // namespace

bool readProjections(Reader& r, const Json& v, long version, Session& s)
{
    const QString path = QStringLiteral("projections");
    JObject o;
    const Keys required = {"heads", "d_k", "d_v", "W_Q", "W_K", "W_V", "W_O", "additive"};
    if (!r.object(v, path, required, version >= 2 ? Keys{"b_Q", "b_K", "b_V"} : Keys{}, o))
        return false;
    long heads = 0, dk = 0, dv = 0, da = 0;
    if (!r.integer(o[QLatin1String("heads")], member(path, "heads"), 1, 1024, heads) ||
        !r.integer(o[QLatin1String("d_k")], member(path, "d_k"), 1, kMaxCount, dk) ||
        !r.integer(o[QLatin1String("d_v")], member(path, "d_v"), 1, kMaxCount, dv))
        return false;
    std::vector<attn::HeadParams> params(static_cast<std::size_t>(heads));
    const long d = s.dModel;
    const bool shared = s.input.sharedProjections;
    using HP = attn::HeadParams;
    if (!readPerHead(
            r, o, path, "W_Q", heads, d, dk, false, [](HP& p) -> attn::Matrix& { return p.W_Q; },
            params) ||
        !readPerHead(
            r, o, path, "W_K", heads, d, dk, shared, [](HP& p) -> attn::Matrix& { return p.W_K; },
            params) ||
        !readPerHead(
            r, o, path, "W_V", heads, d, dv, shared, [](HP& p) -> attn::Matrix& { return p.W_V; },
            params) ||
        !r.matrix(o[QLatin1String("W_O")], member(path, "W_O"), heads * dv, d, true, s.input.W_O) ||
        !readPerHeadBias(
            r, o, path, "b_Q", heads, dk, [](HP& p) -> attn::Vector& { return p.b_Q; }, params) ||
        !readPerHeadBias(
            r, o, path, "b_K", heads, dk, [](HP& p) -> attn::Vector& { return p.b_K; }, params) ||
        !readPerHeadBias(
            r, o, path, "b_V", heads, dv, [](HP& p) -> attn::Vector& { return p.b_V; }, params))
        return false;
    const QString addPath = member(path, "additive");
    JObject add;
    if (!r.object(o[QLatin1String("additive")], addPath, {"d_a", "W_a", "U_a", "v"}, {}, add) ||
        !r.integer(add[QLatin1String("d_a")], member(addPath, "d_a"), 0, kMaxCount, da) ||
        !readPerHead(
            r, add, addPath, "W_a", heads, da, dk, true,
            [](HP& p) -> attn::Matrix& { return p.additive.W_a; }, params) ||
        !readPerHead(
            r, add, addPath, "U_a", heads, da, dk, true,
            [](HP& p) -> attn::Matrix& { return p.additive.U_a; }, params))
        return false;
    const QString vPath = member(addPath, "v");
    JArray vs;
    if (!r.array(add[QLatin1String("v")], vPath, vs)) return false;
    if (vs.size() != heads)
        return r.fail(vPath, SessionReaderTr::tr("should have one vector per head (%1) but has %2.")
                                 .arg(heads)
                                 .arg(vs.size()));
    for (long h = 0; h < heads; ++h) {
        if (!r.vector(vs[h], element(vPath, h), da, params[static_cast<std::size_t>(h)].additive.v))
            return false;
    }
    // A size must come with its numbers: d_a without additive parameters would only be drawn
    // when additive scoring is switched on (d_a x d_k per head, 2 GB for a d_a of 2^24).
    const bool empty = std::any_of(params.begin(), params.end(), [](const attn::HeadParams& p) {
        return p.additive.v.size() == 0;
    });
    if (empty && da > kMaxDeclaredWidth)
        return r.fail(
            member(addPath, "d_a"),
            SessionReaderTr::tr("is %1, but some heads have no additive parameters; without them "
                                "d_a may be at most %2.")
                .arg(da)
                .arg(kMaxDeclaredWidth));
    s.input.heads = std::move(params);
    s.dAdditive = static_cast<int>(da);
    return true;
}

bool readEdits(Reader& r, const Json& v, std::vector<attn::VectorEdit>& out)
{
    const QString path = QStringLiteral("edits");
    JArray list;
    if (!r.array(v, path, list)) return false;
    out.clear();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString p = element(path, i);
        JObject o;
        attn::VectorEdit e;
        long head = 0, index = 0;
        if (!r.object(list[i], p, {"role", "head", "index"}, {"scale", "overrides"}, o) ||
            !r.choice(o[QLatin1String("role")], member(p, "role"), &roleFromName,
                      "\"query\", \"key\", \"value\"", e.role) ||
            !r.integer(o[QLatin1String("head")], member(p, "head"), 0, kMaxCount, head) ||
            !r.integer(o[QLatin1String("index")], member(p, "index"), 0, kMaxCount, index))
            return false;
        e.head = static_cast<int>(head);
        e.index = static_cast<int>(index);
        if (o.contains(QLatin1String("scale")) &&
            !r.number(o[QLatin1String("scale")], member(p, "scale"), e.scale))
            return false;
        JArray ovs;
        const QString ovPath = member(p, "overrides");
        if (o.contains(QLatin1String("overrides")) &&
            !r.array(o[QLatin1String("overrides")], ovPath, ovs))
            return false;
        for (qsizetype k = 0; k < ovs.size(); ++k) {
            const QString op = element(ovPath, k);
            JObject ov;
            long component = 0;
            attn::ComponentOverride c;
            if (!r.object(ovs[k], op, {"component", "value"}, {}, ov) ||
                !r.integer(ov[QLatin1String("component")], member(op, "component"), 0, kMaxCount,
                           component) ||
                !r.number(ov[QLatin1String("value")], member(op, "value"), c.value))
                return false;
            c.component = static_cast<int>(component);
            e.overrides.push_back(c);
        }
        out.push_back(std::move(e));
    }
    return true;
}

bool readView(Reader& r, const Json& v, ViewState& view)
{
    const QString path = QStringLiteral("view");
    JObject o;
    if (!r.object(v, path, {}, {"head", "row", "column", "color_range"}, o)) return false;
    long head = 0, row = 0, column = 0;
    const auto opt = [&](const char* k, long& out) {
        return !o.contains(QLatin1String(k)) ||
               r.integer(o[QLatin1String(k)], member(path, k), 0, kMaxCount, out);
    };
    if (!opt("head", head) || !opt("row", row) || !opt("column", column)) return false;
    view.head = static_cast<int>(head);
    view.row = static_cast<int>(row);
    view.column = static_cast<int>(column);
    view.colors = WeightColors::Fixed;
    if (o.contains(QLatin1String("color_range"))) {
        QString range;
        const QString p = member(path, "color_range");
        if (!r.string(o[QLatin1String("color_range")], p, range)) return false;
        if (!colorsFromKey(range, view.colors))
            return r.fail(
                p, SessionReaderTr::tr("is \"%1\"; it should be \"fixed\", \"data\", \"row\" or "
                                       "\"log\".")
                       .arg(range));
    }
    return true;
}

bool readProvenance(Reader& r, const Json& v, ModelProvenance& out)
{
    const QString path = QStringLiteral("provenance");
    JObject o;
    ModelProvenance p;
    long layer = 0, head = 0;
    if (!r.object(v, path,
                  {"model_folder", "safetensors_sha256", "model_type", "layer", "head", "text"}, {},
                  o) ||
        !r.string(o[QLatin1String("model_folder")], member(path, "model_folder"), p.folder) ||
        !r.string(o[QLatin1String("safetensors_sha256")], member(path, "safetensors_sha256"),
                  p.sha256) ||
        !r.string(o[QLatin1String("model_type")], member(path, "model_type"), p.modelType) ||
        !r.integer(o[QLatin1String("layer")], member(path, "layer"), 0, 4096, layer) ||
        !r.integer(o[QLatin1String("head")], member(path, "head"), 0, 4096, head) ||
        !r.string(o[QLatin1String("text")], member(path, "text"), p.text))
        return false;
    if (p.folder.isEmpty())
        return r.fail(member(path, "model_folder"), SessionReaderTr::tr("is empty."));
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (!hex.match(p.sha256).hasMatch())
        return r.fail(
            member(path, "safetensors_sha256"),
            SessionReaderTr::tr("should be 64 lower-case hexadecimal digits (a SHA-256)."));
    static const QStringList types{QStringLiteral("gpt2"),  QStringLiteral("bert"),
                                   QStringLiteral("llama"), QStringLiteral("mistral"),
                                   QStringLiteral("qwen2"), QStringLiteral("qwen3")};
    if (!types.contains(p.modelType))
        return r.fail(member(path, "model_type"),
                      SessionReaderTr::tr("is \"%1\"; it should be one of %2.")
                          .arg(p.modelType, types.join(QStringLiteral(", "))));
    p.layer = static_cast<int>(layer);
    p.head = static_cast<int>(head);
    out = std::move(p);
    return true;
}

bool readRope(Reader& r, const Json& v, attn::Rope& out)
{
    const QString path = QStringLiteral("options.rope");
    JObject o;
    if (!r.object(v, path, {"theta"},
                  {"scaling", "factor", "low_freq_factor", "high_freq_factor",
                   "original_max_position_embeddings"},
                  o))
        return false;
    attn::Rope rope;
    // Each number is read only when present (Rope's defaults otherwise) and must be above its
    // bound, or equal to it when `orEqual`.
    const auto positive = [&](const char* key, double bound, bool orEqual, const QString& rule,
                              double& value) {
        if (!o.contains(QLatin1String(key))) return true;
        const QString at = member(path, key);
        if (!r.number(o[QLatin1String(key)], at, value)) return false;
        const bool fits = orEqual ? value >= bound : value > bound;
        return fits || r.fail(at, rule);
    };
    if (!positive("theta", 0.0, false, SessionReaderTr::tr("should be a number above 0."),
                  rope.theta))
        return false;
    if (o.contains(QLatin1String("scaling")) &&
        !r.choice(o[QLatin1String("scaling")], member(path, "scaling"), &ropeScalingFromName,
                  "\"none\", \"linear\", \"llama3\"", rope.scaling))
        return false;
    if (!positive("factor", 1.0, true, SessionReaderTr::tr("should be a number of at least 1."),
                  rope.factor) ||
        !positive("low_freq_factor", 0.0, false, SessionReaderTr::tr("should be a number above 0."),
                  rope.lowFreqFactor) ||
        !positive("original_max_position_embeddings", 0.0, false,
                  SessionReaderTr::tr("should be a number above 0."), rope.originalPositions))
        return false;
    if (!positive("high_freq_factor", rope.lowFreqFactor, false,
                  SessionReaderTr::tr("should be a number above low_freq_factor (%1).")
                      .arg(rope.lowFreqFactor),
                  rope.highFreqFactor))
        return false;
    out = rope;
    return true;
}

bool readSeed(Reader& r, const Json& v, quint64& seed)
{
    const QString path = QStringLiteral("seed");
    if (v.is_string()) {
        bool ok = false;
        seed = QString::fromStdString(v.get_ref<const std::string&>()).toULongLong(&ok);
        return ok ||
               r.fail(path, SessionReaderTr::tr("should be a whole number from 0 to 2^64 − 1."));
    }
    double d = 0.0;
    if (!r.number(v, path, d)) return false;
    if (std::floor(d) != d || d < 0.0 || d > static_cast<double>(kMaxExactSeed))
        return r.fail(
            path, SessionReaderTr::tr("should be a whole number from 0 to 2^53 (larger seeds are "
                                      "written as text)."));
    seed = static_cast<quint64>(d);
    return true;
}

}  // namespace attnlab::sessionio
