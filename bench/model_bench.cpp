// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_model_bench: opening a real checkpoint and running attn::model::forward on it. Not a
// test; bench/model_compare.sh (GPT-2) and bench/decoder_compare.sh (Llama-family decoders) run
// it beside the PyTorch peers (torch_peer.py, torch_decoder_peer.py).
//
//   attnlab_model_bench FOLDER [--tokens 128,512] [--reps 5] [--warmup 1] [--all-logits]
//                              [--parts] [--pool-above N]
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
// --gemm needs no checkpoint: y = x W + b on the model's shapes with random weights, through
// applyDense (the packed SGEMM) and applyDenseEigen (Eigen's product, split by columns), on 1
// and 2 OpenMP threads; one "gemm" line each with GFLOP/s of the best and the median pass
// (2 n in out flops a pass), after one warm-up.
// --gemm-weights needs no checkpoint either: kernels::gemmWeights on BF16 and F16 weights against
// kernels::sgemm on the same weights in F32, on the Llama-family layout (nn.Linear, [out, in]) at
// in = 1024 (Qwen3-0.6B's width): n = 1, 128, 512 rows, out = 1024, 3072, and the lm_head of one
// row against a 151,936-token vocabulary. One-row products read every weight once, as the typing
// path does, so each pass cycles through enough distinct copies of W (at least 256 MiB of F32) that
// it comes from memory, not the cache; the time is per product. The formats take turns within
// each of `reps` rounds (after one warm-up round), so that other load meets them alike; the
// table gives ms best (median) and the time ratio of the best passes and the median of the
// rounds' ratios. One "gemm_weights" line each, on the threads OMP_NUM_THREADS gives.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <omp.h>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <variant>
#include <vector>

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
                 "[--warmup 1] [--all-logits] [--parts] [--pool-above N]\n"
                 "       attnlab_model_bench --gemm [--reps 9]\n"
                 "       attnlab_model_bench --gemm-weights [--reps 9]\n");
    return 2;
}

struct GemmShape {
    long n, in, out;
    bool outByIn;
    const char* what;
};

int gemmBench(int reps)
{
    const GemmShape shapes[] = {
        {512, 768, 3072, false, "GPT-2 mlp.c_fc, 512 tokens"},
        {512, 3072, 768, false, "GPT-2 mlp.c_proj, 512 tokens"},
        {128, 768, 2304, false, "GPT-2 attn.c_attn, 128 tokens"},
        {128, 768, 3072, false, "GPT-2 mlp.c_fc, 128 tokens"},
        {512, 768, 768, true, "nn.Linear (BERT), 512 tokens"},
        {1, 768, 3072, false, "GPT-2 mlp.c_fc, one new token"},
        {1, 768, 50257, true, "GPT-2 logits, last position"},
    };
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    std::printf(
        "| shape n x in x out | B | threads | ours GFLOP/s best (median) | "
        "Eigen GFLOP/s best (median) | ours / Eigen time |\n|---|---|---|---|---|---|\n");
    for (const GemmShape& s : shapes) {
        std::vector<float> w(static_cast<std::size_t>(s.in * s.out)), bias(s.out);
        for (float& v : w) v = dist(gen);
        for (float& v : bias) v = dist(gen);
        attn::model::FloatMatrix x(s.n, s.in);
        for (long i = 0; i < x.size(); ++i) x.data()[i] = dist(gen);
        attn::model::Dense dense;
        dense.weight = w.data();
        dense.bias = bias.data();
        dense.in = s.in;
        dense.out = s.out;
        dense.outByIn = s.outByIn;
        const double flops =
            2.0 * static_cast<double>(s.n) * static_cast<double>(s.in) * static_cast<double>(s.out);
        for (const int threads : {1, 2}) {
            omp_set_num_threads(threads);
            double best[2], median[2];
            for (int which = 0; which < 2; ++which) {
                attn::model::FloatMatrix y;
                std::vector<double> ms;
                for (int r = 0; r <= reps; ++r) {
                    const auto t0 = Clock::now();
                    if (which == 0)
                        attn::model::applyDense(x, dense, y);
                    else
                        attn::model::applyDenseEigen(x, dense, y);
                    if (r > 0) ms.push_back(msSince(t0));
                }
                std::sort(ms.begin(), ms.end());
                best[which] = flops / ms.front() * 1e-6;
                median[which] = flops / ms[ms.size() / 2] * 1e-6;
            }
            std::printf("| %ld x %ld x %ld | %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.2f |\n", s.n,
                        s.in, s.out, s.outByIn ? "[out,in]" : "[in,out]", threads, best[0],
                        median[0], best[1], median[1], median[1] / median[0]);
            std::printf(
                "RESULT {\"what\": \"gemm\", \"shape\": \"%s\", \"n\": %ld, \"in\": %ld, "
                "\"out\": %ld, \"out_by_in\": %s, \"threads\": %d, \"ours_gflops_best\": %.2f, "
                "\"ours_gflops_median\": %.2f, \"eigen_gflops_best\": %.2f, "
                "\"eigen_gflops_median\": %.2f}\n",
                s.what, s.n, s.in, s.out, s.outByIn ? "true" : "false", threads, best[0], median[0],
                best[1], median[1]);
            std::fflush(stdout);
        }
    }
    return 0;
}

