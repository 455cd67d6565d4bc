// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Inside core/io: where a path leads, for the reader, the writers and CommandFiles alike.

#include <cstddef>
#include <string>
#include <sys/types.h>

#include "core/io/bounded_file.h"

namespace attn::io::detail {

// The folder part of a path ("." for a bare name, "/" for a file at the root).
std::string folderOf(const std::string& path);
// The last part of a path.
std::string nameOf(const std::string& path);
// Follows `path` through its chain of symlinks to what it names (which may not exist yet), so
// that a file is replaced and the links stay links. False on a loop or an unreadable link.
bool resolveLinks(std::string path, std::string& out);
// What a stat mode is.
FileKind kindOf(mode_t mode);

// May this user write at `path` (W_OK; a folder to make files in: W_OK | X_OK)? faccessat
// with the effective ids, as open(2) would judge: root may, as it may for `cp`.
bool mayWrite(const std::string& path, int mode);

// A descriptor closed when it goes.
struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();
};

// Writes all of `data`, in pieces so that a short write names the failure it met; false with
// `error` (an errno value) when it could not.
bool writeAll(int fd, const char* data, std::size_t size, int& error);

}  // namespace attn::io::detail
