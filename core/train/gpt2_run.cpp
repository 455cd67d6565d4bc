// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/gpt2_run.h"

#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>

#include "core/io/sha256.h"
#include "core/kernels/gemm.h"
#include "core/model/model_folder.h"
#include "core/train/gpt2_export.h"
#include "core/train/run_limits.h"

namespace attn::gpt2 {

namespace {

// The streams the run draws from, apart from the initialisation (seed itself): the data, and
// the measures' fixed sequences (the same for every seed, so that runs compare).
constexpr std::uint64_t kDataStream = 0xD1B54A32D192ED03ULL;
constexpr std::uint64_t kProbeSeed = 20220308;   // copy-accuracy probe
constexpr std::uint64_t kDetectSeed = 20220309;  // repeated sequences of the head scores

nlohmann::ordered_json scoresJson(const HeadScoreTable& table)
{
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const auto& layer : table) {
        nlohmann::ordered_json heads = nlohmann::ordered_json::array();
        for (const HeadScores& s : layer) {
            nlohmann::ordered_json h = nlohmann::ordered_json::object();
            for (HeadKind k : kHeadKinds) h[headKindKey(k)] = scoreOf(s, k);
            heads.push_back(h);
        }
        layers.push_back({{"heads", heads}});
    }
    return layers;
}

}  // namespace

CharVocabulary letterVocabulary()
{
    CharVocabulary v;
    (void)buildCharVocabulary("abcdefghijklmnopqrstuvwxyz", "letters", v);
    return v;
}

long copyProbeCount(const RunSpec& spec)
{
    const long T = std::max(2L, 2 * (spec.context / 2));
    return std::min(spec.probeCount, std::max(8L, 16384 / T));
}

Status ModelRun::create(const RunSpec& spec, std::unique_ptr<ModelRun>& out)
{
    // The ranges first: a corpus is not read into a vocabulary for a run that cannot be.
    if (Status s = checkRunSpec(spec, kLetters); !s.ok() && s.code != StatusCode::TooLarge)
        return s;
    CharVocabulary vocab;
    std::vector<int> ids;
    if (spec.data == DataKind::Induction) {
        vocab = letterVocabulary();
    } else {
        if (Status s = buildCharVocabulary(spec.corpus, spec.corpusName, vocab); !s.ok()) return s;
        ids = encodeCharacters(vocab, spec.corpus);
        if (static_cast<long>(ids.size()) < spec.context + 1) {
            Status s = failure(StatusCode::TooLong, "", spec.corpusName,
                               "has fewer characters than one window of the context plus one");
            s.value = static_cast<long>(ids.size());
            s.limit = spec.context + 1;
            return s;
        }
    }
    if (Status s = checkRunSpec(spec, static_cast<long>(vocab.pieces.size())); !s.ok()) return s;
    Config c;
    c.vocab = static_cast<long>(vocab.pieces.size());
    c.maxT = spec.context;
    c.layers = spec.layers;
    c.heads = spec.heads;
    c.channels = spec.channels;
    c.attentionOnly = spec.attentionOnly;
    Parameters params;
    if (Status s = makeParameters(c, params); !s.ok()) return s;
    initialise(params, spec.seed, spec.initStd);
    out.reset(new ModelRun(spec, std::move(params), std::move(vocab), std::move(ids)));
    return Status::success();
}

ModelRun::ModelRun(const RunSpec& spec, Parameters params, CharVocabulary vocab,
                   std::vector<int> ids)
    : spec_(spec),
      trainer_(std::move(params),
               AdamSettings{spec.learningRate, 0.9, 0.999, 1e-8, spec.weightDecay, spec.clipNorm},
               spec.precision),
      vocab_(std::move(vocab)),
      corpusIds_(std::move(ids)),
      data_(spec.seed ^ kDataStream)
{
    if (spec_.data == DataKind::Induction)
        probe_ = makeCopyProbe(spec_.context / 2, copyProbeCount(spec_), kProbeSeed);
}

double ModelRun::rateAt(long k) const
{
    const double top = spec_.learningRate;
    if (spec_.warmup > 0 && k <= spec_.warmup)
        return top * static_cast<double>(k) / static_cast<double>(spec_.warmup);
    if (spec_.finalFraction >= 1.0 || spec_.steps <= spec_.warmup) return top;
    const double progress = static_cast<double>(k - spec_.warmup) /
                            static_cast<double>(std::max(1L, spec_.steps - spec_.warmup));
    const double cosine = 0.5 * (1.0 + std::cos(std::numbers::pi * std::min(1.0, progress)));
    return top * (spec_.finalFraction + (1.0 - spec_.finalFraction) * cosine);
}

