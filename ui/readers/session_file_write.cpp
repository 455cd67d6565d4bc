// SPDX-License-Identifier: GPL-3.0-or-later
// Writing session files: hand-made JSON so that each matrix row sits on one line (the file
// stays readable and diffable) and every double is written shortest-round-trip
// (std::to_chars), always with a '.' or an exponent so that readers take it as a double.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>

#include "core/rope.h"
#include "ui/readers/session_file.h"
#include "ui/readers/session_format.h"

namespace attnlab {

namespace {

class Writer {
public:
    QByteArray text;

    void open(char c)
    {
        text += c;
        ++depth_;
        first_ = true;
    }
    void close(char c)
    {
        --depth_;
        if (!first_) newline();
        text += c;
        first_ = false;
    }
    // Starts a member "name": (or an array element when name is null) on its own line.
    void item(const char* name = nullptr)
    {
        if (!first_) text += ',';
        newline();
        first_ = false;
        if (name) {
            text += '"';
            text += name;
            text += "\": ";
        }
    }
    void number(double v) { text += jsonNumber(v); }
    void integer(long long v) { text += QByteArray::number(v); }
    void boolean(bool v) { text += v ? "true" : "false"; }
    void string(const QString& s) { text += jsonString(s); }
    // A vector on one line.
    void row(const double* data, long n)
    {
        text += '[';
        for (long j = 0; j < n; ++j) {
            if (j) text += ", ";
            number(data[j]);
        }
        text += ']';
    }
    // A matrix as a list of rows, one row per line; [] when it has no rows.
    void matrix(const attn::Matrix& m)
    {
        if (m.rows() == 0) {
            text += "[]";
            return;
        }
        open('[');
        for (long i = 0; i < m.rows(); ++i) {
            item();
            row(m.row(i).data(), m.cols());
        }
        close(']');
    }
    void tokens(const QStringList& list)
    {
        text += '[';
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (i) text += ", ";
            string(list[i]);
        }
        text += ']';
    }

private:
    void newline()
    {
        text += '\n';
        text += QByteArray(4 * depth_, ' ');
    }
    int depth_ = 0;
    bool first_ = true;
};

// One entry per head: a matrix (one row per line) or a vector (on one line; [] when empty).
template <typename Get>
void perHead(Writer& w, const char* name, const std::vector<attn::HeadParams>& heads, Get get)
{
    w.item(name);
    w.open('[');
    for (const attn::HeadParams& p : heads) {
        w.item();
        const auto& value = get(p);
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, attn::Vector>)
            w.row(value.data(), value.size());
        else
            w.matrix(value);
    }
    w.close(']');
}

bool hasBiases(const std::vector<attn::HeadParams>& heads)
{
    return std::any_of(heads.begin(), heads.end(), [](const attn::HeadParams& p) {
        return p.b_Q.size() != 0 || p.b_K.size() != 0 || p.b_V.size() != 0;
    });
}

void provenance(Writer& w, const ModelProvenance& p)
{
    w.item("provenance");
    w.open('{');
    w.item("model_folder");
    w.string(p.folder);
    w.item("safetensors_sha256");
    w.string(p.sha256);
    w.item("model_type");
    w.string(p.modelType);
    w.item("layer");
    w.integer(p.layer);
    w.item("head");
    w.integer(p.head);
    w.item("text");
    w.string(p.text);
    w.close('}');
}

void sequence(Writer& w, const char* name, const QStringList& tokens, const attn::Matrix& m)
{
    w.item(name);
    w.open('{');
    w.item("tokens");
    w.tokens(tokens);
    w.item("embeddings");
    w.matrix(m);
    w.close('}');
}

void projections(Writer& w, const Session& s)
{
    const attn::AttentionInput& in = s.input;
    w.item("projections");
    w.open('{');
    w.item("heads");
    w.integer(static_cast<long long>(in.heads.size()));
    w.item("d_k");
    w.integer(in.heads.empty() ? 0 : in.heads.front().W_Q.cols());
    w.item("d_v");
    w.integer(in.heads.empty() ? 0 : in.heads.front().W_V.cols());
    perHead(w, "W_Q", in.heads, [](const attn::HeadParams& p) { return p.W_Q; });
    perHead(w, "W_K", in.heads, [](const attn::HeadParams& p) { return p.W_K; });
    perHead(w, "W_V", in.heads, [](const attn::HeadParams& p) { return p.W_V; });
    if (hasBiases(in.heads)) {
        perHead(w, "b_Q", in.heads, [](const attn::HeadParams& p) { return p.b_Q; });
        perHead(w, "b_K", in.heads, [](const attn::HeadParams& p) { return p.b_K; });
        perHead(w, "b_V", in.heads, [](const attn::HeadParams& p) { return p.b_V; });
    }
    w.item("W_O");
    w.matrix(in.W_O);
    w.item("additive");
    w.open('{');
    w.item("d_a");
    w.integer(s.dAdditive);
    perHead(w, "W_a", in.heads, [](const attn::HeadParams& p) { return p.additive.W_a; });
    perHead(w, "U_a", in.heads, [](const attn::HeadParams& p) { return p.additive.U_a; });
    perHead(w, "v", in.heads, [](const attn::HeadParams& p) { return p.additive.v; });
    w.close('}');
    w.close('}');
}

