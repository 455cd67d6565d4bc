// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/model_writing.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class ModelWritingTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelWriting)
};

// The generation to go on from: a copy of the previous snapshot's when it wrote a beginning of
// the request after the same text and edits, else a fresh one on the text's tokens.
attn::Status startFrom(const LoadedModel& loaded, const WritingRequest& r,
                       attn::model::GenerateOptions& options, attn::model::Generation& g,
                       ModelRunOutcome& outcome)
{
    const ModelSnapshot* p = r.previous;
    if (p != nullptr && p->generation && p->text == r.text && p->edits == r.edits &&
        p->written.leadsTo(r.written)) {
        g = *p->generation;
        return {};
    }
    ModelRunOutcome read = readText(loaded, r.text);
    if (!read.snapshot) {
        outcome = read;
        return read.status.ok()
                   ? attn::failure(attn::StatusCode::EmptyInput, "", "ids", "no tokens")
                   : read.status;
    }
    std::vector<int> ids;
    for (const attn::tok::Token& t : read.snapshot->tokens) ids.push_back(t.id);
    return attn::model::startGeneration(loaded.model, ids, options, g);
}

// The text the model wrote, as it reads after `text`: the whole text decoded less the prompt
// decoded, where the one begins with the other (a decoder may drop a first token's space).
QString writtenAfter(const attn::tok::Tokenizer& t, const QString& text,
                     const std::vector<int>& all, long promptLength)
{
    const std::vector<int> prompt(all.begin(), all.begin() + promptLength);
    const std::string whole = t.decode(all);
    const std::string head = t.decode(prompt);
    if (whole.compare(0, head.size(), head) == 0)
        return text + QString::fromStdString(whole.substr(head.size()));
    return text + QString::fromStdString(t.decode({all.begin() + promptLength, all.end()}));
}

void fillSnapshot(const LoadedModel& loaded, const WritingRequest& r,
                  const attn::model::Generation& g, ModelSnapshot& snap)
{
    const attn::tok::Tokenizer& t = *loaded.tokenizer;
    const std::vector<int>& ids = g.decoding.ids();
    snap.text = r.text;
    snap.groupSize = static_cast<int>(std::max(1L, loaded.model.config().groupSize()));
    for (const int id : ids) snap.tokens.push_back(t.token(id));
    snap.display = t.display(ids);
    for (const attn::tok::TokenDisplay& d : snap.display)
        snap.labels << QString::fromStdString(d.label);
    g.decoding.result(snap.result);
    snap.written = r.written;
    snap.written.steps.resize(g.steps.size());
    snap.writtenText = writtenAfter(t, r.text, ids, g.promptLength);
    snap.generation = std::make_shared<const attn::model::Generation>(g);
}

}  // namespace

attn::Status writingSettings(const LoadedModel& loaded, attn::model::GenerationSettings& out)
{
    return attn::model::readGenerationSettings(loaded.model.folder(), out);
}

bool writingEnded(const ModelSnapshot& snap)
{
    if (!snap.generation) return false;
    const attn::model::Generation& g = *snap.generation;
    return g.endedAtEos || g.decoding.length() >= g.decoding.model()->config().positions;
}

ModelRunOutcome runWriting(const LoadedModel& loaded, const WritingRequest& r)
{
    QElapsedTimer clock;
    clock.start();
    ModelRunOutcome outcome;
    attn::model::GenerationSettings settings;
    attn::Status s = r.settings != nullptr ? attn::Status{} : writingSettings(loaded, settings);
    if (r.settings != nullptr) settings = *r.settings;
    attn::model::GenerateOptions options;
    options.maxNewTokens = static_cast<int>(std::max(1L, r.written.count()));
    options.seed = r.written.seed;
    options.edits = r.edits;
    options.eos = settings.eos;
    // A long text keeps its maps at screen resolution, as the long path of a run does.
    const attn::model::ForwardOptions pooling = runOptions(loaded, false);
    options.poolAbove = pooling.poolAbove;
    options.poolSide = pooling.poolSide;
    attn::model::Generation g;
    if (s.ok()) s = startFrom(loaded, r, options, g, outcome);
    if (!s.ok() && outcome.error.isEmpty() && !outcome.empty)
        outcome.error = ModelWritingTr::tr("The model could not write: %1").arg(statusMessage(s));
    if (!s.ok()) {
        outcome.status = s;
        return outcome;
    }
    while (static_cast<long>(g.steps.size()) < r.written.count() &&
           !attn::model::generationDone(g, options)) {
        options.sampling = r.written.steps[g.steps.size()];
        options.sampling.badWords = settings.badWords;
        if (s = attn::model::generateStep(g, options); !s.ok()) break;
        if (r.progress && !r.progress(static_cast<long>(g.steps.size()), r.written.count())) {
            outcome.cancelled = true;
            return outcome;
        }
    }
    outcome.status = s;
    if (!s.ok()) {
        outcome.error = ModelWritingTr::tr("The model could not write: %1").arg(statusMessage(s));
        return outcome;
    }
    auto snap = std::make_shared<ModelSnapshot>();
    fillSnapshot(loaded, r, g, *snap);
    if (!r.edits.empty()) {
        // Beside the edited text, the unedited model on the same tokens: what the edits changed.
        snap->edits = r.edits;
        std::vector<int> ids = g.decoding.ids();
        s = attn::model::forward(loaded.model, ids, pooling, snap->unedited);
        if (!s.ok()) {
            outcome.error =
                ModelWritingTr::tr("The model could not write: %1").arg(statusMessage(s));
            return outcome;
        }
        snap->change = attn::model::attentionChange(snap->unedited, snap->result);
    }
    aggregate(*snap);
    snap->predictions =
        guessesOf(*loaded.tokenizer, snap->result, snap->edited() ? &snap->unedited : nullptr);
    snap->milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    outcome.snapshot = std::move(snap);
    return outcome;
}

}  // namespace attnlab