Status ModelRun::step()
{
    const auto start = std::chrono::steady_clock::now();
    const long B = spec_.batch, T = spec_.context;
    if (spec_.data == DataKind::Induction) {
        // The first half on distinct segments only (the induction head forms on unambiguous
        // repeats), the second on the mix (ordinary repeats make it disambiguate).
        InductionMix mix = spec_.mix;
        if (2 * (trainer_.steps() + 1) <= spec_.steps) mix.distinctShare = 1.0;
        inductionBatch(data_, B, T, mix, tokens_, targets_);
    } else
        corpusBatch(data_, corpusIds_, B, T, tokens_, targets_);
    trainer_.setLearningRate(rateAt(trainer_.steps() + 1));
    double loss = 0.0;
    const Status stepped = trainer_.step({tokens_, targets_, B, T}, loss);
    stepSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!stepped.ok()) return stepped;
    losses_.push_back(loss);
    const long k = trainer_.steps();
    if ((spec_.evalEvery > 0 && k % spec_.evalEvery == 0) || k == spec_.steps) measure();
    return Status::success();
}

double ModelRun::copyAccuracy()
{
    if (spec_.data != DataKind::Induction || probe_.count == 0) return -1.0;
    const long chunk = std::min(spec_.batch, probe_.count);
    const long V = trainer_.parameters().config.vocab;
    long hits = 0, scored = 0;
    for (long first = 0; first < probe_.count; first += chunk) {
        const long rows = std::min(chunk, probe_.count - first);
        const auto begin = static_cast<std::size_t>(first * probe_.T);
        const auto size = static_cast<std::size_t>(rows * probe_.T);
        double loss = 0.0;
        const Batch b{std::span<const int>(probe_.tokens).subspan(begin, size),
                      std::span<const int>(probe_.targets).subspan(begin, size), rows, probe_.T};
        if (!trainer_.forward(b, loss).ok()) return -1.0;
        countCopyHits(probe_, first, rows, trainer_.logits(), V, hits, scored);
    }
    return scored > 0 ? static_cast<double>(hits) / static_cast<double>(scored) : -1.0;
}

std::vector<std::vector<int>> ModelRun::detectSequences() const
{
    const long m = spec_.context / 2;
    const long pool = spec_.data == DataKind::Induction ? kLetters : vocab_.characters;
    Rng rng(kDetectSeed);
    std::vector<std::vector<int>> out(static_cast<std::size_t>(spec_.detectCount));
    for (std::vector<int>& row : out) {
        row.resize(static_cast<std::size_t>(2 * m));
        for (long i = 0; i < m; ++i) {
            const auto k = static_cast<long>(rng.uniform() * static_cast<double>(pool));
            row[static_cast<std::size_t>(i)] = static_cast<int>(std::min(pool - 1, k));
        }
        std::copy_n(row.begin(), m, row.begin() + m);
    }
    return out;
}

HeadScoreTable ModelRun::headScores()
{
    const long m = spec_.context / 2, T = 2 * m, count = spec_.detectCount;
    std::vector<int> tokens;
    for (const std::vector<int>& row : detectSequences())
        tokens.insert(tokens.end(), row.begin(), row.end());
    double loss = 0.0;
    const HeadScoreTable none;
    if (!trainer_.forward({tokens, tokens, count, T}, loss).ok()) return none;
    const Config& c = trainer_.parameters().config;
    HeadScoreTable table(static_cast<std::size_t>(c.layers),
                         std::vector<HeadScores>(static_cast<std::size_t>(c.heads)));
    for (int l = 0; l < c.layers; ++l) {
        const std::span<const double> att = trainer_.attention(l);
        for (long b = 0; b < count; ++b) {
            for (long h = 0; h < c.heads; ++h)
                addScores(table[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)],
                          scoreRepeated(att.data() + ((b * c.heads + h) * T * T), m));
        }
    }
    divideScores(table, static_cast<double>(count));
    return table;
}

HeadMaps ModelRun::liveMaps()
{
    const std::vector<std::vector<int>> sequences = detectSequences();
    HeadMaps maps;
    if (sequences.empty()) return maps;
    const std::vector<int>& tokens = sequences.front();
    const long T = static_cast<long>(tokens.size());
    double loss = 0.0;
    if (!trainer_.forward({tokens, tokens, 1, T}, loss).ok()) return maps;
    const Config& c = trainer_.parameters().config;
    maps.layers = c.layers;
    maps.heads = c.heads;
    maps.T = T;
    maps.S = T;
    maps.weights.reserve(static_cast<std::size_t>(c.layers * c.heads * T * T));
    for (int l = 0; l < c.layers; ++l) {
        const std::span<const double> att = trainer_.attention(l);
        for (const double w : att) maps.weights.push_back(static_cast<float>(w));
    }
    return maps;
}

