// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Edits of one attention head inside a real model, carried through the rest of the network:
// scale one position's query, key or value vector of a head (the projected vector with its
// bias, as the scores see it), or ablate a head (its output P V set to zero, or every row
// replaced by the mean of its rows over positions). Several edits may be applied at once.
//
// runEdited() re-runs only from the first edited layer on, from the residual stream an
// unedited run kept (forwardFrom), so the layers before it are the unedited run's.

#include <span>
#include <string>
#include <vector>

#include "core/model/attention_kind.h"
#include "core/model/forward.h"

namespace attn::model {

enum class HeadEditKind { Query, Key, Value, AblateZero, AblateMean };

struct HeadEdit {
    HeadEditKind kind = HeadEditKind::Key;
    int layer = 0;   // from 0
    int head = 0;    // from 0
    long index = 0;  // the position (query, key and value edits), from 0
    float scale = 1.0f;
    // Which attention of an encoder-decoder (seq2seq_edit.h); a decoder-only model has only
    // its decoder's, and ignores this.
    AttentionKind attention = AttentionKind::Decoder;
    bool operator==(const HeadEdit&) const = default;
};

// Whether two edits change the same thing: one head's ablation, or one vector (keys and values
// are the key/value head's, which `group` query heads share).
bool sameEditTarget(const HeadEdit& a, const HeadEdit& b, long group);

// "key layer 1 head 2 index 3 x2" (1-based, as the window shows them), for messages.
std::string describe(const HeadEdit& edit);

// Refuses an edit whose layer, head or position is outside the model and the sequence of
// `tokens`, a non-finite scale, or two edits of one vector (or one head ablated twice,
// DuplicateEdit with `row` the earlier edit). The status names the edit: `edit` is its index,
// the message counts from 1 ("edit 2 (key layer 13 head 1 index 1 x2): the model has 12
// layers") and `detail` holds the sentence after the names.
attn::Status checkEdits(const Model& model, long tokens, std::span<const HeadEdit> edits);

// The options with hooks that apply `edits` (added to any hooks `base` has). With grouped-query
// heads (`groupSize` query heads per key/value head), a key or value edit of head j acts on its
// key/value head, and so on every query head of j's group; query edits and ablations act on j.
ForwardOptions withEdits(const ForwardOptions& base, std::vector<HeadEdit> edits,
                         long groupSize = 1);

// The edited run: `before` (a complete forward() of the same ids) with its layers from the first
// edited one re-run under the edits. `after` is overwritten; `before` is left as it is. A value
// that is not finite is the edits' doing (`before` was finite): the status says attn::Cause::Edit
// and names the edit on the failing head, else the edit of the earliest layer.
attn::Status runEdited(const Model& model, const ForwardResult& before,
                       std::span<const HeadEdit> edits, const ForwardOptions& options,
                       ForwardResult& after);

// For every layer and head, the largest absolute change of a weight between two runs of the
// same ids: [layer][head]. Empty when the runs do not match in shape.
std::vector<std::vector<float>> attentionChange(const ForwardResult& before,
                                                const ForwardResult& after);

}  // namespace attn::model
