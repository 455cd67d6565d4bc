// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model_folder.h"

#include <array>
#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/io/sha256.h"

namespace attn::model {

WeightsFile findWeights(const std::filesystem::path& folder)
{
    const std::pair<const char*, bool> candidates[] = {{"model.safetensors", false},
                                                       {"model.safetensors.index.json", true},
                                                       {"pytorch_model.bin", false},
                                                       {"pytorch_model.bin.index.json", true}};
    std::error_code ec;
    for (const auto& [name, sharded] : candidates)
        if (std::filesystem::exists(folder / name, ec)) return {folder / name, sharded};
    return {};
}

namespace {

// Weights of a model AttnLab can train are far below this; a file is hashed to its end.
constexpr std::uint64_t kMaxHashedBytes = std::uint64_t{64} << 30;

bool isHex64(const std::string& s)
{
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

Status readFolderRecord(const std::string& folder, FolderRecord& out)
{
    out = FolderRecord();
    const std::string path = folder + "/training.json";
    std::string text;
    const io::ReadStatus r = io::readBoundedFile(path, kMaxRecordFileBytes, text);
    if (r.error == io::ReadError::Missing) return {};
    if (!r.ok()) return failure(StatusCode::FileOpen, path, "", io::describe(r));
    // The losses and measures may be millions of values: read past, never kept.
    const auto skip = [](std::string*, std::size_t, nlohmann::json&, std::string&) { return true; };
    const std::array<io::JsonStream, 2> streams{io::JsonStream{"loss", skip},
                                                io::JsonStream{"measures", skip}};
    nlohmann::json j;
    if (const io::JsonProblem p = io::parseJson(text, j, streams); !p.ok())
        return failure(StatusCode::ConfigField, path, "", io::describe(p));
    out.present = true;
    if (!j.is_object()) return failure(StatusCode::ConfigField, path, "", "is not a JSON object");
    const auto by = j.find("written_by");
    const auto command = j.find("command");
    out.ours = (by != j.end() && by->is_string() && by->get<std::string>() == kWrittenBy) ||
               (command != j.end() && command->is_string() &&
                command->get<std::string>().rfind("attnlab train-model", 0) == 0);
    if (const auto task = j.find("task"); task != j.end() && task->is_string())
        out.task = task->get<std::string>();
    const auto files = j.find("files");
    if (files == j.end()) return {};
    if (!files->is_object())
        return failure(StatusCode::ConfigField, path, "files", "must map file names to digests");
    for (const auto& [name, digest] : files->items()) {
        if (!digest.is_string() || !isHex64(digest.get<std::string>()) || name.empty() ||
            name.find('/') != std::string::npos || name == "training.json" || name == "." ||
            name == "..")
            return failure(StatusCode::ConfigField, path, "files." + name,
                           "must be a file of the folder and its SHA-256 (64 hex digits)");
        out.digests[name] = digest.get<std::string>();
    }
    return {};
}

Status checkFolderDigests(const std::string& folder)
{
    FolderRecord record;
    if (Status s = readFolderRecord(folder, record); !s.ok()) return s;
    for (const auto& [name, expected] : record.digests) {
        const std::string path = folder + "/" + name;
        std::string actual;
        const io::ReadStatus r = io::sha256OfFile(path, kMaxHashedBytes, actual);
        if (!r.ok())
            return failure(StatusCode::FolderMismatch, path, "",
                           io::describe(r) + ", but training.json records it");
        if (actual != expected)
            return failure(StatusCode::FolderMismatch, path, "",
                           "its SHA-256 is " + actual + ", training.json records " + expected);
    }
    return {};
}

}  // namespace attn::model
