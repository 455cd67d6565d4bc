// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A folder of files written whole or not at all (a model folder: config.json, weights and
// tokenizer, which only make sense together). The files go into a new folder beside the
// target, each written and synced; the new folder then takes the target's place in one step
// (renameat2's RENAME_EXCHANGE), so that a reader, or a kill -9 half-way, finds the old folder
// or the new one and never new weights beside an old vocabulary. The old folder is then
// removed without following any link in it.

#include <string>
#include <string_view>
#include <vector>

#include "core/io/atomic_file.h"

namespace attn::io {

struct FolderFile {
    std::string name;  // a plain name, no '/'
    std::string_view bytes;
};

struct FolderPolicy {
    // Whether an existing folder that holds anything may be replaced: the caller says whether it
    // is one it made (an empty folder may always be used).
    bool mayReplace = false;
    // Keep: the other regular files of a replaced folder are carried into the new one (hard
    // links: the user's own notes or corpus stay); anything else there (a subfolder, a link, a
    // device) is refused. Discard: the old folder goes whole (a cache that is remade).
    bool keepOthers = true;
    // Whether a link at the path is followed (a user's `-o link-to-folder` writes the folder
    // it names). A folder of the program's own (a cache) is not: whatever stands at the path, a
    // link or a file put there, is replaced itself and nothing it points to is touched (with
    // mayReplace and not keepOthers).
    bool followLinks = true;
    // Whether missing folders above it are made (`-o runs/today/model`): checked as far up as
    // they exist, made only when the folder is written.
    bool makeParents = false;
};

// What writeFolderAtomically would refuse before writing, without writing: an empty path,
// something not a folder at the path (NotWritable), a folder not to be replaced (NotOurs), a
// missing or unwritable parent folder, a file of `names` that is an input of the command or
// already written by it (command_files.h).
WriteStatus checkFolderWritable(const std::string& folder, const std::vector<std::string>& names,
                                const FolderPolicy& policy);

// Writes `files` as the whole content of `folder` (links to the folder followed), as above.
WriteStatus writeFolderAtomically(const std::string& folder, const std::vector<FolderFile>& files,
                                  const FolderPolicy& policy);

}  // namespace attn::io
