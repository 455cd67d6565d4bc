// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/head_scores.h"

namespace attn {

void addScores(HeadScores& a, const HeadScores& b)
{
    a.previousToken += b.previousToken;
    a.duplicateToken += b.duplicateToken;
    a.induction += b.induction;
    a.firstToken += b.firstToken;
}

void addScores(HeadScoreTable& a, const HeadScoreTable& b)
{
    if (a.empty()) {
        a = b;
        return;
    }
    for (std::size_t l = 0; l < a.size() && l < b.size(); ++l) {
        for (std::size_t h = 0; h < a[l].size() && h < b[l].size(); ++h)
            addScores(a[l][h], b[l][h]);
    }
}

void divideScores(HeadScoreTable& a, double n)
{
    for (auto& layer : a) {
        for (HeadScores& s : layer) {
            s.previousToken /= n;
            s.duplicateToken /= n;
            s.induction /= n;
            s.firstToken /= n;
        }
    }
}

const char* headKindKey(HeadKind kind)
{
    switch (kind) {
    case HeadKind::PreviousToken: return "previous_token";
    case HeadKind::DuplicateToken: return "duplicate_token";
    case HeadKind::Induction: return "induction";
    case HeadKind::FirstToken: break;
    }
    return "first_token";
}

double scoreOf(const HeadScores& s, HeadKind kind)
{
    switch (kind) {
    case HeadKind::PreviousToken: return s.previousToken;
    case HeadKind::DuplicateToken: return s.duplicateToken;
    case HeadKind::Induction: return s.induction;
    case HeadKind::FirstToken: break;
    }
    return s.firstToken;
}

void bestHead(const HeadScoreTable& table, HeadKind kind, int& layer, int& head)
{
    layer = -1;
    head = -1;
    double best = -1.0;
    for (std::size_t l = 0; l < table.size(); ++l) {
        for (std::size_t h = 0; h < table[l].size(); ++h) {
            const double v = scoreOf(table[l][h], kind);
            if (v > best) {
                best = v;
                layer = static_cast<int>(l);
                head = static_cast<int>(h);
            }
        }
    }
}

}  // namespace attn
