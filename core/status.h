// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one status of the core: a code plus the facts that name the problem. Attention, the
// long path, training, checkpoints, model runs and tokenizers all report failures with it.
// The core produces no user-facing prose beyond describe()'s plain English (for logs, tests
// and the command line); the window translates from the code and the fields.

#include <cstddef>
#include <string>

namespace attn {

enum class StatusCode {
    Ok,
    // The attention core, its long path and training.
    EmptyTarget,           // n = 0
    EmptySource,           // m = 0 in cross mode
    NoHeads,               // h = 0
    ZeroModelDim,          // d_model = 0
    ZeroKeyDim,            // d_k = 0
    ZeroValueDim,          // d_v = 0
    ShapeMismatch,         // field has the wrong number of rows or columns
    NonFinite,             // NaN or +-Inf: in field at (row, col), or in a model run (see Cause)
    MaskShape,             // custom mask is not n x m
    BadTemperature,        // temperature <= 0 or not finite
    SharedNeedsEqualDims,  // shared projections need d_k == d_v
    EditOutOfRange,        // a vector edit names a head, row or component that does not exist
    TooLarge,              // the stages would need more memory than the budget
    DuplicateEdit,         // two edits name the same vector: `row` is the earlier edit's index
    MissingAdditive,       // additive scoring, but a head has no additive parameters (d_a = 0)
    EditScaleTooLarge,     // an edit's scale beyond kMaxEditScale: its scores would overflow
    BadTarget,             // a training target entry is negative (field, row, col name it)
    BadRope,  // rotary positions cannot turn these vectors: `field` is "d_k" (odd; `value` holds
              // it), "score" (additive scoring) or the parameter ("rope.theta", ...); `detail`
              // is the English sentence
    // Checkpoints (safetensors, config.json) and model runs.
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
    Cancelled,         // the caller's progress callback asked to stop
    // Tokenizer files.
    TokenizerFile,      // a tokenizer file is missing, a folder, too large or unreadable
    TokenizerSyntax,    // a tokenizer file's content is malformed (`detail` says how)
    TokenizerMismatch,  // the tokenizer's ids do not fit the model's vocabulary: `value` is the
                        // id (or the count of tokens), `limit` config.json's vocab_size
    TokenizerGrowth,    // a tokenizer.json stage would make the text longer than it may be:
                        // `stage` names it, `value` is the bytes it would reach, `limit` the bound
    // Model folders.
    FolderMismatch,  // a file does not match the SHA-256 that the folder's training.json records
    // torch.save checkpoints (pytorch_model.bin).
    TorchArchive,  // the zip or its pickle is malformed, or not what torch.save writes
    PickleGlobal,  // the pickle names a function other than a state dict's (`field` names it)
};

// The last code: tests and translations walk every code up to it.
inline constexpr StatusCode kLastStatusCode = StatusCode::PickleGlobal;

// What made a model run's values non-finite: its weights (a tensor holds NaN or Inf; `field`
// names it), the text (the weights are finite, but this input drives a value beyond float
// range), or an edit (the unedited run was finite; `edit` names the edit).
enum class Cause { Unknown, Weights, Text, Edit };

// Layers, heads, positions, edits, rows and columns are kept from 0 (-1: none) and printed
// from 1. The first six members keep their order: the core builds statuses as
// Status{code, field, row, col, expectedRows, expectedCols}.
struct Status {
    using Code = StatusCode;

    StatusCode code = StatusCode::Ok;
    std::string field;  // the tensor, matrix or option: "X", "W_K", "mask", "scale", "ids"
    long row = -1;      // NonFinite / ShapeMismatch: where, or the rows found; DuplicateEdit:
    long col = -1;      // the earlier edit
    long expectedRows = -1;
    long expectedCols = -1;
    std::size_t bytesNeeded = 0;  // TooLarge
    std::size_t bytesBudget = 0;
    std::string subject{};  // what the field is about, e.g. "value 1 of head 1" (from 1)
    int layer = -1;         // where in a model
    int head = -1;          // the head the field belongs to
    long position = -1;     // a token
    int edit = -1;          // the edit concerned: its index in the list of edits
    std::string stage{};    // the stage that holds a value ("the scores", "its output")
    Cause cause = Cause::Unknown;
    std::string file{};    // the file concerned, if any
    std::string detail{};  // the English sentence after the names ("the model has 12 layers")
    long value = -1;       // the number found: tokens, an id, a layer or position (from 0)
    long limit = -1;       // the bound it broke: positions, vocabulary, layers, heads, tokens

    [[nodiscard]] bool ok() const { return code == StatusCode::Ok; }
    static Status success() { return {}; }
};

// A failed status naming a file and a field, with the English detail after them.
Status failure(StatusCode code, std::string file, std::string field, std::string detail);
// A failure in `field` ("W_K", "scores") of head `head` (from 0).
Status headFailure(StatusCode code, int head, std::string field);

// The English default message, naming the file, the place (layer, head, edit, from 1) and
// the field, e.g. "head 1, W_Q: expected 4 x 3, got 4 x 2".
std::string describe(const Status& status);
// "layer 3 head 2, the scores" (from 1), or "" when the status names no layer, head or stage.
std::string whereInModel(const Status& status);
// Stable identifier of a code ("shape_mismatch"), for files and tests.
const char* codeName(StatusCode code);

}  // namespace attn
