// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The whole session as plain data: token labels, the core's input (embeddings,
// projections, options, vector edits) and the seed that made the random parts.

#include <optional>
#include <vector>

#include <QStringList>
#include <QtGlobal>

#include "core/attention_input.h"

namespace attnlab {

// Where a session's head came from when it was opened from a real model (session format
// version 2): the checkpoint, its identity and the head, so that the model can be attached
// again to carry edits through the rest of the network.
struct ModelProvenance {
    QString folder;     // the model folder, absolute
    QString sha256;     // of its model.safetensors: 64 lower-case hex digits
    QString modelType;  // "gpt2" or "bert"
    int layer = 0;      // from 0
    int head = 0;       // from 0
    QString text;       // the text the model ran on; the session's tokens are its tokens
    bool operator==(const ModelProvenance&) const = default;
};

struct Session {
    QStringList targetTokens;  // n labels, one per row of input.X
    QStringList sourceTokens;  // m labels, one per row of input.Y (cross mode)
    attn::AttentionInput input;
    quint64 seed = 1;
    int dModel = 3;
    int dAdditive = 3;
    std::optional<ModelProvenance> provenance;  // set when the head came from a real model
};

// The opening session: the textbook's hand exercise (four tokens, 3 x 3 projections).
Session defaultSession();

// Splits typed text into tokens: on whitespace, or per character when `perCharacter`
// (for text without spaces, such as Chinese); whitespace is never a token.
QStringList splitTokens(const QString& text, bool perCharacter);

// For each of `tokens`, the position in `oldTokens` whose vector it keeps: its own position
// when that still holds the same token, else the first position left with the same text (a
// word moved elsewhere); -1 for a token that was not there.
std::vector<int> tokenOrigins(const QStringList& tokens, const QStringList& oldTokens);

// Rebuilds the embeddings for a new token list: a token keeps its row wherever it moved (see
// tokenOrigins); rows of tokens that were not there are drawn from a generator seeded by the
// session seed and the token text, so the same token always gets the same vector.
attn::Matrix embeddingsFor(const QStringList& tokens, const QStringList& oldTokens,
                           const attn::Matrix& oldEmbeddings, int dModel, quint64 seed);
// The same, from origins tokenOrigins() already gave.
attn::Matrix embeddingsFrom(const QStringList& tokens, const std::vector<int>& origin,
                            const attn::Matrix& oldEmbeddings, int dModel, quint64 seed);

// New random projections (all heads), W_O and additive parameters for the given sizes.
void randomiseProjections(Session& session, int heads, int dK, int dV, quint64 seed);

// `count` axis labels: the given tokens, padded with positions (1-based) when too few.
QStringList labelsFor(const QStringList& given, long count);
// A token as maps, figures and panels draw it: control characters named by Unicode's control
// pictures (U+0000 as ␀, DEL as ␡), so that every export format can hold it, and at most
// kMaxShownLabel characters, the rest as "…" (a 100 MB token is not drawn whole).
inline constexpr int kMaxShownLabel = 32;
// Hover and tool tips show the token whole, up to this many characters.
inline constexpr int kMaxHoverLabel = 2000;
QString shownLabel(const QString& token, int maxChars = kMaxShownLabel);
// labelsFor(), each label as shownLabel() draws it.
QStringList shownLabelsFor(const QStringList& given, long count);
// "1" … "count": labels for the components of a vector.
QStringList componentLabels(long count);

// Keys come from the source in cross mode, else from the target.
const QStringList& keyTokens(const Session& session);

}  // namespace attnlab
