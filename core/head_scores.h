// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What kind of head a head is, read from its weights on a sequence of m random tokens followed
// by the same m tokens (T = 2m), as Olsson et al. (2022) and TransformerLens measure it:
//   previous-token   mean P[i, i-1] over i >= 1
//   duplicate-token  mean P[i, i-m] over i >= m  (the earlier copy of the same token)
//   induction        mean P[i, i-m+1] over i >= m  (the token after the earlier copy)
//   first-token      mean P[i, 0] over i >= 1  (an "attention sink")

#include <vector>

namespace attn {

struct HeadScores {
    double previousToken = 0.0;
    double duplicateToken = 0.0;
    double induction = 0.0;
    double firstToken = 0.0;
};

// The scores of one T x T weight matrix (row-major, row i = query i), T = 2m, m >= 1.
template <typename Scalar>
HeadScores scoreRepeated(const Scalar* weights, long m)
{
    const long T = 2 * m;
    const auto at = [&](long i, long j) { return static_cast<double>(weights[i * T + j]); };
    HeadScores s;
    for (long i = 1; i < T; ++i) {
        s.previousToken += at(i, i - 1);
        s.firstToken += at(i, 0);
    }
    for (long i = m; i < T; ++i) {
        s.duplicateToken += at(i, i - m);
        s.induction += at(i, i - m + 1);
    }
    s.previousToken /= static_cast<double>(T - 1);
    s.firstToken /= static_cast<double>(T - 1);
    s.duplicateToken /= static_cast<double>(m);
    s.induction /= static_cast<double>(m);
    return s;
}

// Per layer, per head.
using HeadScoreTable = std::vector<std::vector<HeadScores>>;

// Adds b into a: one head's, or a table's element by element (same shape, or a empty);
// divides a table by n.
void addScores(HeadScores& a, const HeadScores& b);
void addScores(HeadScoreTable& a, const HeadScoreTable& b);
void divideScores(HeadScoreTable& a, double n);

enum class HeadKind { PreviousToken, DuplicateToken, Induction, FirstToken };
constexpr HeadKind kHeadKinds[] = {HeadKind::PreviousToken, HeadKind::DuplicateToken,
                                   HeadKind::Induction, HeadKind::FirstToken};
// "previous_token", "duplicate_token", "induction", "first_token" (the JSON keys).
const char* headKindKey(HeadKind kind);

double scoreOf(const HeadScores& s, HeadKind kind);
// The head with the highest score of `kind`: its layer and head, or -1, -1 for an empty table.
void bestHead(const HeadScoreTable& table, HeadKind kind, int& layer, int& head);

}  // namespace attn
