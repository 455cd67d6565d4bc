// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of the attention core (Google Benchmark 1.7). bench/compare.sh runs them beside
// the numpy peer (bench/numpy_peer.py) and prints the side-by-side table.
//
// Problems: one head, d_model = d_k = d_v = 64, inputs from attn::randomInput (seed 1).
// Names (the n argument is appended as "/n:<n>"):
//   compute/<self|causal>/<float|double>    attn::computeAttention, every stage kept
//   full/<self|causal>/<float|double>       AttentionEngineT<T>::setInput (full recompute)
//   key_edit/<self|causal>/<float|double>   AttentionEngineT<T>::setEdit: key n/2 scaled,
//                                           alternating 2.0 and 3.0 (never the identity)
// Times are wall clock (UseRealTime) because the core runs OpenMP threads, in milliseconds.

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/incremental.h"
#include "core/random_init.h"
#include "core/status.h"

namespace {

constexpr long kDim = 64;
constexpr std::array<long, 5> kComputeSizes = {128, 512, 1024, 2048, 4096};
constexpr std::array<long, 4> kEditSizes = {512, 1024, 2048, 4096};

attn::AttentionInput makeInput(long n, attn::Mode mode)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = kDim;
    spec.dK = kDim;
    spec.dV = kDim;
    spec.heads = 1;
    spec.mode = mode;
    spec.seed = 1;
    return attn::randomInput(spec);
}

const char* modeName(attn::Mode mode)
{
    switch (mode) {
    case attn::Mode::Self: return "self";
    case attn::Mode::Causal: return "causal";
    case attn::Mode::Cross: return "cross";
    }
    return "?";
}

template <typename T>
const char* typeName();
template <>
const char* typeName<float>()
{
    return "float";
}
template <>
const char* typeName<double>()
{
    return "double";
}

// Stops the benchmark with the core's description of a failed status.
bool failed(benchmark::State& state, const attn::Status& status)
{
    if (status.ok()) return false;
    const std::string message = attn::describe(status);
    state.SkipWithError(message.c_str());
    return true;
}

template <typename T>
void benchCompute(benchmark::State& state, attn::Mode mode)
{
    const attn::AttentionInput input = makeInput(state.range(0), mode);
    attn::AttentionResultT<T> result;
    for (auto _ : state) {
        if (failed(state, attn::computeAttention(input, result))) return;
        benchmark::DoNotOptimize(result.output.data());
        benchmark::ClobberMemory();
    }
    // 1 when the core recognised the pure causal mask and computed only each row's prefix.
    state.counters["causal_prefix"] = result.maskKind == attn::MaskKind::Causal ? 1.0 : 0.0;
}

template <typename T>
void benchFullRecompute(benchmark::State& state, attn::Mode mode)
{
    const attn::AttentionInput input = makeInput(state.range(0), mode);
    attn::AttentionEngineT<T> engine;
    for (auto _ : state) {
        if (failed(state, engine.setInput(input))) return;
        benchmark::DoNotOptimize(engine.result().output.data());
        benchmark::ClobberMemory();
    }
}

template <typename T>
void benchKeyEdit(benchmark::State& state, attn::Mode mode)
{
    const long n = state.range(0);
    attn::AttentionEngineT<T> engine;
    if (failed(state, engine.setInput(makeInput(n, mode)))) return;

    attn::VectorEdit edit;
    edit.role = attn::Role::Key;
    edit.head = 0;
    edit.index = static_cast<int>(n / 2);
    long iteration = 0;
    long rowsRecomputed = 0;
    for (auto _ : state) {
        // Alternate two non-identity scales so that every call is a real incremental update
        // (scale 1.0 without overrides would remove the edit instead).
        edit.scale = (iteration++ % 2 == 0) ? 2.0 : 3.0;
        if (failed(state, engine.setEdit(edit))) return;
        rowsRecomputed += engine.lastRowsRecomputed();
        benchmark::DoNotOptimize(engine.result().output.data());
        benchmark::ClobberMemory();
    }
    state.counters["rows_recomputed"] =
        benchmark::Counter(static_cast<double>(rowsRecomputed), benchmark::Counter::kAvgIterations);
}

template <typename Fn, std::size_t N>
void registerSizes(const std::string& name, Fn fn, attn::Mode mode,
                   const std::array<long, N>& sizes)
{
    benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(name.c_str(), fn, mode);
    b->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime();
    // With repetitions, also report the fastest repetition: on a shared machine it is the
    // figure least disturbed by other processes.
    b->ComputeStatistics("min", [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
    });
    for (const long n : sizes) b->Arg(n);
}

template <typename T>
void registerType()
{
    for (const attn::Mode mode : {attn::Mode::Self, attn::Mode::Causal}) {
        const std::string suffix = std::string("/") + modeName(mode) + "/" + typeName<T>();
        registerSizes("compute" + suffix, benchCompute<T>, mode, kComputeSizes);
    }
    for (const attn::Mode mode : {attn::Mode::Self, attn::Mode::Causal}) {
        const std::string suffix = std::string("/") + modeName(mode) + "/" + typeName<T>();
        registerSizes("full" + suffix, benchFullRecompute<T>, mode, kEditSizes);
        registerSizes("key_edit" + suffix, benchKeyEdit<T>, mode, kEditSizes);
    }
}

const char* envOr(const char* name, const char* fallback)
{
    const char* value = std::getenv(name);
    return value != nullptr ? value : fallback;
}

}  // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::AddCustomContext("OMP_NUM_THREADS", envOr("OMP_NUM_THREADS", "(unset)"));
    benchmark::AddCustomContext("d_model=d_k=d_v", std::to_string(kDim));
    registerType<float>();
    registerType<double>();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
