// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Trained GPT-2 parameters as a Hugging Face checkpoint that core/model (and transformers)
// open: a folder with config.json and model.safetensors, the tensors in float32 under
// GPT-2's names. An attention-only model is written as a full GPT-2 whose MLPs are all zero
// (c_fc, c_proj and their biases) and whose ln_2 is the identity LayerNorm: gelu(0) = 0, so
// each MLP adds exactly 0 to the residual stream and the checkpoint runs the trained function.

#include <string>
#include <utility>
#include <vector>

#include "core/io/folder_file.h"
#include "core/model/safetensors_write.h"
#include "core/train/gpt2_train.h"

namespace attn::gpt2 {

// Every tensor of the checkpoint, in float32, in Hugging Face's order.
std::vector<model::TensorToWrite> checkpointTensors(const Parameters& params);
// config.json's text: model_type gpt2, the sizes, gelu_new, LayerNorm eps 1e-5, tied output.
std::string checkpointConfig(const Config& config);
// Writes both files as the whole folder `folder` (see writeModelFolder; FileOpen naming the
// folder and why it could not be written).
Status exportCheckpoint(const Parameters& params, const std::string& folder);

// The files of a model folder AttnLab writes, in the order written: config.json,
// model.safetensors, vocab.json, merges.txt, training.json.
std::vector<std::string> modelFolderNames();
// How such a folder is written (core/io/folder_file.h): whole, into a new folder that takes the
// old one's place; an existing folder only if AttnLab made it (model_folder.h), the user's own
// other files in it kept.
io::FolderPolicy modelFolderPolicy(const std::string& folder);
// Writes `files` (name, bytes) as the folder; FileOpen naming it and the reason.
Status writeModelFolder(const std::string& folder,
                        const std::vector<std::pair<std::string, std::string>>& files);
// Whether `folder` could be written so, before a run spends minutes: FileOpen as above.
Status checkModelFolder(const std::string& folder);

}  // namespace attn::gpt2
