// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/status_text.h"

#include <QCoreApplication>

namespace attnlab {

namespace {
class StatusTextTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Status)
};

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

// "layer 2, head 1, W_K": the place a status names, counted from 1, then its field.
QString placeOf(const attn::Status& s)
{
    QStringList parts;
    if (s.layer >= 0) parts << StatusTextTr::tr("layer %1").arg(s.layer + 1);
    if (s.head >= 0) parts << StatusTextTr::tr("head %1").arg(s.head + 1);
    if (s.edit >= 0) parts << StatusTextTr::tr("edit %1").arg(s.edit + 1);
    if (!s.field.empty()) parts << str(s.field);
    return parts.join(StatusTextTr::tr(", "));
}

// The stages a model run names in English (core/model/forward.cpp), translated.
QString stageText(const std::string& stage)
{
    if (stage == "the query vectors Q") return StatusTextTr::tr("the query vectors Q");
    if (stage == "the key vectors K") return StatusTextTr::tr("the key vectors K");
    if (stage == "the value vectors V") return StatusTextTr::tr("the value vectors V");
    if (stage == "the scores") return StatusTextTr::tr("the scores");
    if (stage == "the scaled scores") return StatusTextTr::tr("the scaled scores");
    if (stage == "the weights") return StatusTextTr::tr("the weights");
    if (stage == "its output") return StatusTextTr::tr("its output");
    if (stage == "the embeddings") return StatusTextTr::tr("the embeddings");
    if (stage == "the final LayerNorm") return StatusTextTr::tr("the final LayerNorm");
    return str(stage);
}

// "Layer 3 head 2, the scores" (from 1), as attn::whereInModel() says it in English.
QString whereText(const attn::Status& s)
{
    QString where;
    if (s.layer >= 0 && s.head >= 0)
        where = StatusTextTr::tr("layer %1 head %2").arg(s.layer + 1).arg(s.head + 1);
    else if (s.layer >= 0)
        where = StatusTextTr::tr("layer %1").arg(s.layer + 1);
    else if (s.head >= 0)
        where = StatusTextTr::tr("head %1").arg(s.head + 1);
    if (!s.stage.empty())
        where = where.isEmpty() ? stageText(s.stage)
                                : StatusTextTr::tr("%1, %2").arg(where, stageText(s.stage));
    return where;
}

// A model run's value that is not finite: where, then what caused it.
QString nonFiniteInModel(const attn::Status& s)
{
    const QString where = whereText(s);
    QString out = where.isEmpty()
                      ? StatusTextTr::tr("A value is not a finite number.")
                      : StatusTextTr::tr("%1: a value is not a finite number.").arg(where);
    // Two sentences: a space between them in English, none in Chinese.
    const auto then = [&out](const QString& next) {
        out = StatusTextTr::tr("%1 %2", "two sentences").arg(out, next);
    };
    switch (s.cause) {
    case attn::Cause::Unknown: break;
    case attn::Cause::Weights:
        then(StatusTextTr::tr("The weights caused it: %1 holds NaN or Inf.")
                 .arg(s.field.empty() ? StatusTextTr::tr("a tensor") : str(s.field)));
        break;
    case attn::Cause::Text:
        then(StatusTextTr::tr(
            "The text caused it: the weights are finite, but on this text a value grows "
            "beyond the range of a float."));
        break;
    case attn::Cause::Edit:
        then(s.edit >= 0
                 ? StatusTextTr::tr("Edit %1 (%2) caused it; the run without edits is finite.")
                       .arg(s.edit + 1)
                       .arg(str(s.subject))
                 : StatusTextTr::tr("The edit caused it; the run without edits is finite."));
        break;
    }
    return out;
}

// "FILE: " when the status names a file.
QString filePrefix(const attn::Status& s)
{
    return s.file.empty() ? QString() : StatusTextTr::tr("%1: ").arg(str(s.file));
}

