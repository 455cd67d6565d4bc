// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_long_bench: the long-sequence path (core/long_attention.h, float, only P kept) at
// n = 4,096 … 32,768 with d_model = d_k = d_v = 64, self and causal, beside the full path
// (every stage in double) where that fits the budget. Prints one line per case: the best wall
// time of its runs, the bytes the path holds by its own estimate, and the process's peak
// resident memory after it (getrusage: it only grows, so run one size per process to read a
// size's own peak).
//
//   attnlab_long_bench [N ...]     default 4096 8192 16384 32768
//   REPS=3                         runs per case below n = 16,384 (one run from there on)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "core/attention.h"
#include "core/long_attention.h"
#include "core/memory_advice.h"
#include "core/random_init.h"

namespace {

double peakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

double mib(std::size_t bytes)
{
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

template <typename F>
double bestSeconds(int reps, const F& run)
{
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        const auto start = std::chrono::steady_clock::now();
        if (!run()) return -1.0;
        const auto stop = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(stop - start).count());
    }
    return best;
}

}  // namespace

int main(int argc, char** argv)
{
    attn::keepFreedMemoryForReuse();  // as the program does (app/main.cpp)
    std::vector<long> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::strtol(argv[i], nullptr, 10));
    if (sizes.empty()) sizes = {4096, 8192, 16384, 32768};
    const char* repsText = std::getenv("REPS");
    const int reps = repsText ? std::max(1, std::atoi(repsText)) : 3;
    const attn::Limits budget;  // 6 GiB
    std::printf("%-7s %-6s %-22s %10s %12s %12s\n", "n", "mode", "path", "seconds", "holds MiB",
                "peak RSS MiB");
    for (long n : sizes) {
        for (attn::Mode mode : {attn::Mode::Self, attn::Mode::Causal}) {
            attn::RandomSpec spec;
            spec.n = spec.m = n;
            spec.dModel = spec.dK = spec.dV = 64;
            spec.mode = mode;
            const attn::AttentionInput in = attn::randomInput(spec);
            const char* modeName = mode == attn::Mode::Self ? "self" : "causal";
            const int r = n >= 16384 ? 1 : reps;
            {
                attn::LongResult result;
                attn::Status status;
                const double s = bestSeconds(r, [&] {
                    status = attn::computeLongAttention(in, result, budget).status;
                    return status.ok();
                });
                if (s < 0)
                    std::printf("%-7ld %-6s %-22s refused: %s\n", n, modeName,
                                "float, weights only", attn::describe(status).c_str());
                else
                    std::printf("%-7ld %-6s %-22s %10.3f %12.0f %12.0f\n", n, modeName,
                                "float, weights only", s, mib(attn::estimateLongBytes(in)),
                                peakRssMiB());
                // An edit as the long-session window computes it: a key scaled, recomputed
                // into the shown result's memory (no fresh pages to clear).
                if (s >= 0) {
                    attn::AttentionInput edited = in;
                    edited.edits.push_back(attn::VectorEdit{attn::Role::Key, 0, 1, 2.0, {}});
                    const double e = bestSeconds(r, [&] {
                        return attn::computeLongAttention(edited, result, budget, {}, &result).ok();
                    });
                    std::printf("%-7ld %-6s %-22s %10.3f %12.0f %12.0f\n", n, modeName,
                                "float, edit in place", e, mib(attn::estimateLongBytes(in)),
                                peakRssMiB());
                }
            }
            const std::size_t fullBytes = attn::estimateBytes(in, sizeof(double));
            if (fullBytes > budget.maxBytes) {
                std::printf("%-7ld %-6s %-22s %10s %12.0f %12s\n", n, modeName,
                            "double, every stage", "over budget", mib(fullBytes), "-");
                continue;
            }
            attn::AttentionResult full;
            const double s = bestSeconds(r, [&] {
                full = attn::AttentionResult{};
                return attn::computeAttention<double>(in, full, budget).ok();
            });
            std::printf("%-7ld %-6s %-22s %10.3f %12.0f %12.0f\n", n, modeName,
                        "double, every stage", s, mib(fullBytes), peakRssMiB());
        }
    }
    return 0;
}
