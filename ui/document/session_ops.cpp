// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/session_ops.h"

#include <algorithm>

#include <QCoreApplication>

namespace attnlab::ops {

namespace {

class SessionOpsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SessionOps)
};

QString vectorName(const attn::VectorEdit& e)
{
    const int token = e.index + 1;
    const int head = e.head + 1;
    switch (e.role) {
    case attn::Role::Query: return SessionOpsTr::tr("query %1 of head %2").arg(token).arg(head);
    case attn::Role::Key: return SessionOpsTr::tr("key %1 of head %2").arg(token).arg(head);
    case attn::Role::Value: return SessionOpsTr::tr("value %1 of head %2").arg(token).arg(head);
    }
    return {};
}

// The mask no longer fits the session's n x m: drop it, saying so.
void dropMisfitMask(Changed& c)
{
    attn::AttentionInput& in = c.session.input;
    if (!in.mask) return;
    if (in.mask->rows() == in.queryCount() && in.mask->cols() == in.keyCount()) return;
    in.mask.reset();
    c.notes << SessionOpsTr::tr(
        "The custom mask was removed: its shape no longer fits the sequences.");
}

Changed unchanged(const Session& s)
{
    return Changed{s, {}};
}

}  // namespace

void dropInvalidEdits(Changed& c)
{
    attn::AttentionInput& in = c.session.input;
    QStringList dropped;
    std::vector<attn::VectorEdit> kept;
    for (const attn::VectorEdit& e : in.edits) {
        if (attn::validateEdit(in, e).ok())
            kept.push_back(e);
        else
            dropped << vectorName(e);
    }
    if (dropped.isEmpty()) return;
    in.edits = std::move(kept);
    c.notes << SessionOpsTr::tr("%n vector edit(s) no longer fit and were dropped: %1.", nullptr,
                                static_cast<int>(dropped.size()))
                   .arg(dropped.join(QStringLiteral(", ")));
}

Changed setMode(const Session& s, attn::Mode mode)
{
    Changed c = unchanged(s);
    c.session.input.mode = mode;
    dropMisfitMask(c);
    dropInvalidEdits(c);
    return c;
}

Changed setScaling(const Session& s, attn::Scaling scaling)
{
    Changed c = unchanged(s);
    c.session.input.scaling = scaling;
    return c;
}

Changed setTemperature(const Session& s, double temperature)
{
    Changed c = unchanged(s);
    c.session.input.temperature = temperature;
    return c;
}

Changed setScore(const Session& s, attn::ScoreFunction score)
{
    Changed c = unchanged(s);
    c.session.input.score = score;
    return c;
}

Changed setRope(const Session& s, const std::optional<attn::Rope>& rope)
{
    Changed c = unchanged(s);
    c.session.input.rope = rope;
    return c;
}

Changed setKeyDim(const Session& s, int dK)
{
    Changed c = unchanged(s);
    attn::AttentionInput& in = c.session.input;
    const std::vector<attn::VectorEdit> edits = in.edits;
    const int heads = static_cast<int>(in.heads.size());
    const int dV = in.sharedProjections ? dK : static_cast<int>(in.valueDim());
    randomiseProjections(c.session, heads, dK, dV, s.seed);
    in.edits = edits;
    dropInvalidEdits(c);
    return c;
}

Changed setShared(const Session& s, bool shared)
{
    Changed c = unchanged(s);
    attn::AttentionInput& in = c.session.input;
    in.sharedProjections = shared;
    const int dK = static_cast<int>(in.keyDim());
    const int dV = static_cast<int>(in.heads.front().W_V.cols());
    if (shared && dV != dK) {
        const std::vector<attn::VectorEdit> edits = in.edits;
        randomiseProjections(c.session, static_cast<int>(in.heads.size()), dK, dK, s.seed);
        in.edits = edits;
        c.notes << SessionOpsTr::tr(
            "Shared projections need d_v = d_k: new projections were drawn.");
    }
    dropInvalidEdits(c);
    return c;
}