// A refused edit of a model run, with the edit counted from 1.
QString editRefusal(const attn::Status& s)
{
    const QString edit = StatusTextTr::tr("Edit %1 (%2)").arg(s.edit + 1).arg(str(s.subject));
    switch (s.code) {
    case attn::StatusCode::BadLayer:
        if (s.field == "layer")
            return StatusTextTr::tr("%1: the model has %2 layers.").arg(edit).arg(s.limit);
        if (s.field == "head")
            return StatusTextTr::tr("%1: the model has %2 heads.").arg(edit).arg(s.limit);
        break;
    case attn::StatusCode::BadPosition:
        return StatusTextTr::tr("%1: the text has %2 tokens.").arg(edit).arg(s.limit);
    case attn::StatusCode::NonFinite:
        return StatusTextTr::tr("%1: the scale is not a finite number.").arg(edit);
    case attn::StatusCode::DuplicateEdit:
        return StatusTextTr::tr("%1 changes the same as edit %2; give each once.")
            .arg(edit)
            .arg(s.row + 1);
    default: break;
    }
    return StatusTextTr::tr("%1: %2").arg(edit, str(s.detail));
}

// A checkpoint's file: its header, tensors and config.json, each named with its file.
QString checkpointMessage(const attn::Status& s)
{
    const QString file = filePrefix(s);
    const QString field = str(s.field);
    const QString detail = str(s.detail);
    switch (s.code) {
    case attn::StatusCode::FileOpen:
        return file + StatusTextTr::tr("cannot be opened (%1).").arg(detail);
    case attn::StatusCode::FileTruncated:
        return file +
               StatusTextTr::tr("the file is shorter than its header says (%1).").arg(detail);
    case attn::StatusCode::HeaderTooLarge:
        return file + StatusTextTr::tr("the header is too large (%1).").arg(detail);
    case attn::StatusCode::HeaderSyntax:
        return file + StatusTextTr::tr("the header is not a valid JSON object (%1).").arg(detail);
    case attn::StatusCode::HeaderField:
        return file + StatusTextTr::tr(
                          "%1: its dtype, shape or data_offsets is missing or malformed (%2).")
                          .arg(field, detail);
    case attn::StatusCode::UnknownDtype:
        return file + StatusTextTr::tr("%1: a data type this program does not know (%2).")
                          .arg(field, detail);
    case attn::StatusCode::UnsupportedDtype:
        return file +
               StatusTextTr::tr("%1: a data type the model cannot use (%2).").arg(field, detail);
    case attn::StatusCode::BadOffsets:
        return file + StatusTextTr::tr(
                          "%1: its data offsets are out of range or disagree with its shape "
                          "(%2).")
                          .arg(field, detail);
    case attn::StatusCode::Overlap:
        return file + StatusTextTr::tr("%1 shares bytes with another tensor.").arg(field);
    case attn::StatusCode::ConfigField:
        return file + (field.isEmpty()
                           ? StatusTextTr::tr("the configuration cannot be read (%1).").arg(detail)
                           : StatusTextTr::tr("the field %1 is missing or wrong (%2).")
                                 .arg(field, detail));
    case attn::StatusCode::UnsupportedModel:
        return file + StatusTextTr::tr("%1: this model or option is not supported (%2).")
                          .arg(field, detail);
    case attn::StatusCode::MissingTensor:
        return file + StatusTextTr::tr("the tensor %1 is missing (%2).").arg(field, detail);
    case attn::StatusCode::TensorShape:
        return file + StatusTextTr::tr("%1 has the wrong shape (%2).").arg(field, detail);
    case attn::StatusCode::TorchArchive:
        return file + (field.isEmpty()
                           ? StatusTextTr::tr("not a torch.save checkpoint this program reads "
                                              "(%1).")
                                 .arg(detail)
                           : StatusTextTr::tr("not a torch.save checkpoint this program reads: "
                                              "%1 (%2).")
                                 .arg(field, detail));
    case attn::StatusCode::PickleGlobal:
        return file + StatusTextTr::tr(
                          "its pickle names %1, which is never called: a checkpoint "
                          "is read only as tensors, since a pickle that names a "
                          "function could run any code.")
                          .arg(field);
    default: return str(attn::describe(s));
    }
}

