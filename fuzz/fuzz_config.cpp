// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: config.json (attn::model::parseConfig and, for the encoder-decoders,
// parseSeq2SeqConfig) and generation_config.json (parseGenerationSettings, which reads config.json
// too). An accepted config must hold the sizes the forward pass relies on; accepted generation
// settings hold ids >= 0, no empty bad-words sequence, and list each key once.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/model/config.h"
#include "core/model/generation_config.h"
#include "core/model/seq2seq_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    attn::model::Seq2SeqConfig e;
    if (attn::model::parseSeq2SeqConfig(text, "config.json", e).ok()) {
        if (e.encoderLayers <= 0 || e.decoderLayers <= 0 || e.heads <= 0 || e.width <= 0 ||
            e.headDim <= 0 || e.encoderFfn <= 0 || e.decoderFfn <= 0 || e.vocab <= 0 ||
            e.positions <= 0 || e.padTokenId < 0 || e.padTokenId >= e.vocab ||
            e.eosTokenId >= e.vocab || e.decoderStartTokenId >= e.vocab ||
            (e.isT5() && (e.relativeBuckets < 4 || e.relativeMaxDistance <= e.relativeBuckets / 4)))
            std::abort();
    }
    attn::model::GenerationSettings g;
    if (attn::model::parseGenerationSettings(text, "generation_config.json", g).ok()) {
        for (const int id : g.eos)
            if (id < 0) std::abort();
        for (const std::vector<int>& words : g.badWords) {
            if (words.empty()) std::abort();
            for (const int id : words)
                if (id < 0) std::abort();
        }
        for (std::size_t i = 0; i < g.shown.size(); ++i)
            for (std::size_t j = i + 1; j < g.shown.size(); ++j)
                if (g.shown[i].first == g.shown[j].first) std::abort();
    }
    attn::model::ModelConfig c;
    const attn::Status s = attn::model::parseConfig(text, "config.json", c);
    if (!s.ok()) return 0;
    if (c.layers <= 0 || c.heads <= 0 || c.width <= 0 || c.inner <= 0 || c.positions <= 0 ||
        c.vocab <= 0 || c.width % c.heads != 0 || c.headDim() <= 0)
        std::abort();
    return 0;
}
