// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/run_limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/io/bounded_file.h"

namespace attn::gpt2 {

namespace {

constexpr double kMaxSteps = 10000000;

// Whole numbers in [lo, hi]; numbers in (lo, hi].
constexpr SettingRange kRanges[] = {
    {Setting::Layers, "layers", true, 1, 48},
    {Setting::Heads, "heads", true, 1, 64},
    {Setting::DModel, "d-model", true, 1, 1024},
    {Setting::Context, "context", true, 2, 1024},
    {Setting::Steps, "steps", true, 1, kMaxSteps},
    {Setting::Batch, "batch", true, 1, 1024},
    {Setting::Rate, "lr", false, 0, 10},
    {Setting::Seed, "seed", true, 0, 2147483647},
    {Setting::Threads, "threads", true, 1, 64},
    {Setting::InitStd, "init-std", false, 0, 10},
    {Setting::Warmup, "warmup", true, 0, kMaxSteps},
    {Setting::FinalFraction, "final-lr", false, 0, 1},
    {Setting::MeasureEvery, "measure-every", true, 0, kMaxSteps},
    {Setting::StopAfter, "stop-after", true, 1, kMaxSteps},
};

std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

Status outside(const SettingRange& r, double value)
{
    Status s = failure(StatusCode::ConfigField, "", std::string(r.option),
                       r.whole ? "must be a whole number from " + number(r.lo) + " to " +
                                     number(r.hi) + ", not " + number(value)
                               : "must be a number above " + number(r.lo) + " and at most " +
                                     number(r.hi) + ", not " + number(value));
    return s;
}

// The sequences a run passes through its trainer: its batches, the copy probe's and the head
// scores' (one sequence of the context for the live maps too).
long largestBatch(const RunSpec& spec)
{
    long probe = 0;
    if (spec.data == DataKind::Induction) probe = std::min(spec.batch, copyProbeCount(spec));
    return std::max({spec.batch, probe, spec.detectCount, 1L});
}

Status tooLarge(const char* field, std::size_t needed, std::size_t budget, std::string detail)
{
    Status s = failure(StatusCode::TooLarge, "", field, std::move(detail));
    s.bytesNeeded = needed;
    s.bytesBudget = budget;
    return s;
}

}  // namespace

std::span<const SettingRange> settingRanges()
{
    return kRanges;
}

const SettingRange& rangeOf(Setting setting)
{
    for (const SettingRange& r : kRanges)
        if (r.setting == setting) return r;
    return kRanges[0];
}

bool inRange(const SettingRange& r, double value)
{
    if (!std::isfinite(value) || value > r.hi) return false;
    if (r.whole) return value >= r.lo && std::floor(value) == value;
    return value > r.lo;
}

std::size_t runBytes(const RunSpec& spec, long vocab)
{
    Config c;
    c.vocab = vocab;
    c.maxT = spec.context;
    c.layers = spec.layers;
    c.heads = spec.heads;
    c.channels = spec.channels;
    c.attentionOnly = spec.attentionOnly;
    // The buffers are sized for the largest batch; they are made anew when the shape changes,
    // so for a moment the old and the new are both held.
    const std::size_t one = trainerBytes(c, largestBatch(spec), spec.context, spec.precision, 1);
    const std::size_t params = trainerBytes(c, 0, 0, spec.precision, 1);
    return params + 2 * (one - params) + spec.corpus.size() * 5;
}

std::size_t recordBytes(const RunSpec& spec)
{
    // training.json as ModelRun::trainingJson indents it: a loss a line, and for every measure
    // each head's five scores a line each.
    const double measures =
        static_cast<double>(spec.evalEvery > 0 ? spec.steps / spec.evalEvery : 0) + 1;
    const double perMeasure =
        120 + static_cast<double>(spec.layers) * (40 + static_cast<double>(spec.heads) * 220);
    const double bytes = 4096 + static_cast<double>(spec.steps) * 26 + measures * perMeasure;
    return bytes >= 1e18 ? std::size_t{1} << 60 : static_cast<std::size_t>(bytes);
}

Status checkRunSpec(const RunSpec& spec, long vocab)
{
    const std::pair<Setting, double> values[] = {
        {Setting::Layers, static_cast<double>(spec.layers)},
        {Setting::Heads, static_cast<double>(spec.heads)},
        {Setting::DModel, static_cast<double>(spec.channels)},
        {Setting::Context, static_cast<double>(spec.context)},
        {Setting::Steps, static_cast<double>(spec.steps)},
        {Setting::Batch, static_cast<double>(spec.batch)},
        {Setting::Rate, spec.learningRate},
        {Setting::InitStd, spec.initStd},
        {Setting::Warmup, static_cast<double>(spec.warmup)},
        {Setting::FinalFraction, spec.finalFraction},
        {Setting::MeasureEvery, static_cast<double>(spec.evalEvery)}};
    for (const auto& [setting, value] : values)
        if (!inRange(rangeOf(setting), value)) return outside(rangeOf(setting), value);
    if (spec.data == DataKind::Induction && spec.context < kMinInductionContext)
        return failure(StatusCode::ConfigField, "", "context",
                       "must be at least " + std::to_string(kMinInductionContext) +
                           " for the induction task (its probe repeats segments of 8 letters), "
                           "not " +
                           std::to_string(spec.context));
    if (spec.channels % spec.heads != 0)
        return failure(StatusCode::ConfigField, "", "d-model",
                       std::to_string(spec.channels) + " is not a multiple of --heads " +
                           std::to_string(spec.heads));
    if (const std::size_t need = runBytes(spec, vocab); need > kMaxRunBytes)
        return tooLarge("memory", need, kMaxRunBytes,
                        "the run would hold about " + std::to_string(need >> 20) +
                            " MiB, more than the limit of " + std::to_string(kMaxRunBytes >> 20) +
                            " MiB; use a smaller model, batch or context");
    if (const std::size_t need = recordBytes(spec); need > kMaxRecordBytes)
        return tooLarge("training.json", need, kMaxRecordBytes,
                        "training.json would be about " + std::to_string(need >> 20) +
                            " MiB, more than the limit of " +
                            std::to_string(kMaxRecordBytes >> 20) +
                            " MiB; measure less often (--measure-every) or train fewer steps");
    return Status::success();
}

Status readCorpus(const std::string& path, std::string& out)
{
    out.clear();
    const io::ReadStatus r = io::readBoundedFile(path, kMaxCorpusBytes, out);
    if (r.ok()) return {};
    Status s = failure(StatusCode::FileOpen, path, "", io::describe(r));
    if (r.error == io::ReadError::TooLarge) s.limit = static_cast<long>(kMaxCorpusBytes);
    return s;
}

}  // namespace attn::gpt2