// A model run refused or stopped: its tokens, positions, layers, values. Empty when the
// status has no facts to translate, so that the core's English stands.
QString runMessage(const attn::Status& s)
{
    const QString field = str(s.field);
    const QString detail = str(s.detail);
    switch (s.code) {
    case attn::StatusCode::EmptyInput: return StatusTextTr::tr("There are no tokens to run.");
    case attn::StatusCode::TooLong:
        if (s.limit >= 0)
            return StatusTextTr::tr(
                       "The text has %1 tokens, more than the model's %2 positions; it is "
                       "not cut short.")
                .arg(s.value)
                .arg(s.limit);
        return StatusTextTr::tr("There is not enough memory for this many tokens.");
    case attn::StatusCode::TokenOutOfRange:
        return StatusTextTr::tr("Token %1 has the id %2, outside the vocabulary of %3.")
            .arg(s.position + 1)
            .arg(s.value)
            .arg(s.limit);
    case attn::StatusCode::BadPosition:
        if (s.position >= 0 && s.limit >= 0)
            return StatusTextTr::tr("Position %1 is outside the %2 tokens.")
                .arg(s.position + 1)
                .arg(s.limit);
        break;
    case attn::StatusCode::BadLayer:
        return StatusTextTr::tr(
                   "%1: this layer or head is not in the model or not in the run (%2).")
            .arg(field, detail);
    case attn::StatusCode::NonFinite:
        if (s.detail.empty()) return nonFiniteInModel(s);
        break;
    case attn::StatusCode::Cancelled: return StatusTextTr::tr("Cancelled.");
    default: break;
    }
    return {};
}

// Tokenizer files and the folder that holds a model's files.
QString tokenizerMessage(const attn::Status& s)
{
    const QString file = filePrefix(s);
    const QString detail = str(s.detail);
    switch (s.code) {
    case attn::StatusCode::TokenizerFile:
        return file + StatusTextTr::tr("the tokenizer file cannot be read (%1).").arg(detail);
    case attn::StatusCode::TokenizerSyntax:
        return file + StatusTextTr::tr("the tokenizer file is not valid (%1).").arg(detail);
    case attn::StatusCode::TokenizerMismatch:
        return file + StatusTextTr::tr("the tokenizer does not fit the model (%1).").arg(detail);
    case attn::StatusCode::TokenizerGrowth:
        return StatusTextTr::tr(
                   "The tokenizer's %1 would make the text %2 bytes long, more than the limit of "
                   "%3; it is not run.")
            .arg(str(s.stage))
            .arg(s.value)
            .arg(s.limit);
    case attn::StatusCode::FolderMismatch:
        return file + StatusTextTr::tr(
                          "does not belong with the other files of its folder (%1). The folder "
                          "was changed after AttnLab wrote it; it is not opened.")
                          .arg(detail);
    default: return str(attn::describe(s));
    }
}

// Checkpoints, model runs and tokenizer files. The facts are translated; a sentence only the
// core's `detail` holds (a parser's complaint) is quoted in English after them.
QString modelMessage(const attn::Status& s)
{
    if (s.edit >= 0 && !s.detail.empty()) return editRefusal(s);
    switch (s.code) {
    case attn::StatusCode::FileOpen:
    case attn::StatusCode::FileTruncated:
    case attn::StatusCode::HeaderTooLarge:
    case attn::StatusCode::HeaderSyntax:
    case attn::StatusCode::HeaderField:
    case attn::StatusCode::UnknownDtype:
    case attn::StatusCode::UnsupportedDtype:
    case attn::StatusCode::BadOffsets:
    case attn::StatusCode::Overlap:
    case attn::StatusCode::ConfigField:
    case attn::StatusCode::UnsupportedModel:
    case attn::StatusCode::MissingTensor:
    case attn::StatusCode::TensorShape:
    case attn::StatusCode::TorchArchive:
    case attn::StatusCode::PickleGlobal: return checkpointMessage(s);
    case attn::StatusCode::TokenizerFile:
    case attn::StatusCode::TokenizerSyntax:
    case attn::StatusCode::TokenizerMismatch:
    case attn::StatusCode::TokenizerGrowth:
    case attn::StatusCode::FolderMismatch: return tokenizerMessage(s);
    default: break;
    }
    const QString run = runMessage(s);
    return run.isEmpty() ? str(attn::describe(s)) : run;
}

