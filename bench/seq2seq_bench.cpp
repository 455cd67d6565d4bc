// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_seq2seq_bench: opening an encoder-decoder checkpoint and its teacher-forced forward
// pass (attn::model::forwardSeq2Seq, every map of the three kinds kept, logits for every target
// position). Not a test; bench/seq2seq_compare.sh runs it beside the PyTorch peer
// (seq2seq_torch.py) in one run.
//
//   attnlab_seq2seq_bench FOLDER [--source 128] [--target 128] [--reps 5] [--warmup 1]
//
// Prints one JSON object per measurement, prefixed with "RESULT ":
//   open     Seq2SeqModel::load's wall time and the resident memory after it (kB)
//   forward  the times (ms) of `reps` passes after `warmup` ones; source ids are (i * 7919) mod
//            V and target ids (i * 104729 + 3) mod V, as in the peer; the previous result is
//            freed before each pass
//   check    the first target position's 5 most likely ids and its first 4 logits (the peer
//            prints the same)
//   memory   peak resident memory (ru_maxrss, kB), the weights' bytes on disk and the bytes of
//            the last result's matrices (every map, every layer's input, the logits)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "core/model/seq2seq_forward.h"

namespace {

using Clock = std::chrono::steady_clock;
using attn::model::FloatMatrix;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long peakResidentKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

std::size_t bytesOf(const attn::model::Seq2SeqResult& r)
{
    std::size_t floats = 0;
    for (const auto* stack : {&r.encoder, &r.decoder})
        for (const attn::model::LayerTrace& t : *stack) {
            floats += static_cast<std::size_t>(t.hidden.size());
            for (const FloatMatrix& m : t.attention) floats += static_cast<std::size_t>(m.size());
        }
    for (const auto& layer : r.cross)
        for (const FloatMatrix& m : layer) floats += static_cast<std::size_t>(m.size());
    floats +=
        static_cast<std::size_t>(r.encoderOutput.size() + r.finalHidden.size() + r.logits.size());
    return floats * sizeof(float);
}

std::uintmax_t weightBytes(const attn::model::Seq2SeqModel& model)
{
    std::uintmax_t total = 0;
    for (const auto& f : model.shards()) {
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(f.path(), ec);
        if (!ec) total += size;
    }
    return total;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: attnlab_seq2seq_bench FOLDER [--source 128] [--target 128] [--reps 5] "
                 "[--warmup 1]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) return usage();
    const std::string folder = argv[1];
    long sourceCount = 128, targetCount = 128;
    int reps = 5, warmup = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const long value = std::atol(argv[i + 1]);
        if (key == "--source")
            sourceCount = value;
        else if (key == "--target")
            targetCount = value;
        else if (key == "--reps")
            reps = static_cast<int>(value);
        else if (key == "--warmup")
            warmup = static_cast<int>(value);
        else
            return usage();
    }
    auto t0 = Clock::now();
    attn::model::Seq2SeqModel model;
    if (const attn::Status s = attn::model::Seq2SeqModel::load(folder, model); !s.ok()) {
        std::fprintf(stderr, "%s\n", attn::describe(s).c_str());
        return 1;
    }
    std::printf("RESULT {\"what\": \"open\", \"ms\": %.1f, \"peak_rss_kb\": %ld}\n", msSince(t0),
                peakResidentKb());
    const long vocab = model.config().vocab;
    std::vector<int> source(static_cast<std::size_t>(sourceCount));
    std::vector<int> target(static_cast<std::size_t>(targetCount));
    for (long i = 0; i < sourceCount; ++i)
        source[static_cast<std::size_t>(i)] = static_cast<int>((i * 7919) % vocab);
    for (long i = 0; i < targetCount; ++i)
        target[static_cast<std::size_t>(i)] = static_cast<int>((i * 104729 + 3) % vocab);
    std::vector<double> ms;
    auto result = std::make_unique<attn::model::Seq2SeqResult>();
    for (int r = 0; r < warmup + reps; ++r) {
        result.reset();
        result = std::make_unique<attn::model::Seq2SeqResult>();
        t0 = Clock::now();
        const attn::Status s = attn::model::forwardSeq2Seq(model, source, target,
                                                           attn::model::Seq2SeqOptions(), *result);
        const double took = msSince(t0);
        if (!s.ok()) {
            std::fprintf(stderr, "%s\n", attn::describe(s).c_str());
            return 1;
        }
        if (r >= warmup) ms.push_back(took);
    }
    std::string times;
    for (double v : ms) times += (times.empty() ? "" : ", ") + std::to_string(v);
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf(
        "RESULT {\"what\": \"forward\", \"source\": %ld, \"target\": %ld, \"ms\": [%s], "
        "\"median_ms\": %.2f}\n",
        sourceCount, targetCount, times.c_str(), sorted[sorted.size() / 2]);
    const auto& top = result->predictions.front().top;
    std::string ids;
    for (std::size_t k = 0; k < std::min<std::size_t>(5, top.size()); ++k)
        ids += (k ? ", " : "") + std::to_string(top[k].id);
    std::printf(
        "RESULT {\"what\": \"check\", \"top5\": [%s], \"logits\": [%.5f, %.5f, %.5f, "
        "%.5f]}\n",
        ids.c_str(), static_cast<double>(result->logits(0, 0)),
        static_cast<double>(result->logits(0, 1)), static_cast<double>(result->logits(0, 2)),
        static_cast<double>(result->logits(0, 3)));
    std::printf(
        "RESULT {\"what\": \"memory\", \"peak_rss_kb\": %ld, \"weights_bytes\": %ju, "
        "\"result_bytes\": %zu}\n",
        peakResidentKb(), weightBytes(model), bytesOf(*result));
    return 0;
}
