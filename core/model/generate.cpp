// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/generate.h"

#include <algorithm>

namespace attn::model {

attn::Status checkGenerate(const GenerateOptions& options)
{
    if (options.maxNewTokens < 1)
        return attn::failure(attn::StatusCode::EmptyInput, "", "max_new_tokens",
                             "at least one new token must be asked for");
    return checkSampling(options.sampling);
}

attn::Status startGeneration(const Model& model, std::span<const int> prompt,
                             const GenerateOptions& options, Generation& out)
{
    out = Generation{};
    if (attn::Status s = checkGenerate(options); !s.ok()) return s;
    if (attn::Status s = out.decoding.start(model, prompt, options.edits, options.topK,
                                            options.poolAbove, options.poolSide);
        !s.ok())
        return s;
    out.promptLength = static_cast<long>(prompt.size());
    out.rng = TokenRng(options.seed);
    return {};
}

attn::Status startGeneration(const Seq2SeqModel& model, std::span<const int> source,
                             const GenerateOptions& options, Seq2SeqGeneration& out)
{
    out = Seq2SeqGeneration{};
    if (attn::Status s = checkGenerate(options); !s.ok()) return s;
    if (attn::Status s = out.decoding.start(model, source, options.edits, options.topK); !s.ok())
        return s;
    out.promptLength = out.decoding.length();
    out.rng = TokenRng(options.seed);
    return {};
}

template <class D>
bool generationDone(const GenerationOf<D>& g, const GenerateOptions& options)
{
    if (!g.decoding.started()) return true;
    return g.endedAtEos || static_cast<long>(g.steps.size()) >= options.maxNewTokens ||
           g.decoding.length() >= g.decoding.positions();
}

template <class D>
attn::Status generateStep(GenerationOf<D>& g, const GenerateOptions& options)
{
    if (!g.decoding.started())
        return attn::failure(attn::StatusCode::EmptyInput, "", "ids", "nothing was started");
    const Eigen::VectorXf& logits = g.decoding.logits();
    TokenRng rng = g.rng;
    GeneratedStep step;
    step.draw = chooseToken(logits, g.decoding.ids(), options.sampling, rng);
    step.id = step.draw.id;
    step.probability = tokenProbability(logits, step.id);
    step.top = topTokens(logits, options.topK);
    if (attn::Status s = g.decoding.append(step.id); !s.ok()) return s;
    g.rng = rng;
    g.endedAtEos = std::find(options.eos.begin(), options.eos.end(), step.id) != options.eos.end();
    g.steps.push_back(std::move(step));
    return {};
}

template attn::Status generateStep(Generation&, const GenerateOptions&);
template attn::Status generateStep(Seq2SeqGeneration&, const GenerateOptions&);
template bool generationDone(const Generation&, const GenerateOptions&);
template bool generationDone(const Seq2SeqGeneration&, const GenerateOptions&);

namespace {

template <class D, class M>
attn::Status generateAll(const M& model, std::span<const int> prompt,
                         const GenerateOptions& options, GenerationOf<D>& out,
                         const GenerationProgressOf<D>& progress)
{
    if (attn::Status s = startGeneration(model, prompt, options, out); !s.ok()) return s;
    while (!generationDone(out, options)) {
        if (attn::Status s = generateStep(out, options); !s.ok()) return s;
        if (progress && !progress(out)) break;
    }
    return {};
}

}  // namespace

attn::Status generate(const Model& model, std::span<const int> prompt,
                      const GenerateOptions& options, Generation& out,
                      const GenerationProgress& progress)
{
    return generateAll(model, prompt, options, out, progress);
}

attn::Status generate(const Seq2SeqModel& model, std::span<const int> source,
                      const GenerateOptions& options, Seq2SeqGeneration& out,
                      const GenerationProgressOf<Seq2SeqDecoding>& progress)
{
    return generateAll(model, source, options, out, progress);
}

}  // namespace attn::model
