// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Outcome of reading a checkpoint or running a model: a code plus the facts that name the
// problem (the file, the tensor or field) and a plain-English message for logs, tests and the
// command line. Nothing in core/model throws out of its API; every failure comes back here.

#include <string>

namespace attn::model {

enum class ModelError {
    Ok,
    FileOpen,          // the file is missing or unreadable
    FileTruncated,     // shorter than its header says
    HeaderTooLarge,    // header length above 100 MB or beyond the file
    HeaderSyntax,      // not JSON, or not an object
    HeaderField,       // a tensor entry lacks or mangles dtype / shape / data_offsets
    UnknownDtype,      // a dtype this reader does not know
    UnsupportedDtype,  // a known dtype the model cannot use (e.g. I64 for a weight)
    BadOffsets,        // offsets out of range, begin > end, or disagreeing with the shape
    Overlap,           // two tensors share bytes
    ConfigField,       // config.json lacks a field or has a wrong value
    UnsupportedModel,  // model_type (or an option) this code does not run
    MissingTensor,     // a tensor the architecture needs is absent
    TensorShape,       // a tensor has the wrong shape
    EmptyInput,        // no token ids
    TooLong,           // more tokens than the model has positions
    TokenOutOfRange,   // an id outside the vocabulary
    BadPosition,       // a prediction position outside the sequence
    BadLayer,          // a start layer outside the model, or no cached input for it
    NonFinite,         // the forward pass produced NaN or Inf (layer, head, stage, cause say more)
    Cancelled,         // the caller's progress callback asked to stop
    DuplicateEdit,     // two edits of one vector, or one head ablated twice (`row`: the earlier)
};

// What made a run's values non-finite: its weights (a tensor holds NaN or Inf; `field` names
// it), the text (the weights are finite, but this input drives a value beyond float range), or
// an edit (the unedited run was finite; `edit` names the edit).
enum class Cause { Unknown, Weights, Text, Edit };

// Layers, heads, positions and edits are kept from 0 (-1: none) and printed from 1.
struct ModelStatus {
    ModelError code = ModelError::Ok;
    std::string file;      // the file concerned, if any
    std::string field;     // tensor name, JSON field, ...
    std::string message;   // complete English sentence naming file and field
    std::string detail{};  // the sentence after the names ("the model has 12 layers")
    int layer = -1;        // where in the model
    int head = -1;
    long position = -1;   // a token
    std::string stage{};  // the stage that holds the value ("the scores", "its output")
    Cause cause = Cause::Unknown;
    int edit = -1;          // the edit concerned: its index in the list of edits
    long row = -1;          // DuplicateEdit: the index of the earlier edit
    std::string subject{};  // the edit concerned, described ("key layer 1 head 2 index 3 x2")

    [[nodiscard]] bool ok() const { return code == ModelError::Ok; }
};

// Builds a failed status whose message is "<file>: <field>: <detail>" (parts left out when
// empty).
ModelStatus modelError(ModelError code, std::string file, std::string field,
                       const std::string& detail);
// Stable identifier of a code ("missing_tensor"), for files and tests.
const char* modelErrorName(ModelError code);
// "layer 3 head 2, the scores" (from 1), or "" when the status names no layer, head or stage.
std::string whereInModel(const ModelStatus& status);
// The English sentence of a non-finite value: where it arose, then its cause.
std::string describeNonFinite(const ModelStatus& status);

}  // namespace attn::model
