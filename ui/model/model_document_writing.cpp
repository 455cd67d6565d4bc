// SPDX-License-Identifier: GPL-3.0-or-later
// ModelDocument's writing: Step, Generate and Stop, and the run that writes (model_writing.h).
#include "ui/model/model_document.h"
#include "ui/model/model_grid_paint.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

// Steps of one generate() fold into one undo step (their merge key is the run's).
constexpr int kWriteMergeId = 0x57524954;  // "WRIT"

}  // namespace

void ModelDocument::setSampling(const attn::model::SamplingSettings& sampling)
{
    sampling_ = sampling;
}

void ModelDocument::setSeed(std::uint64_t seed)
{
    seed_ = seed;
}

QString ModelDocument::shownText() const
{
    const std::shared_ptr<const ModelSnapshot> snap = snapshot();
    return snap && snap->wrote() ? snap->writtenText : text_;
}

ModelDocument::NextToken ModelDocument::nextToken() const
{
    NextToken next;
    const std::shared_ptr<const ModelSnapshot> snap = snapshot();
    if (!snap || !loaded_ || !loaded_->model.hasLanguageHead() ||
        loaded_->model.config().family == attn::model::Family::Bert)
        return next;
    if (snap->generation && !snap->generation->steps.empty()) {
        next.draw = snap->generation->steps.back().draw;
        next.drawn = true;
        return next;
    }
    const attn::model::ForwardResult& r = snap->result;
    if (r.logitRows.empty() || r.logitRows.back() != snap->tokenCount() - 1) return next;
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap->tokens) ids.push_back(t.id);
    attn::model::TokenRng unused;
    next.draw = attn::model::chooseToken(r.logits.row(r.logits.rows() - 1).transpose(), ids,
                                         sampling_, unused);
    return next;
}

ModelDocument::Runs::Work ModelDocument::writingWork(const RunState& next) const
{
    return [loaded = loaded_, next, previous = snapshot(),
            settings = generation_](JobControl& control) {
        WritingRequest request;
        request.text = next.text;
        request.edits = next.edits;
        request.written = next.written;
        request.previous = previous.get();
        request.settings = &settings;
        request.progress = [&control](long done, long) {
            control.report(static_cast<double>(done));
            return !control.cancelled();
        };
        return shownOutcome(runWriting(*loaded, request));
    };
}

bool ModelDocument::submitWriting(WrittenTokens written, Label label, bool merged)
{
    if (!loaded_) return false;
    if (const attn::Status s = attn::model::checkSampling(sampling_); !s.ok()) {
        Q_EMIT errorOccurred(tr("The sampling was refused: %1").arg(statusMessage(s)));
        return false;
    }
    const std::shared_ptr<const ModelSnapshot> snap = snapshot();
    // Writing after the text alone (generateAfterText): what the snapshot wrote is dropped, so
    // its end is not in the way.
    const bool fresh = written.empty() && snap && snap->wrote();
    if (snap && !fresh && writingEnded(*snap) && !doc_.computing()) {
        Q_EMIT noticed(snap->generation && snap->generation->endedAtEos
                           ? tr("The model wrote its end-of-text token: it has finished.")
                           : tr("The text fills the model's %1 positions.").arg(positions()));
        return false;
    }
    if (written.empty()) written.seed = seed_;
    written.steps.push_back(sampling_);
    debounce_.stop();
    doc_.submit({RunState{text_, doc_.target().edits, std::move(written)}, std::move(label),
                 merged ? kWriteMergeId : -1});
    return true;
}

bool ModelDocument::step()
{
    stopWriting();
    ++writeRun_;
    return submitWriting(
        doc_.target().written, [] { return tr("Write a token"); }, false);
}

bool ModelDocument::generate(int count)
{
    return startGenerating(count, false);
}

bool ModelDocument::generateAfterText(int count)
{
    return startGenerating(count, true);
}

bool ModelDocument::startGenerating(int count, bool afterText)
{
    if (count < 1) return false;
    stopWriting();
    ++writeRun_;
    asked_ = count;
    toWrite_ = count;
    const int asked = count;
    if (!submitWriting(
            afterText ? WrittenTokens{} : doc_.target().written,
            [asked] { return tr("Generate %n token(s)", "", asked); }, true)) {
        toWrite_ = 0;
        return false;
    }
    Q_EMIT writingChanged();
    return true;
}

void ModelDocument::continueWriting()
{
    if (toWrite_ <= 0) {
        Q_EMIT writingChanged();
        return;
    }
    --toWrite_;
    const std::shared_ptr<const ModelSnapshot> snap = snapshot();
    if (toWrite_ == 0 || !snap || writingEnded(*snap)) {
        toWrite_ = 0;
        Q_EMIT writingChanged();
        return;
    }
    const int asked = asked_;
    if (!submitWriting(
            doc_.state().written, [asked] { return tr("Generate %n token(s)", "", asked); }, true))
        toWrite_ = 0;
    Q_EMIT writingChanged();
}

void ModelDocument::stopWriting()
{
    if (toWrite_ <= 0) return;
    toWrite_ = 0;
    doc_.cancel();
    Q_EMIT writingChanged();
}

void ModelDocument::applyMarks(const Marks& marks)
{
    debounce_.stop();
    stopWriting();
    if (!loaded_) return;
    doc_.submit({RunState{text_, marks.edits, marks.written}, {}});
}

}  // namespace attnlab
