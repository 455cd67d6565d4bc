// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a training run (gpt2_run.h) may be asked for, in one place: the range of every setting,
// the memory the run would take and the size of the training.json it would write. ModelRun
// refuses a spec outside them before it allocates anything; `attnlab train-model` reads its
// options against the same table (run_arguments.h) and says the range when a value is outside
// it; the window's controls stay inside it.
//
// Every value in a range can be run on its own (a test runs each at its minimum and maximum
// under AddressSanitizer); combinations too large to run are refused by their memory or their
// record's size, with the figures.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/train/gpt2_run.h"

namespace attn::gpt2 {

enum class Setting {
    Layers,
    Heads,
    DModel,
    Context,
    Steps,
    Batch,
    Rate,
    Seed,
    Threads,
    InitStd,
    Warmup,
    FinalFraction,
    MeasureEvery,
    StopAfter,
};

struct SettingRange {
    Setting setting;
    std::string_view option;  // train-model's option, without "--"
    bool whole;               // a whole number in [lo, hi]; else a number in (lo, hi]
    double lo;
    double hi;
};

// Every setting's range, in the order train-model's usage lists them.
std::span<const SettingRange> settingRanges();
const SettingRange& rangeOf(Setting setting);
// Whether `value` is inside the setting's range.
bool inRange(const SettingRange& range, double value);

// The induction task's copy probe repeats segments of at least 8 letters right after
// themselves: a context shorter than two of them has no room for one.
inline constexpr long kMinInductionContext = 16;
// A corpus is read whole: a character-level run on two cores never gets through more text.
inline constexpr std::uint64_t kMaxCorpusBytes = std::uint64_t{16} << 20;
// What a run may take in memory: parameters, Adam's moments and the passes' buffers.
inline constexpr std::size_t kMaxRunBytes = std::size_t{4} << 30;
// The largest training.json a run writes (every JSON AttnLab writes has this bound).
inline constexpr std::size_t kMaxRecordBytes = std::size_t{512} << 20;

// About how many bytes the run of `spec` would hold at its peak, for a vocabulary of `vocab`.
std::size_t runBytes(const RunSpec& spec, long vocab);
// About how many bytes its training.json would have after every step.
std::size_t recordBytes(const RunSpec& spec);

// Every setting of `spec` inside its range, the induction task's shortest context, the width a
// multiple of the heads, then the memory (TooLarge, field "memory") and the record's size
// (TooLarge, field "training.json") for a vocabulary of `vocab`. ConfigField names the option
// ("context") with the English reason.
Status checkRunSpec(const RunSpec& spec, long vocab);

// Reads the corpus at `path` through the bounded reader: a regular file of at most
// kMaxCorpusBytes, or FileOpen naming the file and what it is ("is a FIFO (named pipe), not a
// file", "is 2048 MiB; such a file may be at most 16 MiB").
Status readCorpus(const std::string& path, std::string& out);

}  // namespace attn::gpt2
