// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every rule for what a change does to a session, as pure functions Session -> Session.
// Panels never write these rules themselves: they call the Document's named operation,
// which applies one of these to a copy, computes, and publishes only when both succeeded.
//
// Invariants, the same for every operation:
//  - Vector edits survive every change under which they are still valid (their head,
//    position and components exist). Mode, scaling, temperature, score function, rotary
//    positions, d_k and shared projections keep them: the textbook's "doubled key under a causal
//    mask". Edits that no longer fit (fewer heads, a shorter or changed sequence) are dropped and
//    named in the notes.
//  - A custom mask survives while its shape (n x m) still fits the session; otherwise it is
//    dropped with a note.
//  - Raising the number of heads keeps the existing heads' matrices; new heads are drawn
//    from the session's seed.
//  - Pinned weights are the Document's (not the session's): it drops them, with a message,
//    when the tokens or the shape change.

#include <QStringList>

#include "ui/readers/session.h"

namespace attnlab {

// The session's matrices that can be edited cell by cell.
enum class EditableMatrix { X, Y, WQ, WK, WV, WO, Wa, Ua, Va };

// The matrix of kind `m` in the session (const or not); nullptr for the vector v or a bad head.
template <typename S>
auto matrixIn(S& s, EditableMatrix m, int head) -> decltype(&s.input.X)
{
    auto& in = s.input;
    if (m == EditableMatrix::X) return &in.X;
    if (m == EditableMatrix::Y) return &in.Y;
    if (m == EditableMatrix::WO) return &in.W_O;
    if (head < 0 || head >= static_cast<int>(in.heads.size())) return nullptr;
    auto& p = in.heads[static_cast<std::size_t>(head)];
    switch (m) {
    case EditableMatrix::WQ: return &p.W_Q;
    case EditableMatrix::WK: return &p.W_K;
    case EditableMatrix::WV: return &p.W_V;
    case EditableMatrix::Wa: return &p.additive.W_a;
    case EditableMatrix::Ua: return &p.additive.U_a;
    default: return nullptr;
    }
}

// The additive scoring vector v of a head, or nullptr for a bad head.
template <typename S>
auto vectorIn(S& s, int head) -> decltype(&s.input.heads.front().additive.v)
{
    if (head < 0 || head >= static_cast<int>(s.input.heads.size())) return nullptr;
    return &s.input.heads[static_cast<std::size_t>(head)].additive.v;
}

namespace ops {

// The changed session and what the change did besides its purpose (translated sentences,
// e.g. "2 vector edits were dropped: …"), for the window to say.
struct Changed {
    Session session;
    QStringList notes;
};

Changed setMode(const Session& s, attn::Mode mode);
Changed setScaling(const Session& s, attn::Scaling scaling);
Changed setTemperature(const Session& s, double temperature);
Changed setScore(const Session& s, attn::ScoreFunction score);
// Rotary positions on (with these parameters) or off (nullopt). Edits are kept: they change
// the vectors before they are turned.
Changed setRope(const Session& s, const std::optional<attn::Rope>& rope);
// New random projections of width d_k (d_v follows when projections are shared).
Changed setKeyDim(const Session& s, int dK);
Changed setShared(const Session& s, bool shared);
Changed setHeadCount(const Session& s, int heads);
// New tokens for the target (or the source): rows of unchanged tokens keep their embeddings,
// edits of positions whose token is unchanged are kept.
Changed setTokens(const Session& s, bool source, const QStringList& tokens);
Changed setMatrixEntry(const Session& s, EditableMatrix m, int head, int row, int column,
                       double value);
// New projections, W_O and additive parameters from `seed` (hand edits of them are lost).
Changed randomise(const Session& s, quint64 seed);
// Flips one cell of the custom mask (a mask that allows everything is removed).
Changed toggleMaskCell(const Session& s, int row, int column);

// Drops the edits of `c.session` that no longer fit it, with a note naming them.
void dropInvalidEdits(Changed& c);

}  // namespace ops
}  // namespace attnlab