void ModelRun::measure()
{
    Measure m;
    m.step = trainer_.steps();
    m.loss = losses_.empty() ? 0.0 : losses_.back();
    m.copyAccuracy = copyAccuracy();
    m.heads = headScores();
    measures_.push_back(std::move(m));
}

std::string ModelRun::trainingJson(const std::string& command, double seconds,
                                   const std::map<std::string, std::string>& digests) const
{
    const RunSpec& s = spec_;
    nlohmann::ordered_json j;
    j["written_by"] = model::kWrittenBy;
    j["command"] = command;
    j["seed"] = s.seed;
    j["data"] = s.data == DataKind::Induction ? "induction" : "corpus";
    if (s.data == DataKind::Corpus) {
        j["corpus"] = s.corpusName;
        j["corpus_characters"] = corpusIds_.size();
    } else {
        j["induction_data"] = {{"k_min", s.mix.kMin},
                               {"k_max", s.mix.kMax},
                               {"max_repeats", s.mix.maxRepeats},
                               {"distinct_share", s.mix.distinctShare}};
    }
    j["model"] = {{"layers", s.layers},
                  {"heads", s.heads},
                  {"d_model", s.channels},
                  {"context", s.context},
                  {"attention_only", s.attentionOnly},
                  {"vocab", trainer_.parameters().config.vocab}};
    j["training"] = {{"steps", s.steps},
                     {"batch", s.batch},
                     {"lr", s.learningRate},
                     {"warmup", s.warmup},
                     {"final_fraction", s.finalFraction},
                     {"init_std", s.initStd},
                     {"weight_decay", s.weightDecay},
                     {"clip_norm", s.clipNorm},
                     {"optimizer", "adamw"},
                     {"precision", s.precision == Precision::Float ? "float32" : "float64"},
                     {"betas", {0.9, 0.999}},
                     {"eps", 1e-8}};
    // The losses are bit for bit those of another run on the same kernel path only: the AVX2
    // and AVX-512 products round differently (the first 50 of the Tang model's agree to 3e-9).
    j["gemm_path"] = kernels::gemmPathName(kernels::gemmPath());
    // Eigen's own code (softmax, LayerNorm, the attention's products) is vectorised for the
    // instruction sets the build allowed: a -march=native build rounds differently from the
    // baseline one on the same kernel path.
    j["eigen_simd"] = Eigen::SimdInstructionSetsInUse();
    j["seconds"] = seconds;
    j["step_seconds"] = stepSeconds_;
    j["steps_done"] = trainer_.steps();
    j["loss"] = losses_;
    nlohmann::ordered_json measures = nlohmann::ordered_json::array();
    for (const Measure& m : measures_) {
        nlohmann::ordered_json e;
        e["step"] = m.step;
        e["loss"] = m.loss;
        if (m.copyAccuracy >= 0.0) e["copy_accuracy"] = m.copyAccuracy;
        e["layers"] = scoresJson(m.heads);
        measures.push_back(e);
    }
    j["measures"] = measures;
    if (!digests.empty()) j["files"] = digests;
    // nlohmann writes the shortest text that reads back as the same double, so a retraining
    // can be compared with the record bit for bit.
    return j.dump(1) + "\n";
}

Status ModelRun::write(const std::string& folder, const std::string& command, double seconds) const
{
    std::string weights;
    if (Status s = model::safetensorsBytes(checkpointTensors(trainer_.parameters()),
                                           {{"format", "pt"}}, weights);
        !s.ok())
        return s;
    std::vector<std::pair<std::string, std::string>> files{
        {"config.json", checkpointConfig(trainer_.parameters().config)},
        {"model.safetensors", std::move(weights)},
        {"vocab.json", vocabJson(vocab_)},
        {"merges.txt", mergesText(vocab_)}};
    // training.json ties the others together: a reader refuses the folder if one changes.
    std::map<std::string, std::string> digests;
    for (const auto& [name, bytes] : files) digests[name] = io::sha256Hex(bytes);
    files.emplace_back("training.json", trainingJson(command, seconds, digests));
    return writeModelFolder(folder, files);
}

}  // namespace attn::gpt2