void options(Writer& w, const attn::AttentionInput& in)
{
    w.item("options");
    w.open('{');
    w.item("mode");
    w.string(modeName(in.mode));
    w.item("scaling");
    w.string(scalingName(in.scaling));
    w.item("temperature");
    w.number(in.temperature);
    w.item("score");
    w.string(scoreName(in.score));
    w.item("shared_projections");
    w.boolean(in.sharedProjections);
    if (in.rope) {
        // Every parameter, whatever the scaling uses, so that the file reads back exactly.
        const attn::Rope& rope = *in.rope;
        w.item("rope");
        w.open('{');
        w.item("theta");
        w.number(rope.theta);
        w.item("scaling");
        w.string(QLatin1String(attn::ropeScalingName(rope.scaling)));
        w.item("factor");
        w.number(rope.factor);
        w.item("low_freq_factor");
        w.number(rope.lowFreqFactor);
        w.item("high_freq_factor");
        w.number(rope.highFreqFactor);
        w.item("original_max_position_embeddings");
        w.number(rope.originalPositions);
        w.close('}');
    }
    if (in.mask) {
        w.item("mask");
        w.open('[');
        for (long i = 0; i < in.mask->rows(); ++i) {
            w.item();
            w.text += '[';
            for (long j = 0; j < in.mask->cols(); ++j) {
                if (j) w.text += ", ";
                w.boolean((*in.mask)(i, j));
            }
            w.text += ']';
        }
        w.close(']');
    }
    w.close('}');
}

void edits(Writer& w, const std::vector<attn::VectorEdit>& list)
{
    w.item("edits");
    w.open('[');
    for (const attn::VectorEdit& e : list) {
        w.item();
        w.text += "{\"role\": ";
        w.string(roleName(e.role));
        w.text += ", \"head\": ";
        w.integer(e.head);
        w.text += ", \"index\": ";
        w.integer(e.index);
        w.text += ", \"scale\": ";
        w.number(e.scale);
        w.text += ", \"overrides\": [";
        for (std::size_t k = 0; k < e.overrides.size(); ++k) {
            if (k) w.text += ", ";
            w.text += "{\"component\": ";
            w.integer(e.overrides[k].component);
            w.text += ", \"value\": ";
            w.number(e.overrides[k].value);
            w.text += '}';
        }
        w.text += "]}";
    }
    w.close(']');
}

}  // namespace

QByteArray jsonNumber(double v)
{
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    QByteArray out(buf, static_cast<qsizetype>(res.ptr - buf));
    if (std::isfinite(v) && !out.contains('.') && !out.contains('e')) out += ".0";
    return out;
}

QByteArray jsonString(const QString& s)
{
    QByteArray out = "\"";
    for (const char c : s.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20) {
            out += "\\u00";
            out += QByteArray::number(u, 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

int sessionFormatVersion(const Session& session)
{
    if (session.input.rope) return 3;
    return hasBiases(session.input.heads) || session.provenance ? 2 : 1;
}

QByteArray sessionToJson(const SessionFile& file)
{
    const Session& s = file.session;
    Writer w;
    w.open('{');
    w.item("format");
    w.string(QLatin1String(kSessionFormatTag));
    w.item("version");
    w.integer(sessionFormatVersion(s));
    w.item("seed");
    if (s.seed <= kMaxExactSeed)
        w.integer(static_cast<long long>(s.seed));
    else
        w.string(QString::number(s.seed));
    w.item("d_model");
    w.integer(s.dModel);
    sequence(w, "target", s.targetTokens, s.input.X);
    if (!s.sourceTokens.isEmpty() || s.input.Y.rows() > 0)
        sequence(w, "source", s.sourceTokens, s.input.Y);
    projections(w, s);
    options(w, s.input);
    edits(w, s.input.edits);
    if (s.provenance) provenance(w, *s.provenance);
    w.item("view");
    w.open('{');
    w.item("head");
    w.integer(file.view.head);
    w.item("row");
    w.integer(file.view.row);
    w.item("column");
    w.integer(file.view.column);
    w.item("color_range");
    w.string(colorsKey(file.view.colors));
    w.close('}');
    w.close('}');
    w.text += '\n';
    return w.text;
}

}  // namespace attnlab
