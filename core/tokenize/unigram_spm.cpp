// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/unigram_spm.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/io/json_read.h"

namespace attn::tok {

namespace {

using nlohmann::json;

// Protobuf's wire format: each field a key (number << 3 | wire type), then a varint, four
// bytes of a float, or a length and bytes.
class Proto {
public:
    void varint(int field, std::int64_t value)
    {
        key(field, 0);
        raw(static_cast<std::uint64_t>(value));
    }
    void fixed32(int field, float value)
    {
        key(field, 5);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
    }
    void bytes(int field, std::string_view value)
    {
        key(field, 2);
        raw(value.size());
        out_.append(value);
    }
    [[nodiscard]] const std::string& str() const { return out_; }

private:
    void key(int field, int type) { raw(static_cast<std::uint64_t>(field) << 3 | type); }
    void raw(std::uint64_t v)
    {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    std::string out_;
};

// sentencepiece_model.proto's numbers.
namespace spm_proto {
constexpr int kPieces = 1, kTrainerSpec = 2, kNormalizerSpec = 3;  // ModelProto
constexpr int kPiece = 1, kScore = 2, kType = 3;                   // .SentencePiece
constexpr int kNormal = 1, kUnknown = 2, kControl = 3, kByte = 6;  // .SentencePiece.Type
constexpr int kModelType = 3, kByteFallback = 35, kUnkId = 40, kBosId = 41, kEosId = 42,
              kPadId = 43;   // TrainerSpec
constexpr int kUnigram = 1;  // TrainerSpec.ModelType
constexpr int kName = 1, kCharsmap = 2, kDummyPrefix = 3, kExtraWhitespace = 4,
              kEscape = 5;  // NormalizerSpec
}  // namespace spm_proto

std::optional<std::string> base64(const std::string& in)
{
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char c : in) {
        int v = -1;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        if (c >= '0' && c <= '9') v = c - '0' + 52;
        if (c == '+') v = 62;
        if (c == '/') v = 63;
        if (c == '=') break;
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xFF));
        }
    }
    return out;
}

struct Pipeline {
    std::string charsmap;
    bool extraWhitespace = false;
};

// The normalizer: Precompiled, alone or with Strip and Replace(" {2,}").
std::optional<std::string> readNormalizer(const json& n, Pipeline& p)
{
    const auto one = [&p](const json& j, const std::string& path) -> std::optional<std::string> {
        const std::string type = j.is_object() ? j.value("type", std::string()) : std::string();
        if (type == "Precompiled") {
            const json& c = j.contains("precompiled_charsmap") ? j["precompiled_charsmap"] : json();
            std::optional<std::string> bytes;
            if (c.is_string()) bytes = base64(c.get<std::string>());
            if (!bytes || bytes->size() < 4)
                return path + ".precompiled_charsmap: not a SentencePiece charsmap in base64";
            p.charsmap = std::move(*bytes);
        } else if (type == "Replace") {
            const json& pattern = j.contains("pattern") ? j["pattern"] : json();
            if (!pattern.is_object() || pattern.value("Regex", std::string()) != " {2,}")
                return path + ": only the Replace of \" {2,}\" (extra spaces) is supported";
            p.extraWhitespace = true;
        } else if (type != "Strip") {
            return path + ".type: \"" + type +
                   "\" is not supported with a Unigram model (only Precompiled, Strip and the "
                   "Replace of extra spaces)";
        }
        return std::nullopt;
    };
    if (n.is_object() && n.value("type", std::string()) == "Sequence" &&
        n.contains("normalizers") && n["normalizers"].is_array()) {
        for (std::size_t i = 0; i < n["normalizers"].size(); ++i)
            if (auto err = one(n["normalizers"][i],
                               "normalizer.normalizers[" + std::to_string(i + 1) + "]"))
                return err;
    } else if (auto err = one(n, "normalizer")) {
        return err;
    }
    if (p.charsmap.empty())
        return std::string(
            "normalizer: a Unigram model needs the Precompiled normalizer "
            "(SentencePiece's charsmap)");
    return std::nullopt;
}

// The pre-tokenizer: Metaspace("▁") with a prefix space, alone or after WhitespaceSplit.
std::optional<std::string> readPreTokenizer(const json& t)
{
    bool metaspace = false;
    const auto one = [&metaspace](const json& j,
                                  const std::string& path) -> std::optional<std::string> {
        const std::string type = j.is_object() ? j.value("type", std::string()) : std::string();
        if (type == "Metaspace") {
            const bool prefix = j.value("add_prefix_space", false) ||
                                j.value("prepend_scheme", std::string()) == "always" ||
                                j.value("prepend_scheme", std::string()) == "first";
            if (j.value("replacement", std::string()) != "\u2581" || !prefix)
                return path + ": only Metaspace with \"\u2581\" and a prefix space is supported";
            metaspace = true;
        } else if (type != "WhitespaceSplit") {
            return path + ".type: \"" + type +
                   "\" is not supported with a Unigram model (only Metaspace)";
        }
        return std::nullopt;
    };
    if (t.is_object() && t.value("type", std::string()) == "Sequence" &&
        t.contains("pretokenizers") && t["pretokenizers"].is_array()) {
        for (std::size_t i = 0; i < t["pretokenizers"].size(); ++i)
            if (auto err = one(t["pretokenizers"][i],
                               "pre_tokenizer.pretokenizers[" + std::to_string(i + 1) + "]"))
                return err;
    } else if (auto err = one(t, "pre_tokenizer")) {
        return err;
    }
    if (!metaspace) return std::string("pre_tokenizer: a Unigram model needs Metaspace");
    return std::nullopt;
}

