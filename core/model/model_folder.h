// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model folder that AttnLab wrote (`attnlab train-model`, the window's model trainer) says so
// in its training.json and records there the SHA-256 of each of its other files. So a folder
// whose files do not belong together (new weights beside an old vocabulary after an
// interrupted copy, a config.json edited by hand, a cached built-in model changed on disk) is
// refused by name instead of opened as a mix; and AttnLab replaces a folder only if it made it.
//
// A folder without training.json (any Hugging Face checkpoint) is opened as it is.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "core/status.h"

namespace attn::model {

// training.json's "written_by".
inline constexpr const char* kWrittenBy = "attnlab train-model";
// The most training.json is read for its digests (a run of ten million steps writes ~250 MB).
inline constexpr std::uint64_t kMaxRecordFileBytes = std::uint64_t{512} << 20;

struct FolderRecord {
    bool present = false;                        // training.json is there
    bool ours = false;                           // and AttnLab wrote it
    std::map<std::string, std::string> digests;  // file name -> SHA-256 (hex)
    std::string task;                            // "task", if it names one ("dates")
};

// Where a folder's weights are: model.safetensors, else its shards' index
// (model.safetensors.index.json), else the hub's older torch.save checkpoint (pytorch_model.bin,
// or its shards' index pytorch_model.bin.index.json). `path` is empty when none is there.
struct WeightsFile {
    std::filesystem::path path;
    bool sharded = false;  // `path` is an index naming the shards
};
WeightsFile findWeights(const std::filesystem::path& folder);

// Reads `folder`/training.json's "written_by" (or an older AttnLab's "command") and "files".
// FileOpen or ConfigField (naming training.json) if it is there but cannot be read.
Status readFolderRecord(const std::string& folder, FolderRecord& out);

// Refuses (FolderMismatch, naming the file and both digests) a folder whose training.json
// records a digest that one of its files does not have, or a file that is missing.
Status checkFolderDigests(const std::string& folder);

}  // namespace attn::model
