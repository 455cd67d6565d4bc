// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The files of one command, so that no output of it overwrites one of its inputs or another of
// its outputs: `compute --session s.json -o s.json` or `-o t.json --curve t.json` would
// otherwise read a file and then replace it with something else.
//
// Files are told apart by what they are, not by their names: a path is followed through its
// links, an existing file is known by its device and inode (a hard link or "a/../b" is the same
// file), a file not yet made by its folder's device and inode and its name.
//
// While a CommandFiles is open (one at a time: the command line opens one per command; the
// window never does, since saving over the file one opened is what "Save" means there), the
// bounded reader records every regular file it opens as an input, and the atomic writer refuses
// to replace an input or a file it has already written in this command. Declaring the outputs
// up front (addOutput) refuses a clash before any work is done.

#include <string>
#include <vector>

#include "core/io/atomic_file.h"
#include "core/io/folder_file.h"

namespace attn::io {

class CommandFiles {
public:
    CommandFiles();
    ~CommandFiles();
    CommandFiles(const CommandFiles&) = delete;
    CommandFiles& operator=(const CommandFiles&) = delete;

    // A file the command reads (recorded now; the reader records those it opens by itself).
    void addInput(const std::string& path);
    // Every regular file directly inside `folder` (a model folder the command reads).
    void addInputFolder(const std::string& folder);
    // A file the command will write: checkWritable, then refused (SameAsInput, SameAsOutput)
    // if it is an input or an output already declared.
    WriteStatus addOutput(const std::string& path);
    // A folder the command will write with these files: checkFolderWritable, then each file
    // refused as addOutput refuses a file.
    WriteStatus addOutputFolder(const std::string& folder, const std::vector<std::string>& names,
                                const FolderPolicy& policy);
};

// While one lives on this thread, the files the reader opens are not the command's inputs: a
// look at an output before it is replaced (whether AttnLab wrote the model folder that -o names,
// from its training.json) reads a file that the command means to replace.
class OutputProbe {
public:
    OutputProbe();
    ~OutputProbe();
    OutputProbe(const OutputProbe&) = delete;
    OutputProbe& operator=(const OutputProbe&) = delete;
};

// The same, for the CommandFiles that is open (only the checks, when none is): so that a
// command's parts need not hand the object around.
WriteStatus reserveOutput(const std::string& path);
WriteStatus reserveOutputFolder(const std::string& folder, const std::vector<std::string>& names,
                                const FolderPolicy& policy);

namespace detail {

// What the reader and the writer ask of the open CommandFiles (nothing happens without one).
void noteInput(const std::string& path, unsigned long long device, unsigned long long inode);
// Refuses `target` (links resolved) if it is an input or was already written in this command.
WriteStatus checkAgainstCommand(const std::string& target, WriteStatus s);
// Records that `target` was written.
void noteWritten(const std::string& target);

}  // namespace detail

}  // namespace attn::io
