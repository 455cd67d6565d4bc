// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the pipeline of a tokenizer.json around a fixed vocabulary. The input is a
// JSON object, a NUL byte, and a text to encode (a fixed text when there is no NUL). The
// object's normalizer, pre_tokenizer, post_processor, decoder and added_tokens are those of the
// tokenizer; its "model" may set unk_token, byte_fallback, fuse_unk and ignore_merges, and
// "remove" tokens from the vocabulary (with the merges that use them), so that characters go
// missing in part or in whole. The vocabulary: GPT-2's 256 byte characters, SentencePiece's "▁"
// words, the 256 "<0xNN>" byte tokens, "<unk>", "<s>", "</s>", and a few merges.
//
// A tokenizer that loads encodes the text with and without special tokens. Every id must be
// one of the tokenizer's; a refusal must be TokenizerGrowth with nothing encoded; every dropped
// character must lie in the text, in order, its text the text's own bytes.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/io/json_read.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace {

using nlohmann::json;

struct Base {
    json vocab = json::object();
    std::vector<std::pair<std::string, std::string>> merges;
};

const Base& base()
{
    static const Base b = [] {
        Base out;
        int id = 0;
        for (int byte = 0; byte < 256; ++byte) {
            std::string symbol;
            attn::tok::unicode::appendUtf8(
                symbol, attn::tok::Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(byte)));
            out.vocab[symbol] = id++;
        }
        for (const char* piece : {"<unk>", "<s>", "</s>", "\xE2\x96\x81",
                                  "\xE2\x96\x81"
                                  "a",
                                  "\xE2\x96\x81"
                                  "t",
                                  "he",
                                  "\xE2\x96\x81"
                                  "the",
                                  "ab", "abc",
                                  "\xC4\xA0"
                                  "t",
                                  "\xC4\xA0"
                                  "the",
                                  "\xE5\xAE\x83"})
            out.vocab[piece] = id++;
        static const char* hex = "0123456789ABCDEF";
        for (int byte = 0; byte < 256; ++byte)
            out.vocab[std::string("<0x") + hex[byte >> 4] + hex[byte & 15] + ">"] = id++;
        out.merges = {{"\xE2\x96\x81", "a"},
                      {"\xE2\x96\x81", "t"},
                      {"h", "e"},
                      {"\xE2\x96\x81"
                       "t",
                       "he"},
                      {"a", "b"},
                      {"ab", "c"},
                      {"\xC4\xA0", "t"},
                      {"\xC4\xA0"
                       "t",
                       "he"}};
        return out;
    }();
    return b;
}

// The tokenizer.json the input asks for, or null when the input is not a JSON object.
json tokenizerJson(std::string_view spec)
{
    json in;
    if (!attn::io::parseJson(spec, in).ok() || !in.is_object()) return nullptr;
    json vocab = base().vocab;
    json model = {{"type", "BPE"}};
    if (const auto it = in.find("model"); it != in.end() && it->is_object()) {
        for (const char* key : {"unk_token", "byte_fallback", "fuse_unk", "ignore_merges"})
            if (it->contains(key)) model[key] = (*it)[key];
        if (const auto r = it->find("remove"); r != it->end() && r->is_array())
            for (const json& piece : *r)
                if (piece.is_string()) vocab.erase(piece.get<std::string>());
    }
    json merges = json::array();
    for (const auto& [left, right] : base().merges)
        if (vocab.contains(left) && vocab.contains(right) && vocab.contains(left + right))
            merges.push_back(left + " " + right);
    model["vocab"] = std::move(vocab);
    model["merges"] = std::move(merges);
    json root = {{"model", std::move(model)}};
    for (const char* key :
         {"normalizer", "pre_tokenizer", "post_processor", "decoder", "added_tokens"})
        if (in.contains(key)) root[key] = in[key];
    return root;
}

void check(bool ok)
{
    if (!ok) std::abort();
}

void encodeAndCheck(const attn::tok::HfTokenizer& t, std::string_view text, bool special)
{
    std::vector<int> ids;
    std::vector<attn::tok::Dropped> dropped;
    const attn::Status s = t.encode(text, special, ids, dropped);
    if (!s.ok()) {
        check(s.code == attn::StatusCode::TokenizerGrowth && ids.empty() && dropped.empty());
        check(s.value > s.limit && !s.stage.empty());
        (void)attn::describe(s);
        return;
    }
    for (const int id : ids) {
        check(id >= 0 && static_cast<std::size_t>(id) < t.vocabSize());
        (void)t.tokenBytes(id);
    }
    std::size_t last = 0;
    for (const attn::tok::Dropped& d : dropped) {
        check(d.length > 0 && d.offset + d.length <= text.size() && d.offset >= last);
        check(d.text == attn::tok::replaceBrokenUtf8(text.substr(d.offset, d.length)));
        last = d.offset;
    }
    check(t.encode(text, special) == ids);
    (void)t.decode(ids);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = in.find('\0');
    const json root = tokenizerJson(in.substr(0, nul));
    if (root.is_null()) return 0;
    const auto loaded = attn::tok::HfTokenizer::fromStrings(root.dump());
    const auto* t = std::get_if<attn::tok::HfTokenizer>(&loaded);
    if (t == nullptr) {
        (void)attn::describe(std::get<attn::Status>(loaded));
        return 0;
    }
    const std::string_view text =
        nul == std::string_view::npos
            ? std::string_view(
                  "The animal didn't cross, \xE5\xAE\x83\xE5\xA4\xAA\xE7\xB4\xAF! "
                  "<s>  na\xC3\xAFve e\xCC\x81 \xF0\x9F\xA4\x96\n\t x\xFF")
            : in.substr(nul + 1);
    for (const bool special : {false, true}) encodeAndCheck(*t, text, special);
    return 0;
}
