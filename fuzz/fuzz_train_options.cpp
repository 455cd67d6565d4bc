// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: train-model's options (gpt2::parseRunArguments), the words separated by
// NUL bytes. Accepted options must hold a run inside every range; a run that also fits its
// memory and record bounds (checkRunSpec) and is small is made, which allocates and
// initialises the model its options describe.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/train/run_arguments.h"

namespace {

// The largest run made per input, so that the fuzzer stays fast.
constexpr std::size_t kMadeBytes = std::size_t{8} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 2048) return 0;
    std::vector<std::string> words(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0)
            words.emplace_back();
        else
            words.back() += static_cast<char>(data[i]);
    }
    attn::gpt2::RunArguments request;
    const attn::gpt2::ArgumentProblem p = attn::gpt2::parseRunArguments(words, request);
    if (attn::gpt2::describe(p).empty()) std::abort();
    if (!p.ok()) return 0;
    const attn::gpt2::RunSpec& spec = request.spec;
    if (request.output.empty() ||
        (spec.data == attn::gpt2::DataKind::Corpus) == request.corpusPath.empty())
        std::abort();
    if (spec.layers < 1 || spec.heads < 1 || spec.channels < 1 || spec.context < 2 ||
        spec.batch < 1 || spec.steps < 1 || !(spec.learningRate > 0) || request.threads < 1)
        std::abort();
    if (spec.data != attn::gpt2::DataKind::Induction) return 0;
    if (!attn::gpt2::checkRunSpec(spec, attn::gpt2::kLetters).ok()) return 0;
    if (attn::gpt2::runBytes(spec, attn::gpt2::kLetters) > kMadeBytes) return 0;
    std::unique_ptr<attn::gpt2::ModelRun> run;
    if (!attn::gpt2::ModelRun::create(spec, run).ok() || run == nullptr) std::abort();
    return 0;
}
