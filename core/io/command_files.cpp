// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/command_files.h"

#include <dirent.h>
#include <filesystem>
#include <mutex>
#include <sys/stat.h>

#include "core/io/write_target.h"

namespace attn::io {

namespace {

// Where a path leads (links followed): an existing file by its device and inode, a file not
// yet made by its absolute path with "..", "." and the links of its folders taken out.
struct Place {
    bool exists = false;
    FileKind kind = FileKind::Regular;
    unsigned long long device = 0, inode = 0;
    std::string canonical;
};

Place placeOf(const std::string& path)
{
    Place p;
    std::string target;
    if (!detail::resolveLinks(path, target)) target = path;
    if (struct stat st{}; ::stat(target.c_str(), &st) == 0) {
        p.exists = true;
        p.kind = detail::kindOf(st.st_mode);
        p.device = st.st_dev;
        p.inode = st.st_ino;
    }
    std::error_code ec;
    const std::filesystem::path full = std::filesystem::weakly_canonical(target, ec);
    p.canonical = ec ? target : full.string();
    return p;
}

bool sameFile(const Place& a, const Place& b)
{
    if (a.exists && b.exists) return a.device == b.device && a.inode == b.inode;
    return a.canonical == b.canonical;
}

struct Entry {
    std::string path;  // as the command named it
    Place place;
};

struct State {
    std::mutex mutex;
    bool open = false;
    std::vector<Entry> inputs, outputs, written;

    void reset(bool now)
    {
        open = now;
        inputs.clear();
        outputs.clear();
        written.clear();
    }
};

State& state()
{
    static State s;
    return s;
}

const Entry* findSame(const std::vector<Entry>& list, const Place& place)
{
    for (const Entry& e : list)
        if (sameFile(e.place, place)) return &e;
    return nullptr;
}

WriteStatus clash(WriteStatus s, WriteError error, const std::string& other)
{
    s.error = error;
    s.other = other;
    return s;
}

}  // namespace

CommandFiles::CommandFiles()
{
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.reset(true);
}

CommandFiles::~CommandFiles()
{
    State& s = state();
    const std::lock_guard lock(s.mutex);
    s.reset(false);
}

void CommandFiles::addInput(const std::string& path)
{
    const Place p = placeOf(path);
    if (!p.exists || p.kind != FileKind::Regular) return;  // the reader will say what it is
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (!findSame(s.inputs, p)) s.inputs.push_back({path, p});
}

void CommandFiles::addInputFolder(const std::string& folder)
{
    DIR* dir = ::opendir(folder.c_str());
    if (dir == nullptr) return;
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") addInput(folder + "/" + name);
    }
    ::closedir(dir);
}

WriteStatus CommandFiles::addOutput(const std::string& path)
{
    return reserveOutput(path);
}

WriteStatus CommandFiles::addOutputFolder(const std::string& folder,
                                          const std::vector<std::string>& names,
                                          const FolderPolicy& policy)
{
    return reserveOutputFolder(folder, names, policy);
}

WriteStatus reserveOutput(const std::string& path)
{
    // Another output first: a file inside an output folder not made yet is that clash, not a
    // missing folder.
    const Place p = placeOf(path);
    if (!path.empty() && (!p.exists || p.kind == FileKind::Regular)) {
        State& s = state();
        const std::lock_guard lock(s.mutex);
        if (const Entry* out = s.open ? findSame(s.outputs, p) : nullptr) {
            WriteStatus w;
            w.target = p.canonical;
            return clash(w, WriteError::SameAsOutput, out->path);
        }
    }
    WriteStatus w = checkWritable(path);
    if (!w.ok() || w.kind != FileKind::Regular) return w;
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.open) s.outputs.push_back({path, p});
    return w;
}

WriteStatus reserveOutputFolder(const std::string& folder, const std::vector<std::string>& names,
                                const FolderPolicy& policy)
{
    WriteStatus w = checkFolderWritable(folder, names, policy);
    if (!w.ok()) return w;
    std::vector<Entry> places;
    for (const std::string& name : names)
        places.push_back({folder + "/" + name, placeOf(w.target + "/" + name)});
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (!s.open) return w;
    for (const Entry& e : places) {
        if (const Entry* out = findSame(s.outputs, e.place))
            return clash(w, WriteError::SameAsOutput, out->path);
    }
    s.outputs.insert(s.outputs.end(), places.begin(), places.end());
    return w;
}

namespace {
thread_local int outputProbeDepth = 0;
}  // namespace

OutputProbe::OutputProbe()
{
    ++outputProbeDepth;
}

OutputProbe::~OutputProbe()
{
    --outputProbeDepth;
}

namespace detail {

void noteInput(const std::string& path, unsigned long long device, unsigned long long inode)
{
    if (outputProbeDepth > 0) return;
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (!s.open) return;
    Place p;
    p.exists = true;
    p.device = device;
    p.inode = inode;
    p.canonical = path;
    if (!findSame(s.inputs, p)) s.inputs.push_back({path, p});
}

WriteStatus checkAgainstCommand(const std::string& target, WriteStatus s)
{
    State& st = state();
    {
        const std::lock_guard lock(st.mutex);
        if (!st.open) return s;
    }
    const Place p = placeOf(target);
    if (p.exists && p.kind != FileKind::Regular) return s;  // a device is written, not replaced
    const std::lock_guard lock(st.mutex);
    if (const Entry* in = findSame(st.inputs, p); in && p.exists)
        return clash(s, WriteError::SameAsInput, in->path);
    if (const Entry* out = findSame(st.written, p))
        return clash(s, WriteError::SameAsOutput, out->path);
    return s;
}

void noteWritten(const std::string& target)
{
    const Place p = placeOf(target);
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (s.open && p.kind == FileKind::Regular) s.written.push_back({target, p});
}

}  // namespace detail

}  // namespace attn::io
