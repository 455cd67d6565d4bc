// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab_train_bench: the speed of learning the projections.
//
//   steps   Adam steps per second on one thread, previous-token task, one head:
//           n = 8, d_model = 8, d_k = 4 and n = 64, d_model = 32, d_k = 16; one sequence per
//           step and the trainer's default of eight.
//   ratio   backward() against computeAttention() at n = 512, d = 64 (one head, self and
//           causal, float and double), one thread, the loss a cross-entropy to a random
//           pattern: medians of interleaved repetitions, and their ratio.
//   gpt2    with the argument `gpt2` only: the GPT-2 trainer's milliseconds per step, in
//           double and in float, of the default induction-head model (2 attention-only
//           layers, C = 64, H = 4, T = 64, V = 26, B = 32; median of 9 rounds of 10 steps)
//           and of a bigger full model (4 layers with MLPs, C = 256, H = 4, T = 256, V = 26,
//           B = 32; median of 5 rounds of 1 step). ATTNLAB_TRAIN_THREADS=n sets its threads.
//
// Usage: attnlab_train_bench [REPS]   (default 15)
//        attnlab_train_bench gpt2
// Prints one line per figure.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <vector>

#include "core/random_init.h"
#include "core/train/gpt2_train.h"
#include "core/train/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void stepsPerSecond(long n, long dModel, long dK, int examples, int reps)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = dModel;
    spec.dK = dK;
    spec.dV = dK;
    spec.seed = 2;
    attn::AttentionInput session = attn::randomInput(spec);
    session.W_O.resize(0, 0);
    attn::TaskSpec task;
    task.n = n;
    task.dModel = dModel;
    task.examples = examples;
    std::vector<double> rates;
    for (int r = 0; r < reps; ++r) {
        std::vector<attn::TrainExample> ex;
        (void)attn::makeTask(task, ex);
        attn::Trainer t;
        if (!attn::Trainer::create(session, attn::TaskKind::PreviousToken, ex, {}, t).ok()) {
            std::printf("steps: could not create the trainer\n");
            return;
        }
        const int steps = n <= 8 ? 2000 : 200;
        const auto start = Clock::now();
        for (int k = 0; k < steps; ++k) (void)t.step();
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        rates.push_back(steps / s);
    }
    std::printf(
        "steps n=%ld d_model=%ld d_k=%ld sequences/step=%d: %.0f Adam steps/s (median of "
        "%d)\n",
        n, dModel, dK, examples, median(rates), reps);
}

template <typename T>
void ratio(attn::Mode mode, int reps)
{
    attn::RandomSpec spec;
    spec.n = 512;
    spec.m = 512;
    spec.dModel = 64;
    spec.dK = 64;
    spec.dV = 64;
    spec.mode = mode;
    spec.seed = 3;
    attn::AttentionInput in = attn::randomInput(spec);
    in.W_O.resize(0, 0);
    attn::Rng rng(4);
    attn::LossSpec loss;
    attn::Matrix pattern = attn::randomNormal(512, 512, rng).cwiseAbs();
    if (mode == attn::Mode::Causal)
        pattern = pattern.template triangularView<Eigen::Lower>().toDenseMatrix();
    loss.patterns.push_back({0, pattern});
    std::vector<double> fwd;
    std::vector<double> bwd;
    attn::AttentionResultT<T> result;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        (void)attn::computeAttention<T>(in, result);
        auto t1 = Clock::now();
        attn::LossValueT<T> value;
        attn::CotangentT<T> cot;
        (void)attn::evaluateLoss<T>(in, result, loss, value, &cot);
        attn::GradientsT<T> g;
        auto t2 = Clock::now();
        (void)attn::backward<T>(in, result, cot, g);
        auto t3 = Clock::now();
        fwd.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        bwd.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
    }
    const double f = median(fwd);
    const double b = median(bwd);
    std::printf(
        "ratio n=512 d=64 %s %s: forward %.2f ms, backward %.2f ms, backward/forward "
        "%.2f (median of %d)\n",
        mode == attn::Mode::Causal ? "causal" : "self", sizeof(T) == 4 ? "float" : "double", f, b,
        b / f, reps);
}

// The GPT-2 trainer's speed on `c` with batches of B sequences of T random tokens, in double and
// in float. The machine may be shared: each figure is the median of `rounds` rounds of `steps`
// steps.
bool gpt2Speed(const attn::gpt2::Config& c, long B, long T, int rounds, int steps)
{
    using attn::gpt2::Precision;
    std::vector<int> tokens(static_cast<std::size_t>(B * T));
    std::vector<int> targets(tokens.size());
    attn::Rng rng(9);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        tokens[i] = static_cast<int>(rng.uniform() * static_cast<double>(c.vocab));
        targets[i] = static_cast<int>(rng.uniform() * static_cast<double>(c.vocab));
    }
    for (Precision precision : {Precision::Double, Precision::Float}) {
        attn::gpt2::Parameters params;
        if (!attn::gpt2::makeParameters(c, params).ok()) return false;
        attn::gpt2::initialise(params, 1, 0.02);
        attn::gpt2::Trainer trainer(std::move(params), {}, precision);
        if (const char* threads = std::getenv("ATTNLAB_TRAIN_THREADS"))
            trainer.setThreads(std::atoi(threads));
        double loss = 0.0;
        if (!trainer.step({tokens, targets, B, T}, loss).ok()) return false;  // sizes the buffers
        std::vector<double> msPerStep;
        for (int r = 0; r < rounds; ++r) {
            const auto start = Clock::now();
            for (int k = 0; k < steps; ++k)
                if (!trainer.step({tokens, targets, B, T}, loss).ok()) return false;
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            msPerStep.push_back(1000 * seconds / steps);
        }
        std::sort(msPerStep.begin(), msPerStep.end());
        const double mid = msPerStep[msPerStep.size() / 2];
        std::printf(
            "gpt2 L=%ld C=%ld T=%ld B=%ld%s %s, %d threads: median %.2f ms/step (%.1f steps/s; "
            "%d rounds of %d, fastest %.2f, slowest %.2f)\n",
            c.layers, c.channels, T, B, c.attentionOnly ? " attention-only" : "",
            precision == Precision::Double ? "double" : "float ", trainer.threads(), mid,
            1000 / mid, rounds, steps, msPerStep.front(), msPerStep.back());
    }
    return true;
}

int gpt2Figures()
{
    attn::gpt2::Config induction;
    induction.vocab = 26;
    induction.maxT = 64;
    induction.layers = 2;
    induction.heads = 4;
    induction.channels = 64;
    induction.attentionOnly = true;
    attn::gpt2::Config full;
    full.vocab = 26;
    full.maxT = 256;
    full.layers = 4;
    full.heads = 4;
    full.channels = 256;
    if (gpt2Speed(induction, 32, 64, 9, 10) && gpt2Speed(full, 32, 256, 5, 1)) return 0;
    std::printf("gpt2: a training step failed\n");
    return 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "gpt2") == 0) return gpt2Figures();
    const int reps = argc > 1 ? std::max(3, std::atoi(argv[1])) : 15;
    omp_set_num_threads(1);
    stepsPerSecond(8, 8, 4, 1, reps);
    stepsPerSecond(8, 8, 4, 8, reps);
    stepsPerSecond(64, 32, 16, 1, reps);
    stepsPerSecond(64, 32, 16, 8, reps);
    ratio<float>(attn::Mode::Self, reps);
    ratio<float>(attn::Mode::Causal, reps);
    ratio<double>(attn::Mode::Self, reps);
    ratio<double>(attn::Mode::Causal, reps);
    return 0;
}