Changed setHeadCount(const Session& s, int heads)
{
    Changed c = unchanged(s);
    attn::AttentionInput& in = c.session.input;
    const int old = static_cast<int>(in.heads.size());
    const long dV = in.valueDim();
    const std::vector<attn::VectorEdit> edits = in.edits;
    const std::vector<attn::HeadParams> oldHeads = in.heads;
    const attn::Matrix oldWO = in.W_O;
    randomiseProjections(c.session, heads, static_cast<int>(in.keyDim()),
                         static_cast<int>(in.heads.front().W_V.cols()), s.seed);
    // The heads that stay keep their matrices, and their rows of W_O where there was one.
    const int kept = std::min(old, heads);
    for (int h = 0; h < kept; ++h)
        in.heads[static_cast<std::size_t>(h)] = oldHeads[static_cast<std::size_t>(h)];
    if (in.W_O.size() != 0 && oldWO.size() != 0 && oldWO.cols() == in.W_O.cols()) {
        const long rows = std::min(oldWO.rows(), kept * dV);
        in.W_O.topRows(rows) = oldWO.topRows(rows);
    }
    in.edits = edits;
    dropInvalidEdits(c);
    return c;
}

Changed setTokens(const Session& s, bool source, const QStringList& tokens)
{
    Changed c = unchanged(s);
    Session& n = c.session;
    QStringList& old = source ? n.sourceTokens : n.targetTokens;
    attn::Matrix& emb = source ? n.input.Y : n.input.X;
    const std::vector<int> origin = tokenOrigins(tokens, old);
    emb = embeddingsFrom(tokens, origin, emb, n.dModel, n.seed);
    QStringList fresh;
    for (qsizetype i = 0; i < tokens.size(); ++i)
        if (origin[static_cast<std::size_t>(i)] < 0) fresh << tokens[i];
    // An edit follows its token to wherever it moved; it goes with a token that went.
    const bool keysFromSource = n.input.mode == attn::Mode::Cross;
    std::vector<attn::VectorEdit> kept;
    QStringList dropped;
    for (attn::VectorEdit e : n.input.edits) {
        const bool onThis = e.role == attn::Role::Query ? !source : keysFromSource == source;
        const auto to = std::find(origin.begin(), origin.end(), e.index);
        if (onThis && to == origin.end()) {
            dropped << vectorName(e);
            continue;
        }
        if (onThis) e.index = static_cast<int>(to - origin.begin());
        kept.push_back(std::move(e));
    }
    n.input.edits = std::move(kept);
    if (!dropped.isEmpty())
        c.notes << SessionOpsTr::tr(
                       "%n vector edit(s) were on tokens that changed and were dropped: %1.",
                       nullptr, static_cast<int>(dropped.size()))
                       .arg(dropped.join(QStringLiteral(", ")));
    // Said, because a vector made by hand is replaced by a random one for a new word.
    if (!fresh.isEmpty() && !old.isEmpty())
        c.notes << SessionOpsTr::tr(
                       "%n new token(s) got a random vector from the seed: %1. A "
                       "token that only moved keeps its vector.",
                       nullptr, static_cast<int>(fresh.size()))
                       .arg(fresh.join(QStringLiteral(", ")));
    old = tokens;
    dropMisfitMask(c);
    dropInvalidEdits(c);
    return c;
}

Changed setMatrixEntry(const Session& s, EditableMatrix m, int head, int row, int column,
                       double value)
{
    Changed c = unchanged(s);
    if (m == EditableMatrix::Va) {
        if (attn::Vector* v = vectorIn(c.session, head); v && row < v->size()) (*v)(row) = value;
    } else if (attn::Matrix* mat = matrixIn(c.session, m, head);
               mat && row < mat->rows() && column < mat->cols()) {
        (*mat)(row, column) = value;
    }
    return c;
}

Changed randomise(const Session& s, quint64 seed)
{
    Changed c = unchanged(s);
    attn::AttentionInput& in = c.session.input;
    const int heads = std::max(static_cast<int>(in.heads.size()), 1);
    const int dK = in.heads.empty() ? 3 : static_cast<int>(in.heads.front().W_Q.cols());
    const int dV = in.heads.empty() ? 3 : static_cast<int>(in.heads.front().W_V.cols());
    const std::vector<attn::VectorEdit> edits = in.edits;
    randomiseProjections(c.session, heads, dK, dV, seed);
    in.edits = edits;
    dropInvalidEdits(c);
    return c;
}

Changed toggleMaskCell(const Session& s, int row, int column)
{
    Changed c = unchanged(s);
    attn::AttentionInput& in = c.session.input;
    const long n = in.queryCount();
    const long m = in.keyCount();
    if (row < 0 || row >= n || column < 0 || column >= m) return c;
    if (!in.mask || in.mask->rows() != n || in.mask->cols() != m)
        in.mask = attn::BoolMatrix::Constant(n, m, true);
    (*in.mask)(row, column) = !(*in.mask)(row, column);
    if (in.mask->all()) in.mask.reset();
    return c;
}

}  // namespace attnlab::ops
