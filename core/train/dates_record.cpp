// SPDX-License-Identifier: GPL-3.0-or-later
// What a dates run leaves (dates_run.h): its Marian folder and training.json.
#include <nlohmann/json.hpp>

#include <Eigen/Core>

#include "core/io/sha256.h"
#include "core/kernels/gemm.h"
#include "core/model/model_folder.h"
#include "core/train/dates_run.h"
#include "core/train/gpt2_export.h"

namespace attn::dates {

std::vector<std::string> folderNames()
{
    return {"config.json",
            "model.safetensors",
            "source.spm",
            "target.spm",
            "vocab.json",
            "tokenizer_config.json",
            "generation_config.json",
            "training.json"};
}

std::string TranslatorRun::trainingJson(const std::string& command, double seconds,
                                        const std::map<std::string, std::string>& digests) const
{
    const RunSpec& s = spec_;
    nlohmann::ordered_json j;
    j["written_by"] = model::kWrittenBy;
    j["task"] = "dates";
    j["command"] = command;
    j["seed"] = s.seed;
    j["model"] = {{"encoder_layers", s.encoderLayers},
                  {"decoder_layers", s.decoderLayers},
                  {"heads", s.heads},
                  {"d_model", s.channels},
                  {"ffn", s.ffn()},
                  {"vocab", trainer_->parameters().config.vocab}};
    j["training"] = {
        {"steps", s.steps},
        {"batch", s.batch},
        {"lr", s.learningRate},
        {"warmup", s.warmup},
        {"final_fraction", s.finalFraction},
        {"init_std", s.initStd},
        {"optimizer", "adam"},
        {"betas", {trainer_->settings().beta1, trainer_->settings().beta2}},
        {"eps", trainer_->settings().epsilon},
        {"precision", s.precision == marian::Precision::Float ? "float32" : "float64"}};
    j["measures_on"] = {{"seed", kMeasureSeed},
                        {"accuracy_per_form", s.measureCount},
                        {"alignment_dates", s.alignCount}};
    j["gemm_path"] = kernels::gemmPathName(kernels::gemmPath());
    j["eigen_simd"] = Eigen::SimdInstructionSetsInUse();
    j["seconds"] = seconds;
    j["step_seconds"] = stepSeconds_;
    j["steps_done"] = trainer_->steps();
    j["loss"] = losses_;
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const Point& p : points_) {
        points.push_back({{"step", p.step},
                          {"loss", p.loss},
                          {"accuracy",
                           {{dateFormName(DateForm::Arabic), p.accuracy[0]},
                            {dateFormName(DateForm::Chinese), p.accuracy[1]},
                            {dateFormName(DateForm::Slashed), p.accuracy[2]}}},
                          {"alignment", p.alignment.heads},
                          {"best_alignment",
                           {{"layer", p.alignment.bestLayer + 1},
                            {"head", p.alignment.bestHead + 1},
                            {"alignment", p.alignment.best}}}});
    }
    j["measures"] = points;
    j["files"] = digests;
    return j.dump(1) + "\n";
}

Status TranslatorRun::write(const std::string& folder, const std::string& command,
                            double seconds) const
{
    std::vector<std::pair<std::string, std::string>> files;
    if (Status s = folderFiles(files); !s.ok()) return s;
    std::map<std::string, std::string> digests;
    for (const auto& [name, bytes] : files) digests[name] = io::sha256Hex(bytes);
    files.emplace_back("training.json", trainingJson(command, seconds, digests));
    return gpt2::writeModelFolder(folder, files);
}

}  // namespace attn::dates
