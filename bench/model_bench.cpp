// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_model_bench: opening a real checkpoint and running attn::model::forward on it. Not a
// test; bench/model_compare.sh (GPT-2) and bench/decoder_compare.sh (Llama-family decoders) run
// it beside the PyTorch peers (torch_peer.py, torch_decoder_peer.py).
//
//   attnlab_model_bench FOLDER [--tokens 128,512] [--reps 5] [--warmup 1] [--all-logits]
//                              [--parts] [--pool-above N] [--serve]
//   attnlab_model_bench --gemm [--reps 9]  |  attnlab_model_bench --gemm-weights [--reps 9]
//
// Prints one JSON object per measurement, prefixed with "RESULT " (lines starting with "#" are
// information):
//   open       Model::load's wall time, and the process's resident memory (VmRSS, and its
//              file-backed and anonymous parts) before and after it, its peak so far
//              (getrusage's ru_maxrss), the size of the weights on disk (every shard) and the
//              bytes converted or copied out of the mapping
//   tokenizer  attn::tok::loadTokenizer's wall time (if there is vocab.json or tokenizer.json)
//   forward    per token count: the times of `reps` forward passes (every head's attention of
//              every layer kept; logits for the last position only unless --all-logits), after
//              `warmup` ones (timed apart: the process's first pass also maps the weights'
//              pages, which the open left untouched); ids are (i * 7919) mod V, as in the peers.
//              The previous pass's result is freed before each pass, so that the peak holds
//              one result, as a window does
//   check      per token count: the last position's 5 most likely ids and its first 8 logits
//              (the peers print the same, to compare)
//   parts      with --parts, per token count: the median time of each stage of the pass
//              (bench/model_parts.cpp), and which GEMM kernel ran
//   memory     resident memory after the forward passes, with the last pass's result alive
//              (result_bytes: its matrices' floats: every map, every layer's input, the final
//              states and logits), and the process's peak resident memory (ru_maxrss)
// --serve: the passes are asked for one at a time, so that a compare script can interleave them
// with the peer's (bench/serve.sh). After the warm-ups of every token count it prints "READY";
// then each line read from stdin names a token count, whose pass is timed and answered with
// "SERVED N MS". At the end of stdin the forward, check and memory lines follow, of the passes
// served (--reps is not used).
// --gemm and --gemm-weights time the kernels alone (bench/gemm_bench.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <omp.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <variant>
#include <vector>

#include "bench/gemm_bench.h"
#include "bench/model_parts.h"
#include "core/kernels/gemm.h"
#include "core/memory_advice.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenize/tokenizer_loader.h"

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// VmRSS, RssFile and RssAnon of this process, in kB (Linux /proc/self/status).
struct Resident {
    long total = 0, file = 0, anon = 0;
};

Resident resident()
{
    Resident r;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        std::istringstream fields(line);
        std::string key;
        long value = 0;
        if (!(fields >> key >> value)) continue;
        if (key == "VmRSS:") r.total = value;
        if (key == "RssFile:") r.file = value;
        if (key == "RssAnon:") r.anon = value;
    }
    return r;
}

std::string json(const Resident& r, const char* prefix)
{
    std::ostringstream s;
    s << '"' << prefix << "_rss_kb\": " << r.total << ", \"" << prefix
      << "_rss_file_kb\": " << r.file << ", \"" << prefix << "_rss_anon_kb\": " << r.anon;
    return s.str();
}

// The process's peak resident memory so far, in kB.
long peakResidentKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

std::vector<long> parseList(const std::string& text)
{
    std::vector<long> out;
    std::stringstream s(text);
    std::string item;
    while (std::getline(s, item, ',')) out.push_back(std::stol(item));
    return out;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: attnlab_model_bench FOLDER [--tokens 128,512] [--reps 5] "
                 "[--warmup 1] [--all-logits] [--parts] [--pool-above N] [--serve]\n"
                 "       attnlab_model_bench --gemm [--reps 9]\n"
                 "       attnlab_model_bench --gemm-weights [--reps 9]\n");
    return 2;
}

struct BenchOptions {  // the options after the checkpoint folder
    std::vector<long> tokens{128, 512};
    int reps = 5;
    int warmup = 1;
    bool allLogits = false;
    bool parts = false;
    bool serve = false;
    long poolAbove = 0;
};

bool parseOptions(int argc, char** argv, BenchOptions& o)
{
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--tokens" && hasValue)
            o.tokens = parseList(argv[++i]);
        else if (arg == "--reps" && hasValue)
            o.reps = std::atoi(argv[++i]);
        else if (arg == "--warmup" && hasValue)
            o.warmup = std::atoi(argv[++i]);
        else if (arg == "--all-logits")
            o.allLogits = true;
        else if (arg == "--parts")
            o.parts = true;
        else if (arg == "--serve")
            o.serve = true;
        else if (arg == "--pool-above" && hasValue)
            o.poolAbove = std::atol(argv[++i]);
        else
            return false;
    }
    return true;
}