// Rotary positions refused: the width they turn, the score function, or a parameter.
QString ropeRefusal(const attn::Status& s)
{
    const std::string& f = s.field;
    if (f == "d_k")
        return StatusTextTr::tr(
                   "Rotary positions (RoPE) turn q and k in pairs of coordinates, so d_k must be "
                   "even; it is %1.")
            .arg(s.value);
    if (f == "score")
        return StatusTextTr::tr(
            "Rotary positions (RoPE) need dot-product scoring: only q·k turns into a function "
            "of the distance between the positions.");
    if (f == "rope.theta") return StatusTextTr::tr("The RoPE base θ must be a number above 0.");
    if (f == "rope.factor")
        return StatusTextTr::tr("The RoPE scaling factor must be a number of at least 1.");
    if (f == "rope.low_freq_factor" || f == "rope.high_freq_factor")
        return StatusTextTr::tr(
            "llama3 RoPE scaling needs 0 < low_freq_factor < high_freq_factor.");
    if (f == "rope.original_max_position_embeddings")
        return StatusTextTr::tr(
            "llama3 RoPE scaling needs original_max_position_embeddings above 0.");
    return str(attn::describe(s));
}

// The attention core's inputs that are empty or out of range, in their own words.
QString inputMessage(attn::StatusCode code)
{
    switch (code) {
    case attn::StatusCode::EmptyTarget: return StatusTextTr::tr("The sequence has no tokens.");
    case attn::StatusCode::EmptySource:
        return StatusTextTr::tr(
            "Cross-attention needs a source sequence with at least one token: "
            "type it in the Sequences panel (View ▸ Panels ▸ Sequences), "
            "under Source.");
    case attn::StatusCode::NoHeads: return StatusTextTr::tr("There must be at least one head.");
    case attn::StatusCode::ZeroModelDim: return StatusTextTr::tr("The embedding dimension is 0.");
    case attn::StatusCode::ZeroKeyDim:
        return StatusTextTr::tr("The key dimension d_k must be at least 1.");
    case attn::StatusCode::ZeroValueDim:
        return StatusTextTr::tr("The value dimension d_v must be at least 1.");
    case attn::StatusCode::BadTemperature:
        return StatusTextTr::tr("The temperature must be a number greater than 0.");
    case attn::StatusCode::SharedNeedsEqualDims:
        return StatusTextTr::tr("Shared projections need d_v equal to d_k.");
    default: return {};
    }
}

// A matrix of the wrong shape, or a value in it that is not finite; `field` names it.
QString shapeMessage(const attn::Status& s, const QString& field)
{
    switch (s.code) {
    case attn::StatusCode::ShapeMismatch:
        return StatusTextTr::tr("%1 should be %2 × %3 but is %4 × %5.")
            .arg(field)
            .arg(s.expectedRows)
            .arg(s.expectedCols)
            .arg(s.row)
            .arg(s.col);
    case attn::StatusCode::NonFinite:
        if (s.row < 0 || s.col < 0)
            return StatusTextTr::tr("%1 holds a value that is not a finite number.").arg(field);
        return StatusTextTr::tr("%1 holds a value that is not a finite number (row %2, column %3).")
            .arg(field)
            .arg(s.row + 1)
            .arg(s.col + 1);
    case attn::StatusCode::MaskShape:
        return StatusTextTr::tr("The mask should be %1 × %2 but is %3 × %4.")
            .arg(s.expectedRows)
            .arg(s.expectedCols)
            .arg(s.row)
            .arg(s.col);
    default: return {};
    }
}

