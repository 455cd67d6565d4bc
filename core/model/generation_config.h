// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a checkpoint says about writing: the generation settings of its config.json, overridden
// by its generation_config.json where that file is present (as Hugging Face's GenerationConfig
// reads them). AttnLab honours the end-of-text ids and bad_words_ids; the rest (num_beams,
// do_sample, forced_eos_token_id, …) is shown as the file says it and changes nothing: greedy
// stays the argmax.

#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace attn::model {

struct GenerationSettings {
    std::vector<int> eos;                    // eos_token_id: one id or a list
    int decoderStart = -1;                   // decoder_start_token_id (-1: none given)
    std::vector<std::vector<int>> badWords;  // bad_words_ids
    // Every generation setting the files give, in the order of kGenerationKeys: the key and its
    // value as JSON text ("num_beams", "4").
    std::vector<std::pair<std::string, std::string>> shown;
};

// Parses one file's text into `out`, over what it holds (so generation_config.json read after
// config.json overrides it). `file` names it in messages; a setting AttnLab honours with a
// wrong type (an eos id that is not a whole number, bad words that are not lists of ids) is
// refused with ConfigField naming it. Other keys are not looked at.
attn::Status parseGenerationSettings(const std::string& text, const std::string& file,
                                     GenerationSettings& out);

// config.json of `folder`, then generation_config.json when it exists.
attn::Status readGenerationSettings(const std::string& folder, GenerationSettings& out);

}  // namespace attn::model
