// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A copy of a model the program carries (a built-in model unpacked to the user's cache) is the
// program's own folder: it is used only while every file has the program's bytes, and it is
// remade whole otherwise. Whatever stands at its path (a copy edited by hand, a link put in
// its place) is replaced itself; nothing it points to is followed or written through.

#include <string>
#include <vector>

#include "core/io/atomic_file.h"
#include "core/io/folder_file.h"

namespace attn::model {

// Whether `dir` is a real folder (not a link) whose `files` are regular files (not links) with
// exactly these bytes. A size is not enough: an edit of layer_norm_epsilon keeps it.
bool cachedCopyIntact(const std::string& dir, const std::vector<io::FolderFile>& files);

// Makes `dir` a folder of exactly `files`, in place of whatever stood there.
io::WriteStatus writeCachedCopy(const std::string& dir, const std::vector<io::FolderFile>& files);

}  // namespace attn::model
