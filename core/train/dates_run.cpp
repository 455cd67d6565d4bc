// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/dates_run.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/model/safetensors_write.h"
#include "core/train/marian_export.h"

namespace attn::dates {

marian::Config modelConfig(const RunSpec& spec, const Vocabulary& v)
{
    marian::Config c;
    c.vocab = static_cast<long>(v.pieces.size());
    c.maxT = 32;
    c.encoderLayers = spec.encoderLayers;
    c.decoderLayers = spec.decoderLayers;
    c.heads = spec.heads;
    c.channels = spec.channels;
    c.ffn = spec.ffn();
    c.activation = marian::FfnActivation::Silu;
    c.padId = v.pad;
    c.eosId = v.eos;
    return c;
}

namespace {

Status liveExample(const PairEncoder& encoder, const Vocabulary& v, LiveExample& out)
{
    const DatePair pair = datePair(Date{2026, 12, 4}, DateForm::Chinese);
    if (Status s = encoder.encode(pair, out.pair); !s.ok()) return s;
    out.source = pair.source;
    out.target = pair.target;
    const auto pieces = [&v](const std::vector<int>& ids) {
        std::vector<std::string> names;
        for (const int id : ids) names.push_back(v.pieces[static_cast<std::size_t>(id)]);
        return names;
    };
    out.sourcePieces = pieces(out.pair.source);
    out.labelPieces = pieces(out.pair.labels);
    return {};
}

}  // namespace

Status TranslatorRun::create(const RunSpec& spec, std::unique_ptr<TranslatorRun>& out)
{
    std::unique_ptr<TranslatorRun> run(new TranslatorRun());
    run->spec_ = spec;
    if (Status s = trainVocabulary(run->vocabulary_); !s.ok()) return s;
    if (Status s = PairEncoder::make(run->vocabulary_, run->encoder_); !s.ok()) return s;
    marian::Parameters params;
    if (Status s = marian::makeParameters(modelConfig(spec, run->vocabulary_), params); !s.ok())
        return s;
    marian::initialise(params, spec.seed, spec.initStd);
    marian::AdamSettings adam;
    adam.learningRate = spec.learningRate;
    adam.beta2 = 0.98;
    run->trainer_.emplace(std::move(params), adam, spec.precision);
    run->rng_ = Rng(spec.seed ^ 0x6461746573ULL);  // "dates": a stream apart from the weights'
    for (int f = 0; f < kForms; ++f)
        run->accuracyPairs_[static_cast<std::size_t>(f)] = heldOutEncoded(
            run->encoder_, kMeasureSeed, spec.measureCount, static_cast<DateForm>(f));
    run->alignPairs_ = heldOutMixed(run->encoder_, kMeasureSeed, spec.alignCount);
    if (Status s = liveExample(run->encoder_, run->vocabulary_, run->example_); !s.ok()) return s;
    out = std::move(run);
    return {};
}

double TranslatorRun::rateAt(long step) const
{
    const double peak = spec_.learningRate;
    if (step < spec_.warmup)
        return peak * static_cast<double>(step + 1) / static_cast<double>(spec_.warmup);
    const double span = static_cast<double>(std::max(1L, spec_.steps - spec_.warmup));
    const double progress = std::min(1.0, static_cast<double>(step - spec_.warmup) / span);
    const double floor = spec_.finalFraction;
    return peak * (floor + (1.0 - floor) * 0.5 * (1.0 + std::cos(M_PI * progress)));
}

Status TranslatorRun::step()
{
    const long step = trainer_->steps();
    if (step == 0 && spec_.measureEvery > 0) points_.push_back(measure());
    const auto start = std::chrono::steady_clock::now();
    std::vector<EncodedPair> pairs;
    for (const DatePair& p : trainingPairs(rng_, spec_.batch)) {
        EncodedPair e;
        if (Status s = encoder_.encode(p, e); !s.ok()) return s;
        pairs.push_back(std::move(e));
    }
    std::vector<const EncodedPair*> refs;
    for (const EncodedPair& e : pairs) refs.push_back(&e);
    const BatchData batch = makeBatch(refs, vocabulary_.pad);
    trainer_->setLearningRate(rateAt(step));
    double loss = 0.0;
    if (Status s = trainer_->step(batch.batch(), loss); !s.ok()) return s;
    losses_.push_back(loss);
    stepSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long done = trainer_->steps();
    if ((spec_.measureEvery > 0 && done % spec_.measureEvery == 0) || done == spec_.steps) {
        points_.push_back(measure(done == spec_.steps ? spec_.finalCount : 0));
        points_.back().loss = loss;
    }
    return {};
}

Point TranslatorRun::measure(long perForm)
{
    Point p;
    p.step = trainer_->steps();
    p.loss = losses_.empty() ? 0.0 : losses_.back();
    for (int f = 0; f < kForms; ++f) {
        std::vector<EncodedPair> fixed = accuracyPairs_[static_cast<std::size_t>(f)];
        if (perForm > 0 && perForm != spec_.measureCount)
            fixed = heldOutEncoded(encoder_, kMeasureSeed, perForm, static_cast<DateForm>(f));
        const auto translations =
            trainerGreedy(*trainer_, fixed, vocabulary_.pad, vocabulary_.eos, kMaxLabels);
        p.accuracy[static_cast<std::size_t>(f)] = exactMatch(fixed, translations);
    }
    p.alignment = trainerAlignment(*trainer_, alignPairs_, vocabulary_.pad);
    return p;
}

const Point* alignmentFormed(const std::vector<Point>& points)
{
    for (const Point& p : points)
        if (p.alignment.best > kAlignedThreshold) return &p;
    return nullptr;
}

gpt2::HeadMaps TranslatorRun::liveMaps()
{
    gpt2::HeadMaps maps;
    const BatchData b = makeBatch({&example_.pair}, vocabulary_.pad);
    double loss = 0.0;
    if (!trainer_->forward(b.batch(), loss).ok()) return maps;
    const marian::Config& c = trainer_->parameters().config;
    maps.layers = c.decoderLayers;
    maps.heads = c.heads;
    maps.T = b.T;
    maps.S = b.S;
    maps.weights.reserve(static_cast<std::size_t>(c.decoderLayers * c.heads * b.T * b.S));
    for (long l = 0; l < c.decoderLayers; ++l)
        for (const double w : trainer_->crossAttention(static_cast<int>(l)))
            maps.weights.push_back(static_cast<float>(w));
    return maps;
}

void TranslatorRun::finish()
{
    if (!points_.empty() && points_.back().step == trainer_->steps()) return;
    points_.push_back(measure());
}

Status TranslatorRun::folderFiles(std::vector<std::pair<std::string, std::string>>& out) const
{
    std::string weights;
    if (Status s = model::safetensorsBytes(marian::checkpointTensors(trainer_->parameters()),
                                           {{"format", "pt"}}, weights);
        !s.ok())
        return s;
    const nlohmann::ordered_json generation = {{"bos_token_id", 0},
                                               {"decoder_start_token_id", vocabulary_.pad},
                                               {"eos_token_id", vocabulary_.eos},
                                               {"forced_eos_token_id", vocabulary_.eos},
                                               {"max_length", kMaxLabels},
                                               {"num_beams", 1},
                                               {"pad_token_id", vocabulary_.pad}};
    out = {{"config.json", marian::checkpointConfig(trainer_->parameters().config, kMaxLabels)},
           {"model.safetensors", std::move(weights)},
           {"source.spm", vocabulary_.sourceSpm},
           {"target.spm", vocabulary_.targetSpm},
           {"vocab.json", vocabularyJson(vocabulary_)},
           {"tokenizer_config.json", tokenizerConfigJson(vocabulary_)},
           {"generation_config.json", generation.dump(2) + "\n"}};
    return {};
}

}  // namespace attn::dates