// Float to bfloat16 or IEEE half, rounded to nearest even (finite, normal inputs: the bench's
// weights are uniform in +-0.1).
std::uint16_t narrow(float x, attn::kernels::WeightFormat format)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    if (format == attn::kernels::WeightFormat::BF16)
        return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127 + 15;
    std::uint32_t mantissa = bits & 0x7fffffu;
    if (exponent <= 0) {  // a half subnormal: shift the implicit 1 in, round to nearest even
        if (exponent < -10) return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - exponent;
        const std::uint32_t half = 1u << (shift - 1);
        const std::uint32_t rest = mantissa & ((1u << shift) - 1);
        std::uint32_t out = mantissa >> shift;
        if (rest > half || (rest == half && (out & 1u) != 0)) ++out;
        return static_cast<std::uint16_t>(sign | out);
    }
    std::uint32_t out = (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (out & 1u) != 0)) ++out;
    return static_cast<std::uint16_t>(sign | out);
}

struct WeightsShape {
    long n, in, out;
    const char* what;
};

// One shape's row of the table and its RESULT lines: each format's best and median time, and
// its time against F32's, best and median over the rounds.
void printWeightsRow(const WeightsShape& s, long copies, std::vector<double> (&ms)[3],
                     std::vector<double> (&ratio)[3])
{
    const char* const formatNames[] = {"F32 (sgemm)", "BF16", "F16"};
    double best[3], median[3], ratioMedian[3];
    for (int f = 0; f < 3; ++f) {
        std::sort(ms[f].begin(), ms[f].end());
        std::sort(ratio[f].begin(), ratio[f].end());
        best[f] = ms[f].front();
        median[f] = ms[f][ms[f].size() / 2];
        ratioMedian[f] = ratio[f][ratio[f].size() / 2];
    }
    std::printf(
        "| %ld x %ld x %ld | %ld | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.2f (%.2f) | "
        "%.2f (%.2f) |\n",
        s.n, s.in, s.out, copies, best[0], median[0], best[1], median[1], best[2], median[2],
        best[1] / best[0], ratioMedian[1], best[2] / best[0], ratioMedian[2]);
    for (int f = 0; f < 3; ++f)
        std::printf(
            "RESULT {\"what\": \"gemm_weights\", \"shape\": \"%s\", \"n\": %ld, "
            "\"in\": %ld, \"out\": %ld, \"format\": \"%s\", \"copies\": %ld, "
            "\"threads\": %d, \"ms_best\": %.4f, \"ms_median\": %.4f}\n",
            s.what, s.n, s.in, s.out, formatNames[f], copies, omp_get_max_threads(), best[f],
            median[f]);
}

