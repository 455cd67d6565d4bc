// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/support/bad_sessions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

#include "ui/readers/session.h"
#include "ui/readers/session_file.h"

namespace attnlab::testing {

namespace {

QByteArray goodJson()
{
    return sessionToJson(SessionFile{defaultSession(), {}});
}

// The good file with one change made through QJsonDocument.
QByteArray edited(const std::function<void(QJsonObject&)>& change)
{
    QJsonObject root = QJsonDocument::fromJson(goodJson()).object();
    change(root);
    return QJsonDocument(root).toJson();
}

// Sets root[a][b] (or root[a] when b is empty) to v.
QByteArray withValue(const char* a, const char* b, const QJsonValue& v)
{
    return edited([&](QJsonObject& root) {
        if (!*b) {
            root[QLatin1String(a)] = v;
            return;
        }
        QJsonObject o = root[QLatin1String(a)].toObject();
        o[QLatin1String(b)] = v;
        root[QLatin1String(a)] = o;
    });
}

// An array of arrays. Not QJsonArray{QJsonArray{...}}: with one element of its own type, clang
// copies the inner array there (CWG 1467) where GCC nests it.
QJsonArray rows(std::initializer_list<QJsonArray> list)
{
    QJsonArray a;
    for (const QJsonArray& r : list) a.append(r);
    return a;
}

// The good file as version 3 with `rope` as options.rope, and `more` changed after.
QByteArray withRope(const QJsonObject& rope, const std::function<void(QJsonObject&)>& more = {})
{
    return edited([&](QJsonObject& r) {
        r[QLatin1String("version")] = 3;
        QJsonObject o = r[QLatin1String("options")].toObject();
        o[QLatin1String("rope")] = rope;
        r[QLatin1String("options")] = o;
        if (more) more(r);
    });
}

const QJsonObject kGoodRope{{QStringLiteral("theta"), 10000.0}};

const std::vector<BadSessionFile> kBadFiles = {
    {"not_json", [] { return QByteArray("this is not JSON"); }, "", "not valid JSON"},
    {"empty", [] { return QByteArray(); }, "", "not valid JSON"},
    {"truncated", [] { return goodJson().left(200); }, "", "not valid JSON"},
    {"array_root", [] { return QByteArray("[1, 2]"); }, "", "one JSON object"},
    {"wrong_tag", [] { return withValue("format", "", QStringLiteral("tiled-map")); }, "format",
     "not an AttnLab session"},
    {"no_tag", [] { return edited([](QJsonObject& r) { r.remove(QLatin1String("format")); }); },
     "format", "missing"},
    {"newer_version", [] { return withValue("version", "", 4); }, "version", "newer AttnLab"},
    // Rotary positions: a version 3 field, each parameter checked, and what the core refuses.
    {"rope_in_version_2",
     [] { return withRope(kGoodRope, [](QJsonObject& r) { r[QLatin1String("version")] = 2; }); },
     "options.rope", "not a field of this format version"},
    {"rope_without_theta",
     [] {
         return withRope({{QStringLiteral("scaling"), QStringLiteral("none")}});
     },
     "options.rope.theta", "missing"},
    {"rope_theta_zero",
     [] {
         return withRope({{QStringLiteral("theta"), 0.0}});
     },
     "options.rope.theta", "above 0"},
    {"rope_theta_text",
     [] {
         return withRope({{QStringLiteral("theta"), QStringLiteral("10000")}});
     },
     "options.rope.theta", "number"},
    {"rope_unknown_scaling",
     [] {
         return withRope({{QStringLiteral("theta"), 10000.0},
                          {QStringLiteral("scaling"), QStringLiteral("yarn")}});
     },
     "options.rope.scaling", "\"llama3\""},
    {"rope_factor_below_one",
     [] {
         return withRope({{QStringLiteral("theta"), 10000.0},
                          {QStringLiteral("scaling"), QStringLiteral("linear")},
                          {QStringLiteral("factor"), 0.5}});
     },
     "options.rope.factor", "at least 1"},
    {"rope_high_not_above_low",
     [] {
         return withRope({{QStringLiteral("theta"), 10000.0},
                          {QStringLiteral("low_freq_factor"), 4.0},
                          {QStringLiteral("high_freq_factor"), 2.0}});
     },
     "options.rope.high_freq_factor", "above low_freq_factor"},
    {"rope_unknown_field",
     [] {
         return withRope({{QStringLiteral("theta"), 10000.0}, {QStringLiteral("beta"), 1.0}});
     },
     "options.rope.beta", "not a field"},
    {"rope_with_odd_d_k", [] { return withRope(kGoodRope); }, "projections.d_k", "even"},
    {"rope_with_additive_scoring",
     [] {
         return withRope(kGoodRope, [](QJsonObject& r) {
             QJsonObject o = r[QLatin1String("options")].toObject();
             o[QLatin1String("score")] = QStringLiteral("additive");
             r[QLatin1String("options")] = o;
         });
     },
     "options.score", "dot-product"},
    // Version 2 fields in a version 1 file, and bad version 2 fields.
    {"bias_in_version_1",
     [] {
         return withValue("projections", "b_Q", rows({QJsonArray{1.0, 2.0, 3.0}}));
     },
     "projections.b_Q", "not a field of this format version"},
    {"provenance_in_version_1", [] { return withValue("provenance", "", QJsonObject{}); },
     "provenance", "not a field of this format version"},
    {"bias_of_the_wrong_length",
     [] {
         return edited([](QJsonObject& r) {
             r[QLatin1String("version")] = 2;
             QJsonObject p = r[QLatin1String("projections")].toObject();
             p[QLatin1String("b_K")] = rows({QJsonArray{1.0, 2.0}});
             r[QLatin1String("projections")] = p;
         });
     },
     "projections.b_K[1]", "3 numbers but has 2"},
    {"provenance_with_a_bad_hash",
     [] {
         return edited([](QJsonObject& r) {
             r[QLatin1String("version")] = 2;
             r[QLatin1String("provenance")] =
                 QJsonObject{{QStringLiteral("model_folder"), QStringLiteral("/models/gpt2")},
                             {QStringLiteral("safetensors_sha256"), QStringLiteral("1234")},
                             {QStringLiteral("model_type"), QStringLiteral("gpt2")},
                             {QStringLiteral("layer"), 0},
                             {QStringLiteral("head"), 0},
                             {QStringLiteral("text"), QStringLiteral("hi")}};
         });
     },
     "provenance.safetensors_sha256", "64 lower-case hexadecimal"},
    {"provenance_of_an_unknown_model",
     [] {
         return edited([](QJsonObject& r) {
             r[QLatin1String("version")] = 2;
             r[QLatin1String("provenance")] =
                 QJsonObject{{QStringLiteral("model_folder"), QStringLiteral("/models/x")},
                             {QStringLiteral("safetensors_sha256"), QString(64, QLatin1Char('a'))},
                             {QStringLiteral("model_type"), QStringLiteral("t5")},
                             {QStringLiteral("layer"), 0},
                             {QStringLiteral("head"), 0},
                             {QStringLiteral("text"), QStringLiteral("hi")}};
         });
     },
     "provenance.model_type", "gpt2, bert, llama, mistral, qwen2, qwen3"},
    {"missing_field",
     [] {
         return edited([](QJsonObject& r) {
             QJsonObject o = r[QLatin1String("options")].toObject();
             o.remove(QLatin1String("temperature"));
             r[QLatin1String("options")] = o;
         });
     },
     "options.temperature", "missing"},
    {"extra_field", [] { return withValue("options", "colour", true); }, "options.colour",
     "not a field"},
    {"extra_top_field", [] { return withValue("comment", "", QStringLiteral("hi")); }, "comment",
     "not a field"},
    {"wrong_shape",
     [] {
         return withValue("projections", "W_Q",
                          rows({rows({QJsonArray{1.0, 2.0, 3.0}, QJsonArray{1.0, 2.0, 3.0}})}));
     },
     "projections.W_Q[1]", "3 rows"},
    {"ragged",
     [] {
         return withValue("target", "embeddings",
                          rows({QJsonArray{1.0, 0.0, 1.0}, QJsonArray{0.0, 2.0},
                                QJsonArray{1.0, 1.0, 0.0}, QJsonArray{0.0, 1.0, 1.0}}));
     },
     "target.embeddings[2]", "same length"},
    {"text_number",
     [] {
         return withValue(
             "target", "embeddings",
             rows({QJsonArray{QStringLiteral("1"), 0.0, 1.0}, QJsonArray{0.0, 2.0, 0.0},
                   QJsonArray{1.0, 1.0, 0.0}, QJsonArray{0.0, 1.0, 1.0}}));
     },
     "target.embeddings[1][1]", "number"},
    {"null_number",
     [] { return withValue("options", "temperature", QJsonValue(QJsonValue::Null)); },
     "options.temperature", "number"},
    {"huge_number",
     [] {
         QByteArray b = goodJson();
         return b.replace("\"temperature\": 1.0", "\"temperature\": 1e999");
     },
     "options.temperature", "not valid JSON"},
    {"tiny_number",  // would read as 0, which the file does not say
     [] {
         QByteArray b = goodJson();
         return b.replace("\"temperature\": 1.0", "\"temperature\": 1e-400");
     },
     "options.temperature", "out of the range of a double"},
    {"tokens_rows_differ",
     [] {
         return withValue(
             "target", "tokens",
             QJsonArray{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
     },
     "target.embeddings", "one row per token"},
    {"no_tokens", [] { return withValue("target", "tokens", QJsonArray{}); }, "target.tokens",
     "at least one token"},
    {"numeric_mask",
     [] {
         return withValue("options", "mask",
                          rows({QJsonArray{1, 0, 0, 0}, QJsonArray{1, 1, 0, 0},
                                QJsonArray{1, 1, 1, 0}, QJsonArray{1, 1, 1, 1}}));
     },
     "options.mask[1][1]", "true or false"},
    {"mask_shape", [] { return withValue("options", "mask", rows({QJsonArray{true}})); },
     "options.mask", "4 rows"},
    {"bad_mode", [] { return withValue("options", "mode", QStringLiteral("sideways")); },
     "options.mode", "\"causal\""},
    {"bad_temperature",
     [] {
         return edited([](QJsonObject& r) {
             QJsonObject o = r[QLatin1String("options")].toObject();
             o[QLatin1String("scaling")] = QStringLiteral("temperature");
             o[QLatin1String("temperature")] = 0.0;
             r[QLatin1String("options")] = o;
         });
     },
     "options.temperature", "greater than 0"},
    {"edit_out_of_range",
     [] {
         QJsonObject e{{QStringLiteral("role"), QStringLiteral("key")},
                       {QStringLiteral("head"), 5},
                       {QStringLiteral("index"), 0}};
         return withValue("edits", "", QJsonArray{e});
     },
     "edits[1]", "does not exist"},
    // Two edits of one vector: applying the first twice (value scaled by 0.25) was the bug.
    {"two_edits_of_one_vector",
     [] {
         QJsonObject first{{QStringLiteral("role"), QStringLiteral("value")},
                           {QStringLiteral("head"), 0},
                           {QStringLiteral("index"), 0},
                           {QStringLiteral("scale"), 0.5}};
         QJsonObject second = first;
         second[QStringLiteral("overrides")] = QJsonArray{
             QJsonObject{{QStringLiteral("component"), 0}, {QStringLiteral("value"), -0.95}}};
         return withValue("edits", "", QJsonArray{first, second});
     },
     "edits[2]", "value 1 of head 1"},
    // One component set twice in one edit: which value holds would depend on the order.
    {"override_twice",
     [] {
         QJsonObject e{{QStringLiteral("role"), QStringLiteral("key")},
                       {QStringLiteral("head"), 0},
                       {QStringLiteral("index"), 0}};
         e[QStringLiteral("overrides")] = QJsonArray{
             QJsonObject{{QStringLiteral("component"), 1}, {QStringLiteral("value"), 0.5}},
             QJsonObject{{QStringLiteral("component"), 1}, {QStringLiteral("value"), -2.0}}};
         return withValue("edits", "", QJsonArray{e});
     },
     "edits[1].overrides", "component 2 twice"},
    {"fractional_head", [] { return withValue("view", "head", 0.5); }, "view.head", "whole number"},
    // A width declared without the numbers that would back it: switching to additive scoring
    // would draw 2^24 x d_k numbers per head (2 GB, and seconds of frozen window).
    {"declared_width_without_data",
     [] {
         return edited([](QJsonObject& r) {
             QJsonObject p = r[QLatin1String("projections")].toObject();
             p[QLatin1String("additive")] =
                 QJsonObject{{QStringLiteral("d_a"), 16777216},
                             {QStringLiteral("W_a"), rows({QJsonArray{}})},
                             {QStringLiteral("U_a"), rows({QJsonArray{}})},
                             {QStringLiteral("v"), rows({QJsonArray{}})}};
             r[QLatin1String("projections")] = p;
         });
     },
     "projections.additive.d_a", "at most 1024"},
    // Two heads of 30,000 x 30,000 weights: even the long path (float, only the weights kept)
    // would need 6.7 GiB. (One head of 20,000 fits it, and opens in the long-session window.)
    {"too_large_for_memory",
     [] {
         Session s = defaultSession();
         s.dModel = 1;
         s.targetTokens = QStringList(30000, QStringLiteral("t"));
         s.input.X = attn::Matrix::Constant(30000, 1, 0.5);
         s.input.edits.clear();
         s.input.mask.reset();
         s.sourceTokens.clear();
         s.input.Y.resize(0, 1);
         randomiseProjections(s, 2, 1, 1, 1);
         return sessionToJson(SessionFile{s, {}});
     },
     "", "MiB of memory"},
    {"duplicate_top_key",
     [] { return goodJson().replace("\"seed\": 1,", "\"seed\": 1, \"seed\": 2,"); }, "seed",
     "twice"},
    {"duplicate_nested_key",
     [] {
         return goodJson().replace("\"mode\": \"self\",", "\"mode\": \"self\", \"m\\u006fde\": 1,");
     },
     "options.mode", "twice"},
    {"too_deep",
     [] {
         return QByteArray("{\"format\": \"attnlab-session\", \"version\": 1, \"x\": ") +
                QByteArray(70, '[') + QByteArray(70, ']') + "}";
     },
     "x[1][1]", "64 levels"},
    {"invalid_utf8", [] { return goodJson().replace("\"cat\"", "\"c\xC3\x28t\""); }, "",
     "not valid UTF-8"},
    {"utf16_bom",
     [] {
         const QString text = QString::fromUtf8(goodJson());
         QByteArray b("\xFF\xFE");
         b.append(reinterpret_cast<const char*>(text.utf16()), text.size() * 2);
         return b;
     },
     "", "UTF-16"},
};

}  // namespace

void PrintTo(const BadSessionFile& file, std::ostream* os)
{
    *os << file.name;
}

const std::vector<BadSessionFile>& badSessionFiles()
{
    return kBadFiles;
}

}  // namespace attnlab::testing