bool isByte(const std::string& piece)
{
    return piece.size() == 6 && piece.compare(0, 3, "<0x") == 0 && piece[5] == '>' &&
           std::isxdigit(static_cast<unsigned char>(piece[3])) &&
           std::isxdigit(static_cast<unsigned char>(piece[4]));
}

// The contents of the added tokens marked special (CONTROL pieces).
std::set<std::string> specialTokens(const json& root)
{
    std::set<std::string> special;
    if (root.contains("added_tokens") && root["added_tokens"].is_array())
        for (const json& a : root["added_tokens"])
            if (a.is_object() && a.value("special", false) && a.contains("content") &&
                a["content"].is_string())
                special.insert(a["content"].get<std::string>());
    return special;
}

}  // namespace

Loaded<UnigramSpm> spmFromTokenizerJson(std::string_view text, const std::string& name)
{
    json root;
    if (const io::JsonProblem p = io::parseJson(text, root); !p.ok())
        return tokenizerError(name, "not valid JSON: " + io::describe(p));
    if (!root.is_object() || !root.contains("model") || !root["model"].is_object())
        return tokenizerError(name, "model: missing");
    const json& model = root["model"];
    const std::string type = model.value("type", std::string());
    if (type != "Unigram")
        return tokenizerError(name, "model.type: \"" + type + "\" is not a Unigram model");
    if (!model.contains("vocab") || !model["vocab"].is_array() || model["vocab"].empty())
        return tokenizerError(name, "model.vocab: must be a list of [piece, score]");
    const json& vocab = model["vocab"];
    const json unk = model.contains("unk_id") ? model["unk_id"] : json();
    if (!unk.is_number_integer() || unk.get<long long>() < 0 ||
        unk.get<long long>() >= static_cast<long long>(vocab.size()))
        return tokenizerError(name, "model.unk_id: must be the id of a piece of model.vocab");
    const bool byteFallback = model.value("byte_fallback", false);
    Pipeline pipeline;
    if (auto err =
            readNormalizer(root.contains("normalizer") ? root["normalizer"] : json(), pipeline))
        return tokenizerError(name, *err);
    if (auto err =
            readPreTokenizer(root.contains("pre_tokenizer") ? root["pre_tokenizer"] : json()))
        return tokenizerError(name, *err);
    const std::set<std::string> special = specialTokens(root);

    // T5's extra ids close the list; they are T5Tokenizer's, not pieces of the model.
    std::size_t pieces = vocab.size();
    UnigramSpm out;
    while (pieces > 0 && vocab[pieces - 1].is_array() && !vocab[pieces - 1].empty() &&
           vocab[pieces - 1][0] == "<extra_id_" + std::to_string(out.extraIds) + ">") {
        --pieces;
        ++out.extraIds;
    }
    namespace P = spm_proto;
    Proto proto;
    int eos = -1, pad = -1;
    for (std::size_t i = 0; i < pieces; ++i) {
        const json& e = vocab[i];
        if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_number() ||
            e[0].get_ref<const std::string&>().empty())
            return tokenizerError(name, "model.vocab[" + std::to_string(i + 1) +
                                            "]: must be [piece, score] with a piece");
        const std::string& piece = e[0].get_ref<const std::string&>();
        const int id = static_cast<int>(i);
        const int kind = id == unk.get<int>()            ? P::kUnknown
                         : special.count(piece) != 0     ? P::kControl
                         : byteFallback && isByte(piece) ? P::kByte
                                                         : P::kNormal;
        if (piece == "</s>") eos = id;
        if (piece == "<pad>") pad = id;
        Proto p;
        p.bytes(P::kPiece, piece);
        p.fixed32(P::kScore, static_cast<float>(e[1].get<double>()));
        p.varint(P::kType, kind);
        proto.bytes(P::kPieces, p.str());
    }
    Proto trainer;
    trainer.varint(P::kModelType, P::kUnigram);
    trainer.varint(P::kByteFallback, byteFallback ? 1 : 0);
    trainer.varint(P::kUnkId, unk.get<int>());
    trainer.varint(P::kBosId, -1);
    trainer.varint(P::kEosId, eos);
    trainer.varint(P::kPadId, pad);
    proto.bytes(P::kTrainerSpec, trainer.str());
    Proto normalizer;
    normalizer.bytes(P::kName, "nmt_nfkc");
    normalizer.bytes(P::kCharsmap, pipeline.charsmap);
    normalizer.varint(P::kDummyPrefix, 1);
    normalizer.varint(P::kExtraWhitespace, pipeline.extraWhitespace ? 1 : 0);
    normalizer.varint(P::kEscape, 1);
    proto.bytes(P::kNormalizerSpec, normalizer.str());
    out.model = proto.str();
    return out;
}

}  // namespace attn::tok