// Opens the checkpoint and prints the "open" line: how long, how large, what it cost in memory.
bool openModel(const std::string& folder, attn::model::Model& model)
{
    const Resident before = resident();
    const auto start = Clock::now();
    const attn::Status status = attn::model::Model::load(folder, model);
    const double loadMs = msSince(start);
    const Resident opened = resident();
    if (!status.ok()) {
        std::fprintf(stderr, "cannot open %s\n", folder.c_str());
        return false;
    }
    std::uintmax_t fileBytes = 0;
    std::size_t copiedBytes = 0;
    for (const attn::model::SafetensorsFile& shard : model.shards()) {
        fileBytes += std::filesystem::file_size(shard.path());
        copiedBytes += shard.copiedBytes();
    }
    const attn::model::ModelConfig& config = model.config();
    std::printf(
        "RESULT {\"what\": \"open\", \"model_type\": \"%s\", \"layers\": %ld, \"heads\": %ld, "
        "\"kv_heads\": %ld, \"head_dim\": %ld, \"load_ms\": %.3f, \"file_bytes\": %llu, "
        "\"shards\": %zu, \"copied_bytes\": %zu, %s, %s, \"after_peak_rss_kb\": %ld}\n",
        config.modelType.c_str(), config.layers, config.heads,
        config.kvHeads > 0 ? config.kvHeads : config.heads, config.headDim(), loadMs,
        static_cast<unsigned long long>(fileBytes), model.shards().size(), copiedBytes,
        json(before, "before").c_str(), json(opened, "after").c_str(), peakResidentKb());
    return true;
}

// The "tokenizer" line, where the folder has a tokenizer: how long it takes to read.
void reportTokenizer(const std::string& folder, const attn::model::ModelConfig& config)
{
    const std::filesystem::path dir(folder);
    if (!std::filesystem::exists(dir / "vocab.json") &&
        !std::filesystem::exists(dir / "tokenizer.json"))
        return;
    const std::string type =
        std::filesystem::exists(dir / "vocab.json") ? "gpt2" : config.modelType;
    const auto tokStart = Clock::now();
    const auto tokenizer = attn::tok::loadTokenizer(folder, type);
    const double tokMs = msSince(tokStart);
    std::printf(
        "RESULT {\"what\": \"tokenizer\", \"type\": \"%s\", \"load_ms\": %.3f, "
        "\"ok\": %s}\n",
        type.c_str(), tokMs,
        std::holds_alternative<attn::tok::Tokenizer>(tokenizer) ? "true" : "false");
}

// The passes of one token count: their times, and the check line of the last one.
struct Passes {
    std::vector<double> times, warm;
    std::string check;
};

// One pass of `n` tokens into `kept` (freed first: one result alive at a time), timed into
// `passes` (a warm-up's time apart); false if the pass failed.
bool onePass(const attn::model::Model& model, const BenchOptions& o, long n, bool warmUp,
             attn::model::ForwardResult& kept, Passes& passes)
{
    attn::model::ForwardOptions options;
    options.allLogits = o.allLogits;
    options.poolAbove = o.poolAbove;  // as the model window keeps a long text's maps
    const long vocab = model.config().vocab;
    std::vector<int> ids(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i)
        ids[static_cast<std::size_t>(i)] = static_cast<int>(i * 7919 % vocab);
    kept = {};
    attn::model::ForwardResult result;
    const auto t0 = Clock::now();
    const attn::Status s = attn::model::forward(model, ids, options, result);
    const double ms = msSince(t0);
    if (!s.ok()) {
        std::fprintf(stderr, "forward failed at %ld tokens\n", n);
        return false;
    }
    (warmUp ? passes.warm : passes.times).push_back(ms);
    kept = std::move(result);
    const Eigen::VectorXf last = kept.logits.bottomRows(1).transpose();
    std::ostringstream top, head;
    const auto best = attn::model::topTokens(last, 5);
    for (std::size_t i = 0; i < best.size(); ++i) top << (i ? ", " : "") << best[i].id;
    for (long i = 0; i < std::min<long>(8, last.size()); ++i) head << (i ? ", " : "") << last[i];
    passes.check = "RESULT {\"what\": \"check\", \"tokens\": " + std::to_string(n) +
                   ", \"top5\": [" + top.str() + "], \"logits_head\": [" + head.str() + "]}";
    return true;
}

