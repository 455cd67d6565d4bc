// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli_model_json.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace attnlab::cli {

namespace {

using Json = nlohmann::ordered_json;

// The most a weight takes: "-1.2345678e-05," (the shortest float text is at most 9 digits).
constexpr std::size_t kWeightBytes = 16;

void appendFloat(std::string& out, float v)
{
    if (!std::isfinite(v)) {
        out += "null";  // as JSON has no NaN; a run's maps are finite
        return;
    }
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    out.append(text, end);
}

// "[{"heads": [{"weights": [[...], ...]}, ...]}, ...]"
void appendLayers(std::string& out, const attn::model::ForwardResult& r)
{
    out += '[';
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
        if (l) out += ',';
        appendHeads(out, r.layers[l].attention);
    }
    out += ']';
}

Json predictionsJson(const std::vector<ModelPrediction>& predictions)
{
    Json out = Json::array();
    for (const ModelPrediction& p : predictions) {
        Json top = Json::array();
        for (const ModelGuess& g : p.top)
            top.push_back({{"token", g.token.toStdString()},
                           {"display", g.label.toStdString()},
                           {"id", g.id},
                           {"p", g.probability}});
        // Positions from 1, as the window and every message count them.
        out.push_back({{"position", p.position + 1}, {"top", top}});
    }
    return out;
}

std::string dump(const Json& j)
{
    // Text the tokenizer could not decode is replaced, never a reason to fail the run.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string predictionsJsonText(const std::vector<ModelPrediction>& predictions)
{
    return dump(predictionsJson(predictions));
}

void appendHeads(std::string& out, const std::vector<attn::model::FloatMatrix>& heads)
{
    out += "{\"heads\":[";
    for (std::size_t h = 0; h < heads.size(); ++h) {
        out += h ? ",{\"weights\":[" : "{\"weights\":[";
        const attn::model::FloatMatrix& m = heads[h];
        for (long i = 0; i < m.rows(); ++i) {
            out += i ? ",[" : "[";
            for (long j = 0; j < m.cols(); ++j) {
                if (j) out += ',';
                appendFloat(out, m(i, j));
            }
            out += ']';
        }
        out += "]}";
    }
    out += "]}";
}

std::size_t modelJsonBytes(long layers, long heads, long tokens, bool withBefore)
{
    const double n = static_cast<double>(tokens);
    const double maps = static_cast<double>(layers) * heads * (n * (n * kWeightBytes + 3) + 20);
    // Tokens (text, label, id) and the predictions (ten guesses a position) at a generous
    // 1,500 bytes a token, and 4 kB of the rest.
    const double bytes = (withBefore ? 2 : 1) * (maps + n * 1500) + 4096;
    return bytes >= 1e18 ? std::size_t{1} << 60 : static_cast<std::size_t>(bytes);
}

QByteArray modelJson(const LoadedModel& loaded, const ModelSnapshot& run)
{
    const attn::model::ModelConfig& c = loaded.model.config();
    const attn::tok::Tokenizer& tokenizer = *loaded.tokenizer;
    // Key/value heads: fewer than the query heads where several share one (grouped-query
    // attention); "layers" still has one map per query head.
    const Json modelInfo = {{"type", std::string(tokenizer.modelType())},
                            {"layers", c.layers},
                            {"heads", c.heads},
                            {"kv_heads", c.kvHeads}};
    Json texts = Json::array(), ids = Json::array(), display = Json::array();
    for (const attn::tok::Token& t : run.tokens) {
        texts.push_back(t.text);  // GPT-2 decoded, BERT as in the vocabulary
        ids.push_back(t.id);
    }
    for (const QString& label : run.labels) display.push_back(label.toStdString());
    Json lost = Json::array();
    for (const attn::tok::Dropped& d : run.dropped)
        lost.push_back(
            {{"text", d.text},
             {"byte", d.offset + 1},
             {"bytes", d.length},
             {"fate", d.fate == attn::tok::Dropped::Fate::Unknown ? "unknown" : "omitted"}});
    std::string out;
    out.reserve(modelJsonBytes(c.layers, c.heads, run.tokenCount(), run.edited()));
    out += "{\"model\":" + dump(modelInfo) + ",\"tokens\":" + dump(texts) +
           ",\"display\":" + dump(display) + ",\"ids\":" + dump(ids) +
           ",\"dropped\":" + dump(lost) + ",\"layers\":";
    appendLayers(out, run.result);
    out += ",\"predictions\":" + dump(predictionsJson(run.predictions));
    if (run.edited()) {
        // The run before the edits has guesses of its own, not only other probabilities.
        const std::vector<ModelPrediction> before = guessesOf(tokenizer, run.unedited, nullptr);
        out += ",\"before\":{\"predictions\":" + dump(predictionsJson(before)) + ",\"layers\":";
        appendLayers(out, run.unedited);
        out += '}';
    }
    out += "}";
    return QByteArray::fromStdString(out);
}

namespace {

// Each layer's heads, as `heads` finds them in it.
template <class Layer, class Heads>
void appendLayers(std::string& out, const std::vector<Layer>& layers, Heads heads)
{
    out += '[';
    for (std::size_t l = 0; l < layers.size(); ++l) {
        if (l) out += ',';
        appendHeads(out, heads(layers[l]));
    }
    out += ']';
}

const std::vector<attn::model::FloatMatrix>& mapsOf(const attn::model::LayerTrace& t)
{
    return t.attention;
}

const std::vector<attn::model::FloatMatrix>& itself(const std::vector<attn::model::FloatMatrix>& m)
{
    return m;
}

}  // namespace

void appendSeq2SeqMaps(std::string& out, const attn::model::Seq2SeqResult& run)
{
    out += "\"encoder\":";
    appendLayers(out, run.encoder, mapsOf);
    out += ",\"decoder\":";
    appendLayers(out, run.decoder, mapsOf);
    out += ",\"cross\":";
    appendLayers(out, run.cross, itself);
}

nlohmann::ordered_json seq2seqSideJson(const Seq2SeqSide& side)
{
    nlohmann::ordered_json tokens = nlohmann::ordered_json::array(),
                           display = nlohmann::ordered_json::array(),
                           ids = nlohmann::ordered_json::array();
    for (const attn::tok::Token& t : side.tokens) tokens.push_back(t.text);
    for (const QString& l : side.labels) display.push_back(l.toStdString());
    for (const int id : side.ids) ids.push_back(id);
    return {{"tokens", tokens}, {"display", display}, {"ids", ids}};
}

std::size_t seq2seqJsonBytes(const attn::model::Seq2SeqConfig& c, long m, long n)
{
    const double cells =
        static_cast<double>(c.heads) * (static_cast<double>(c.encoderLayers) * m * m +
                                        static_cast<double>(c.decoderLayers) * (n * n + n * m));
    return static_cast<std::size_t>(cells * 16 + static_cast<double>(n + m) * 3000 + 4096);
}

}  // namespace attnlab::cli