int gemmWeightsBench(int reps)
{
    using attn::kernels::WeightFormat;
    const WeightsShape shapes[] = {
        {1, 1024, 1024, "q/o_proj, one new token"},  {1, 1024, 3072, "gate/up_proj, one new token"},
        {128, 1024, 1024, "q/o_proj, 128 tokens"},   {128, 1024, 3072, "gate/up_proj, 128 tokens"},
        {512, 1024, 1024, "q/o_proj, 512 tokens"},   {512, 1024, 3072, "gate/up_proj, 512 tokens"},
        {1, 1024, 151936, "lm_head, last position"},
    };
    const WeightFormat formats[] = {WeightFormat::F32, WeightFormat::BF16, WeightFormat::F16};
    constexpr double kColdBytes = 256.0 * (1 << 20);
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    std::printf("# gemm-weights: path %s, OpenMP threads %d; W as [out, in]\n",
                attn::kernels::gemmPathName(attn::kernels::gemmPath()), omp_get_max_threads());
    std::printf(
        "| n x in x out | copies of W | F32 sgemm ms best (median) | BF16 ms | F16 ms | "
        "BF16 / F32 time: best (median round) | F16 / F32 "
        "|\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (const WeightsShape& s : shapes) {
        const std::size_t count = static_cast<std::size_t>(s.in * s.out);
        const double f32Bytes = 4.0 * static_cast<double>(count);
        const long copies =
            s.n == 1 ? std::max(1L, static_cast<long>(std::ceil(kColdBytes / f32Bytes))) : 1;
        std::vector<float> w(count * static_cast<std::size_t>(copies));
        for (float& v : w) v = dist(gen);
        std::vector<std::uint16_t> halves[2];
        for (int h = 0; h < 2; ++h) {
            halves[h].resize(w.size());
            for (std::size_t i = 0; i < w.size(); ++i) halves[h][i] = narrow(w[i], formats[h + 1]);
        }
        std::vector<float> bias(static_cast<std::size_t>(s.out));
        for (float& v : bias) v = dist(gen);
        std::vector<float> x(static_cast<std::size_t>(s.n * s.in));
        for (float& v : x) v = dist(gen);
        std::vector<float> y(static_cast<std::size_t>(s.n * s.out));
        // Rounds: the three formats one after the other, so that other load on the machine
        // meets them alike; a ratio is taken within each round.
        std::vector<double> ms[3], ratio[3];
        for (int r = 0; r <= reps; ++r) {
            double round[3];
            for (int f = 0; f < 3; ++f) {
                const auto t0 = Clock::now();
                for (long copy = 0; copy < copies; ++copy) {
                    const std::size_t at = static_cast<std::size_t>(copy) * count;
                    const void* weights = f == 0
                                              ? static_cast<const void*>(w.data() + at)
                                              : static_cast<const void*>(halves[f - 1].data() + at);
                    attn::kernels::gemmWeights(s.n, s.in, s.out, x.data(), s.in, weights,
                                               formats[f], s.in, true, bias.data(), y.data(),
                                               s.out);
                }
                round[f] = msSince(t0) / static_cast<double>(copies);
            }
            if (r == 0) continue;  // the warm-up
            for (int f = 0; f < 3; ++f) {
                ms[f].push_back(round[f]);
                ratio[f].push_back(round[f] / round[0]);
            }
        }
        printWeightsRow(s, copies, ms, ratio);
        std::fflush(stdout);
    }
    return 0;
}

struct BenchOptions {  // the options after the checkpoint folder
    std::vector<long> tokens{128, 512};
    int reps = 5;
    int warmup = 1;
    bool allLogits = false;
    bool parts = false;
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

// The "forward" and "check" lines of `n` tokens; `kept` holds the last pass's result.
bool timeForward(const attn::model::Model& model, const BenchOptions& o, long n,
                 attn::model::ForwardResult& kept)
{
    attn::model::ForwardOptions options;
    options.allLogits = o.allLogits;
    options.poolAbove = o.poolAbove;  // as the model window keeps a long text's maps
    const long vocab = model.config().vocab;
    std::vector<int> ids(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i)
        ids[static_cast<std::size_t>(i)] = static_cast<int>(i * 7919 % vocab);
    std::vector<double> times, warm;
    for (int r = 0; r < o.warmup + o.reps; ++r) {
        kept = {};  // one result alive at a time
        attn::model::ForwardResult result;
        const auto t0 = Clock::now();
        const attn::Status s = attn::model::forward(model, ids, options, result);
        const double ms = msSince(t0);
        if (!s.ok()) {
            std::fprintf(stderr, "forward failed at %ld tokens\n", n);
            return false;
        }
        (r >= o.warmup ? times : warm).push_back(ms);
        kept = std::move(result);
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    std::ostringstream list, warmList;
    for (std::size_t i = 0; i < times.size(); ++i) list << (i ? ", " : "") << times[i];
    for (std::size_t i = 0; i < warm.size(); ++i) warmList << (i ? ", " : "") << warm[i];
    std::printf(
        "RESULT {\"what\": \"forward\", \"tokens\": %ld, \"all_logits\": %s, "
        "\"median_ms\": %.3f, \"min_ms\": %.3f, \"times_ms\": [%s], \"warmup_ms\": [%s]}\n",
        n, o.allLogits ? "true" : "false", sorted[sorted.size() / 2], sorted.front(),
        list.str().c_str(), warmList.str().c_str());
    const Eigen::VectorXf last = kept.logits.bottomRows(1).transpose();
    std::ostringstream top, head;
    const auto best = attn::model::topTokens(last, 5);
    for (std::size_t i = 0; i < best.size(); ++i) top << (i ? ", " : "") << best[i].id;
    for (long i = 0; i < std::min<long>(8, last.size()); ++i) head << (i ? ", " : "") << last[i];
    std::printf(
        "RESULT {\"what\": \"check\", \"tokens\": %ld, \"top5\": [%s], "
        "\"logits_head\": [%s]}\n",
        n, top.str().c_str(), head.str().c_str());
    std::fflush(stdout);
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
        return std::string(argv[1]) == "--gemm" ? gemmBench(reps) : gemmWeightsBench(reps);
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
    for (const long n : o.tokens) {
        if (!timeForward(model, o, n, kept)) return 1;
        if (o.parts) attn::bench::printParts(model, n, o.reps);
    }
    reportMemory(kept);
    return 0;
}
