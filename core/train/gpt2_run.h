// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training run of a whole model, as `attnlab train-model` and the window's model trainer
// drive it: the model and optimiser from a spec, the data (the induction task or a corpus), a
// learning-rate schedule, and every `evalEvery` steps the measures (copy accuracy for the
// induction task, every head's detector scores), kept for training.json and the curves.
//
// Deterministic: a spec gives the same losses, measures and parameters bit for bit on one
// machine, however often it is measured (the measures draw from streams of their own).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/head_scores.h"
#include "core/train/gpt2_data.h"
#include "core/train/gpt2_train.h"

namespace attn::gpt2 {

enum class DataKind { Induction, Corpus };

struct RunSpec {
    DataKind data = DataKind::Induction;
    std::string corpus;      // the corpus text (UTF-8), for DataKind::Corpus
    std::string corpusName;  // how messages and training.json name it
    long layers = 2;
    long heads = 4;
    long channels = 64;
    long context = 64;
    bool attentionOnly = false;
    // The defaults are the induction recipe (docs/PERFORMANCE.md, "Training a whole model"):
    // GPT-2's initialisation at std 0.1 instead of 0.02 (at 0.02 two layers stay at chance for
    // thousands of steps), Adam at 3e-3 after 100 steps of warm-up, then a cosine decay to a
    // tenth (a constant rate leaves copy accuracy wandering 0.89-0.93 after the phase change),
    // no clipping or weight decay.
    long steps = 3000;
    long batch = 32;
    double learningRate = 3e-3;
    std::uint64_t seed = 1;
    double initStd = 0.1;
    long warmup = 100;           // steps of linear warm-up from 0
    double finalFraction = 0.1;  // cosine decay to this fraction of the rate (1: constant)
    double weightDecay = 0.0;
    double clipNorm = 0.0;  // 0: no clipping
    // The passes' scalar type: float32 trains about twice as fast; Double is the path the
    // gradient checks hold to 1e-12 (the parameters and AdamW are in double either way).
    Precision precision = Precision::Float;
    InductionMix mix;
    long evalEvery = 100;   // measures every N steps and after the last (0: only at the end)
    long probeCount = 256;  // at most; see copyProbeCount
    long detectCount = 8;
};

// The copy probe's sequences: probeCount, but no more than 16,384 tokens of them in all (and at
// least 8 sequences), so that a measure at a long context costs what one at 64 tokens does.
long copyProbeCount(const RunSpec& spec);

// The attention of every head on one input: T queries x S keys per head, row-major (row i =
// query i); S = T for self-attention, the source's length for cross-attention.
struct HeadMaps {
    long layers = 0;
    long heads = 0;
    long T = 0;
    long S = 0;
    std::vector<float> weights;  // [layer][head][T][S]
    [[nodiscard]] const float* at(long layer, long head) const
    {
        return weights.data() + ((layer * heads + head) * T * S);
    }
    [[nodiscard]] bool empty() const { return weights.empty(); }
};

// The measures at one step.
struct Measure {
    long step = 0;
    double loss = 0.0;           // the training loss of that step
    double copyAccuracy = -1.0;  // induction task only
    HeadScoreTable heads;        // per layer, per head
};

class ModelRun {
public:
    using Measure = gpt2::Measure;
    // ConfigField naming a setting outside its range, TooLarge for a run that would hold too
    // much memory or write too large a record (run_limits.h), or the corpus's problem (not
    // UTF-8, too short for one window).
    static Status create(const RunSpec& spec, std::unique_ptr<ModelRun>& out);

    // One step on a fresh batch, then the measures when they are due. NonFinite: the step
    // was refused (the parameters are unchanged).
    Status step();
    [[nodiscard]] bool finished() const { return trainer_.steps() >= spec_.steps; }
    // The learning rate of step k (from 1).
    [[nodiscard]] double rateAt(long k) const;

    // Copy accuracy of the current parameters on the fixed probe (induction only; -1 else).
    [[nodiscard]] double copyAccuracy();
    // The fixed repeated sequences the head scores are measured on: detectCount sequences of
    // context / 2 ids of the data's vocabulary, each followed by the same ids.
    [[nodiscard]] std::vector<std::vector<int>> detectSequences() const;
    // Every head's scores on them.
    [[nodiscard]] HeadScoreTable headScores();
    // Every head's attention on the first of detectSequences(): the induction stripe, the
    // previous-token diagonal and the duplicate-token diagonal show on it as they form. Empty
    // if the forward pass fails.
    [[nodiscard]] HeadMaps liveMaps();
    // Measures now and records them (step() does this when they are due).
    void measure();

    // Threads the trainer may use (the results do not depend on it).
    void setThreads(int threads) { trainer_.setThreads(threads); }
    [[nodiscard]] const RunSpec& spec() const { return spec_; }
    [[nodiscard]] const Trainer& trainer() const { return trainer_; }
    [[nodiscard]] const std::vector<double>& losses() const { return losses_; }
    [[nodiscard]] const std::vector<Measure>& measures() const { return measures_; }
    [[nodiscard]] const CharVocabulary& vocabulary() const { return vocab_; }
    // Wall time spent in the steps themselves (data, forward, backward, update), not in the
    // measures: what the speed benchmark compares.
    [[nodiscard]] double stepSeconds() const { return stepSeconds_; }

    // training.json: who wrote it, the command, the seed, the settings, the loss of every step,
    // the measures and the SHA-256 of each other file of the folder (`digests`, by name).
    [[nodiscard]] std::string trainingJson(
        const std::string& command, double seconds,
        const std::map<std::string, std::string>& digests = {}) const;
    // The Hugging Face GPT-2 folder: config.json, model.safetensors, vocab.json, merges.txt
    // and training.json, written whole (gpt2_export.h: writeModelFolder). FileOpen naming the
    // folder and why it could not be written.
    Status write(const std::string& folder, const std::string& command, double seconds) const;

private:
    ModelRun(const RunSpec& spec, Parameters params, CharVocabulary vocab, std::vector<int> ids);
    RunSpec spec_;
    Trainer trainer_;
    CharVocabulary vocab_;
    std::vector<int> corpusIds_;
    Rng data_;
    std::vector<int> tokens_, targets_;
    CopyProbe probe_;
    std::vector<double> losses_;
    std::vector<Measure> measures_;
    double stepSeconds_ = 0.0;
};

// The vocabulary of the induction task: a..z as ids 0..25.
CharVocabulary letterVocabulary();

}  // namespace attn::gpt2
