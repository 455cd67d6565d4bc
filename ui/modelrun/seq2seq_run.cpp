// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/seq2seq_run.h"

#include <algorithm>
#include <string>

#include <QElapsedTimer>
#include <QFile>

#include "core/model/generate.h"

namespace attnlab {

namespace {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

// The source's tokens, with the specials the tokenizer adds.
attn::Status readSource(const LoadedSeq2Seq& loaded, const QString& text, Seq2SeqSnapshot& snap)
{
    return readSeq2SeqSource(loaded, text, snap.source, &snap.dropped);
}

// The decoder's input for a typed target: the start token, then the label ids (as
// text_target= gives them, the end token included) without the last.
std::vector<int> decoderInput(const attn::model::Seq2SeqConfig& c, const std::vector<int>& labels)
{
    std::vector<int> input{c.decoderStartTokenId};
    if (!labels.empty()) input.insert(input.end(), labels.begin(), labels.end() - 1);
    return input;
}

// A carried head must fit the model and the run: its layer and head, the source it was taken
// on, and matrices of the run's shapes with finite values.
attn::Status checkCarry(const attn::model::Seq2SeqModel& model, const CrossCarry& carry,
                        const std::vector<int>& source)
{
    const attn::model::Seq2SeqConfig& c = model.config();
    const std::string name = "the workbench's cross layer " + std::to_string(carry.layer + 1) +
                             " head " + std::to_string(carry.head + 1);
    const long n = static_cast<long>(carry.targetIds.size());
    const long m = static_cast<long>(source.size());
    if (carry.layer < 0 || carry.layer >= c.decoderLayers || carry.head < 0 ||
        carry.head >= c.heads)
        return attn::failure(attn::StatusCode::BadLayer, "", name, "is outside the model");
    if (carry.sourceIds != source)
        return attn::failure(attn::StatusCode::TensorShape, "", name,
                             "was taken on another source text");
    if (n == 0 || carry.weights.rows() != n || carry.weights.cols() != m ||
        carry.output.rows() != n || carry.output.cols() != c.headDim)
        return attn::failure(
            attn::StatusCode::TensorShape, "", name,
            "does not fit the run's " + std::to_string(n) + " x " + std::to_string(m) + " tokens");
    if (!carry.weights.allFinite() || !carry.output.allFinite())
        return attn::failure(attn::StatusCode::NonFinite, "", name,
                             "holds a value that is not finite");
    return {};
}

// The options with the carried head's output put in place of the model's.
attn::model::Seq2SeqOptions withCarry(attn::model::Seq2SeqOptions options, const CrossCarry* carry)
{
    if (carry == nullptr) return options;
    options.outputHook = [inner = options.outputHook, carry](attn::model::AttentionKind kind,
                                                             int layer, int head,
                                                             attn::model::FloatMatrix& output) {
        if (inner) inner(kind, layer, head, output);
        if (kind == attn::model::AttentionKind::Cross && layer == carry->layer &&
            head == carry->head)
            output = carry->output;
    };
    return options;
}

// The greedy translation through the decoder's cache (seq2seq_decode.h), the edits applied at
// every token, as the decoder's input: the start token, then the translation but its last token.
attn::Status translate(const attn::model::Seq2SeqModel& model, const std::vector<int>& source,
                       long limit, const std::vector<attn::model::HeadEdit>& edits,
                       const attn::model::ProgressCallback& progress, std::vector<int>& input)
{
    const attn::model::Seq2SeqConfig& c = model.config();
    attn::model::GenerateOptions greedy;
    greedy.maxNewTokens = static_cast<int>(limit);
    greedy.eos = {c.eosTokenId};
    greedy.edits = edits;
    greedy.topK = 1;
    bool cancelled = false;
    attn::model::Seq2SeqGeneration g;
    ATTN_TRY(attn::model::generate(
        model, source, greedy, g, [&](const attn::model::Seq2SeqGeneration& now) {
            cancelled =
                progress && !progress(static_cast<int>(now.steps.size()), static_cast<int>(limit));
            return !cancelled;
        }));
    if (cancelled)
        return attn::failure(attn::StatusCode::Cancelled, "", "", "the translation was cancelled");
    input = decoderInput(c, g.generated());
    return {};
}

attn::Status runTarget(const LoadedSeq2Seq& loaded, const Seq2SeqRequest& request,
                       Seq2SeqSnapshot& snap)
{
    const attn::model::Seq2SeqModel& model = loaded.model;
    const attn::model::Seq2SeqConfig& c = model.config();
    attn::model::Seq2SeqOptions options;
    options.progress = request.progress;
    const auto withEdits = [&snap](const attn::model::Seq2SeqOptions& o) {
        return snap.edits.empty() ? o : attn::model::withSeq2SeqEdits(o, snap.edits);
    };
    std::vector<int> input;
    if (request.carry) {
        ATTN_TRY(checkCarry(model, *request.carry, snap.source.ids));
        input = request.carry->targetIds;
        snap.carry = request.carry;
    } else if (request.target.trimmed().isEmpty()) {
        // What the model writes, with the edits: an edited head changes the translation.
        const long limit = translationLimit(c, snap.source.count());
        ATTN_TRY(attn::model::checkSeq2SeqEdits(model, snap.source.count(), limit, snap.edits));
        ATTN_TRY(translate(model, snap.source.ids, limit, snap.edits, request.progress, input));
        snap.translated = true;
    } else {
        input = decoderInput(c, loaded.tokenizers->target.encode(request.target.toStdString()));
        snap.targetText = request.target;
    }
    ATTN_TRY(attn::model::checkSeq2SeqEdits(model, snap.source.count(),
                                            static_cast<long>(input.size()), snap.edits));
    snap.target = seq2seqSide(loaded.tokenizers->target, input);
    options.progress = snap.translated ? attn::model::ProgressCallback() : request.progress;
    ATTN_TRY(attn::model::forwardSeq2Seq(model, snap.source.ids, snap.target.ids,
                                         withCarry(withEdits(options), snap.carry.get()),
                                         snap.result));
    if (snap.carry) {
        snap.result.cross[static_cast<std::size_t>(snap.carry->layer)]
                         [static_cast<std::size_t>(snap.carry->head)] = snap.carry->weights;
    }
    if (snap.edited()) {
        ATTN_TRY(attn::model::forwardSeq2Seq(model, snap.source.ids, snap.target.ids,
                                             attn::model::Seq2SeqOptions(), snap.unedited));
        snap.change = attn::model::seq2seqChange(snap.unedited, snap.result);
    }
    snap.predictions = guessesOf(loaded.tokenizers->target, snap.result.predictions,
                                 snap.edited() ? &snap.unedited.logits : nullptr);
    return {};
}

}  // namespace

Seq2SeqSide seq2seqSide(const attn::tok::Tokenizer& tokenizer, std::vector<int> ids)
{
    Seq2SeqSide side;
    side.ids = std::move(ids);
    for (const int id : side.ids) side.tokens.push_back(tokenizer.token(id));
    side.display = tokenizer.display(side.ids);
    for (const attn::tok::TokenDisplay& d : side.display)
        side.labels << QString::fromStdString(d.label);
    return side;
}

attn::Status readSeq2SeqSource(const LoadedSeq2Seq& loaded, const QString& text, Seq2SeqSide& side,
                               std::vector<attn::tok::Dropped>* dropped)
{
    const attn::tok::Tokenizer& tokenizer = loaded.tokenizers->source;
    attn::tok::Encoded encoded = tokenizer.encodeReported(text.toStdString());
    if (!encoded.status.ok()) return encoded.status;
    if (dropped != nullptr) *dropped = std::move(encoded.dropped);
    std::vector<int> ids;
    for (const attn::tok::Token& t : encoded.tokens) ids.push_back(t.id);
    if (text.trimmed().isEmpty() || ids.empty())
        return attn::failure(attn::StatusCode::EmptyInput, "", "source",
                             "the source text has no tokens to translate");
    side = seq2seqSide(tokenizer, std::move(ids));
    return {};
}

std::shared_ptr<const LoadedSeq2Seq> loadSeq2SeqFolder(const QString& folder, attn::Status& problem)
{
    auto loaded = std::make_shared<LoadedSeq2Seq>();
    loaded->folder = folder;
    const std::string native = QFile::encodeName(folder).toStdString();
    problem = attn::model::Seq2SeqModel::load(native, loaded->model);
    if (!problem.ok()) return nullptr;
    const attn::model::Seq2SeqConfig& c = loaded->model.config();
    auto tokenizers = attn::tok::loadSeq2SeqTokenizers(native, c.modelType, c.vocab);
    if (const auto* e = std::get_if<attn::Status>(&tokenizers)) {
        problem = *e;
        return nullptr;
    }
    loaded->tokenizers = std::make_unique<attn::tok::Seq2SeqTokenizers>(
        std::move(std::get<attn::tok::Seq2SeqTokenizers>(tokenizers)));
    return loaded;
}

long translationLimit(const attn::model::Seq2SeqConfig& config, long sourceTokens)
{
    return std::max(1L, std::min(2 * sourceTokens + 10, config.positions - 1));
}

Seq2SeqOutcome runSeq2SeqText(const LoadedSeq2Seq& loaded, const Seq2SeqRequest& request)
{
    QElapsedTimer clock;
    clock.start();
    Seq2SeqOutcome outcome;
    auto snap = std::make_shared<Seq2SeqSnapshot>();
    snap->sourceText = request.source;
    snap->edits = request.edits;
    attn::Status s = readSource(loaded, request.source, *snap);
    if (s.ok()) s = runTarget(loaded, request, *snap);
    if (!s.ok()) {
        outcome.cancelled = s.code == attn::StatusCode::Cancelled;
        outcome.status = s;
        return outcome;
    }
    snap->milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    outcome.snapshot = std::move(snap);
    return outcome;
}

QString targetLabel(const LoadedSeq2Seq& loaded, int id)
{
    return QString::fromStdString(loaded.tokenizers->target.display({id}).front().label);
}

}  // namespace attnlab