// The "forward" and "check" lines of `n` tokens.
void printPasses(const BenchOptions& o, long n, const Passes& passes)
{
    std::vector<double> sorted = passes.times;
    std::sort(sorted.begin(), sorted.end());
    std::ostringstream list, warmList;
    for (std::size_t i = 0; i < passes.times.size(); ++i)
        list << (i ? ", " : "") << passes.times[i];
    for (std::size_t i = 0; i < passes.warm.size(); ++i)
        warmList << (i ? ", " : "") << passes.warm[i];
    std::printf(
        "RESULT {\"what\": \"forward\", \"tokens\": %ld, \"all_logits\": %s, "
        "\"median_ms\": %.3f, \"min_ms\": %.3f, \"times_ms\": [%s], \"warmup_ms\": [%s]}\n%s\n",
        n, o.allLogits ? "true" : "false", sorted.empty() ? 0.0 : sorted[sorted.size() / 2],
        sorted.empty() ? 0.0 : sorted.front(), list.str().c_str(), warmList.str().c_str(),
        passes.check.c_str());
    std::fflush(stdout);
}

// --serve: warm-ups, "READY", then one pass per token count read from stdin.
bool serve(const attn::model::Model& model, const BenchOptions& o, attn::model::ForwardResult& kept)
{
    std::map<long, Passes> passes;
    for (const long n : o.tokens)
        for (int r = 0; r < o.warmup; ++r)
            if (!onePass(model, o, n, true, kept, passes[n])) return false;
    std::printf("READY\n");
    std::fflush(stdout);
    std::string line;
    while (std::getline(std::cin, line)) {
        const long n = std::atol(line.c_str());
        if (std::find(o.tokens.begin(), o.tokens.end(), n) == o.tokens.end()) {
            std::fprintf(stderr, "asked for %s tokens, not one of --tokens\n", line.c_str());
            return false;
        }
        if (!onePass(model, o, n, false, kept, passes[n])) return false;
        std::printf("SERVED %ld %.3f\n", n, passes[n].times.back());
        std::fflush(stdout);
    }
    for (const long n : o.tokens) printPasses(o, n, passes[n]);
    return true;
}

// The "memory" line: what the last result holds and the process's resident memory.
void reportMemory(const attn::model::ForwardResult& kept)
{
    std::size_t bytes = attn::model::cachedBytes(kept);
    for (const attn::model::LayerTrace& t : kept.layers)
        for (const auto& p : t.attention)
            bytes += static_cast<std::size_t>(p.size()) * sizeof(float);
    std::printf(
        "RESULT {\"what\": \"memory\", \"tokens\": %zu, \"result_bytes\": %zu, "
        "\"pooled\": %s, %s, \"peak_rss_kb\": %ld}\n",
        kept.ids.size(), bytes,
        !kept.layers.empty() && kept.layers.front().isPooled() ? "true" : "false",
        json(resident(), "after_forward").c_str(), peakResidentKb());
}

}  // namespace

int main(int argc, char** argv)
{
    attn::keepFreedMemoryForReuse();  // as the program does (app/main.cpp)
    if (argc < 2) return usage();
    if (std::string(argv[1]) == "--gemm" || std::string(argv[1]) == "--gemm-weights") {
        const bool hasReps = argc == 4 && std::string(argv[2]) == "--reps";
        if (argc != 2 && !hasReps) return usage();
        const int reps = hasReps ? std::max(1, std::atoi(argv[3])) : 9;
        return std::string(argv[1]) == "--gemm" ? attn::bench::gemmBench(reps)
                                                : attn::bench::gemmWeightsBench(reps);
    }
    const std::string folder = argv[1];
    BenchOptions o;
    if (!parseOptions(argc, argv, o)) return usage();
    std::printf("# attnlab_model_bench: %s, OpenMP threads %d, GEMM kernel %s\n", folder.c_str(),
                omp_get_max_threads(), attn::kernels::gemmPathName(attn::kernels::gemmPath()));
    attn::model::Model model;
    if (!openModel(folder, model)) return 1;
    reportTokenizer(folder, model.config());
    attn::model::ForwardResult kept;  // the last pass's traces stay alive for the memory line
    if (o.serve) {
        if (!serve(model, o, kept)) return 1;
    } else {
        for (const long n : o.tokens) {
            Passes passes;
            for (int r = 0; r < o.warmup + o.reps; ++r)
                if (!onePass(model, o, n, r < o.warmup, kept, passes)) return 1;
            printPasses(o, n, passes);
            if (o.parts) attn::bench::printParts(model, n, o.reps);
        }
    }
    reportMemory(kept);
    return 0;
}