// An edit, an additive head or a training target refused; `field` names it.
QString editMessage(const attn::Status& s, const QString& field)
{
    switch (s.code) {
    case attn::StatusCode::EditOutOfRange:
        if (!field.isEmpty())
            return StatusTextTr::tr(
                       "%1: the edit names a head, token or component that does not exist.")
                .arg(field);
        return StatusTextTr::tr("The edit names a head, token or component that does not exist.");
    case attn::StatusCode::DuplicateEdit:
        if (s.field == "overrides")
            return StatusTextTr::tr("%1 sets component %2 twice; give each component once.")
                .arg(field.isEmpty() ? StatusTextTr::tr("The edit") : field)
                .arg(s.col + 1);
        return StatusTextTr::tr(
                   "%1 edits the same vector (%2) as edit %3; each vector may have one edit.")
            .arg(field, str(s.subject))
            .arg(s.row + 1);
    case attn::StatusCode::MissingAdditive:
        return StatusTextTr::tr(
                   "%1 is empty: additive scoring needs every head's W_a, U_a and v (d_a at "
                   "least 1).")
            .arg(field);
    case attn::StatusCode::EditScaleTooLarge:
        return StatusTextTr::tr(
                   "%1 is too large: an edit may scale a vector by at most 1e100 (beyond, its "
                   "scores overflow).")
            .arg(field.isEmpty() ? StatusTextTr::tr("The scale") : field);
    case attn::StatusCode::BadTarget:
        return StatusTextTr::tr(
                   "%1 is negative at row %2, column %3: a target pattern holds weights of 0 "
                   "or more.")
            .arg(field)
            .arg(s.row + 1)
            .arg(s.col + 1);
    default: return {};
    }
}

// Over the memory budget: a training run's memory, the size of the record it writes, or the
// attention core's stages.
QString tooLargeMessage(const attn::Status& s)
{
    if (s.field == "memory")
        return StatusTextTr::tr(
                   "This training run would hold about %1 MiB of memory, more than the limit "
                   "of %2 MiB. Use a smaller model, batch or context.")
            .arg(s.bytesNeeded >> 20)
            .arg(s.bytesBudget >> 20);
    if (s.field == "training.json")
        return StatusTextTr::tr(
                   "The run's training.json would be about %1 MiB, more than the limit of %2 "
                   "MiB. Measure less often or train fewer steps.")
            .arg(s.bytesNeeded >> 20)
            .arg(s.bytesBudget >> 20);
    return StatusTextTr::tr(
               "This would need %1 MiB of memory, more than the limit of %2 MiB. Use fewer "
               "tokens or heads.")
        .arg(s.bytesNeeded >> 20)
        .arg(s.bytesBudget >> 20);
}

}  // namespace

QString statusMessage(const attn::Status& s)
{
    if (s.code == attn::StatusCode::BadRope) return ropeRefusal(s);
    // A model run's non-finite value names its layer and stage rather than a matrix cell.
    if (!s.detail.empty() ||
        (s.code == attn::StatusCode::NonFinite &&
         (s.layer >= 0 || s.cause != attn::Cause::Unknown || !s.stage.empty())))
        return modelMessage(s);
    switch (s.code) {
    case attn::StatusCode::Ok: return {};
    case attn::StatusCode::EmptyTarget:
    case attn::StatusCode::EmptySource:
    case attn::StatusCode::NoHeads:
    case attn::StatusCode::ZeroModelDim:
    case attn::StatusCode::ZeroKeyDim:
    case attn::StatusCode::ZeroValueDim:
    case attn::StatusCode::BadTemperature:
    case attn::StatusCode::SharedNeedsEqualDims: return inputMessage(s.code);
    case attn::StatusCode::ShapeMismatch:
    case attn::StatusCode::NonFinite:
    case attn::StatusCode::MaskShape: return shapeMessage(s, placeOf(s));
    case attn::StatusCode::EditOutOfRange:
    case attn::StatusCode::DuplicateEdit:
    case attn::StatusCode::MissingAdditive:
    case attn::StatusCode::EditScaleTooLarge:
    case attn::StatusCode::BadTarget: return editMessage(s, placeOf(s));
    case attn::StatusCode::TooLarge: return tooLargeMessage(s);
    default: return modelMessage(s);
    }
}

}  // namespace attnlab
