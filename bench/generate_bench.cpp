// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_generate_bench: a checkpoint writes greedily through attn::model::generate (the
// key/value cache of core/model/decode.h, or of seq2seq_decode.h for an encoder-decoder, whose
// "prompt" is then its source). Not a test; bench/generate_compare.sh runs it beside
// bench/torch_generate_peer.py (the same weights, a cache of PyTorch's own).
//
//   attnlab_generate_bench FOLDER [--prompt 128] [--new 128] [--reps 3] [--warmup 1]
//
// The prompt's ids are (i * 7919) mod V, as in the peers. Prints one "RESULT {json}" line per
// timed generation: the whole time (the prompt's run and every new token), the prompt's run
// alone, new tokens per second over the whole time, the first and the last 16 tokens' times,
// the cache's bytes at the end, and the ids written (the peer writes the same greedily).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/model/generate.h"
#include "core/model/model.h"
#include "core/model/seq2seq_config.h"

namespace {

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Args {
    std::string folder;
    long prompt = 128;
    int fresh = 128;
    int reps = 3;
    int warmup = 1;
};

bool parse(int argc, char** argv, Args& a)
{
    if (argc < 2) return false;
    a.folder = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (k == "--prompt")
            a.prompt = v;
        else if (k == "--new")
            a.fresh = static_cast<int>(v);
        else if (k == "--reps")
            a.reps = static_cast<int>(v);
        else if (k == "--warmup")
            a.warmup = static_cast<int>(v);
        else
            return false;
    }
    return a.prompt > 0 && a.fresh > 16 && a.reps > 0;
}

double sum(const std::vector<double>& v, std::size_t from, std::size_t count)
{
    double s = 0.0;
    for (std::size_t i = from; i < from + count && i < v.size(); ++i) s += v[i];
    return s;
}

// Times `a.reps` generations (after `a.warmup`) of `model` on `prompt`; prints their RESULT
// lines. 0, or 3 when the core refuses.
template <class M, class G>
int timeGenerations(const Args& a, const M& model, const std::vector<int>& prompt)
{
    attn::model::GenerateOptions options;
    options.maxNewTokens = a.fresh;
    for (int r = 0; r < a.warmup + a.reps; ++r) {
        G g;
        std::vector<double> tokenMs;
        const Clock::time_point start = Clock::now();
        if (attn::Status s = attn::model::startGeneration(model, prompt, options, g); !s.ok()) {
            std::fprintf(stderr, "%s\n", attn::describe(s).c_str());
            return 3;
        }
        const Clock::time_point prompted = Clock::now();
        Clock::time_point last = prompted;
        while (!attn::model::generationDone(g, options)) {
            if (attn::Status s = attn::model::generateStep(g, options); !s.ok()) {
                std::fprintf(stderr, "%s\n", attn::describe(s).c_str());
                return 3;
            }
            const Clock::time_point now = Clock::now();
            tokenMs.push_back(msBetween(last, now));
            last = now;
        }
        if (r < a.warmup) continue;
        const double total = msBetween(start, last);
        std::string ids;
        for (const int id : g.generated()) {
            if (!ids.empty()) ids += ',';
            ids += std::to_string(id);
        }
        std::printf(
            "RESULT {\"what\": \"generate\", \"prompt\": %ld, \"new\": %zu, "
            "\"total_ms\": %.3f, \"prompt_ms\": %.3f, \"tokens_per_s\": %.3f, "
            "\"first16_ms\": %.3f, \"last16_ms\": %.3f, \"cache_bytes\": %zu, "
            "\"ids\": [%s]}\n",
            a.prompt, tokenMs.size(), total, msBetween(start, prompted),
            static_cast<double>(tokenMs.size()) / (total / 1000.0), sum(tokenMs, 0, 16),
            sum(tokenMs, tokenMs.size() - 16, 16), g.decoding.cacheBytes(), ids.c_str());
        std::fflush(stdout);
    }
    return 0;
}

template <class M, class G>
int run(const Args& a)
{
    M model;
    if (attn::Status s = M::load(a.folder, model); !s.ok()) {
        std::fprintf(stderr, "%s\n", attn::describe(s).c_str());
        return 3;
    }
    std::vector<int> prompt;
    for (long i = 0; i < a.prompt; ++i)
        prompt.push_back(static_cast<int>((i * 7919) % model.config().vocab));
    return timeGenerations<M, G>(a, model, prompt);
}

}  // namespace

int main(int argc, char** argv)
{
    Args a;
    if (!parse(argc, argv, a)) {
        std::fprintf(stderr,
                     "usage: attnlab_generate_bench FOLDER [--prompt N] [--new N>16] "
                     "[--reps R] [--warmup W]\n");
        return 2;
    }
    if (attn::model::isSeq2SeqType(attn::model::configModelType(a.folder + "/config.json")))
        return run<attn::model::Seq2SeqModel, attn::model::Seq2SeqGeneration>(a);
    return run<attn::model::Model, attn::model::Generation>(a);
}
