// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Training tasks: generators of sequences (embeddings and token labels) and the attention
// pattern each should produce. Seeded: the same spec gives the same examples everywhere.
//
//   previous-token  each token attends to the one before it (the first has no target). The
//                   embeddings carry the position on a ring of n slots, each example starting
//                   at another slot (the task is the same wherever a sentence starts): one-hot
//                   in the first n components when d_model >= n, otherwise sin/cos pairs at n
//                   distinct angles; the remaining components hold the token's content.
//   match           each token attends to every token of the same feature (content-based
//                   retrieval): embedding = its feature's direction + a little noise.
//   coreference     the textbook's 那只动物没过街，因为它太累/宽了: the pronoun 它 carries the
//                   feature that its adjective implies (累: animate, 宽: place) and attends to
//                   the noun that shares it (动物 or 街; also 猫, 狗 / 路, 河 in variants). Only
//                   the pronoun's row has a target. Needs d_model >= 6 (six features).
//   pattern         the session's own X with a pattern the user painted or took from
//                   another session.

#include <cstdint>
#include <string>
#include <vector>

#include "core/train/loss.h"

namespace attn {

enum class TaskKind { PreviousToken, Match, Coreference, Pattern };

struct TrainExample {
    Matrix X;                         // n x d_model
    std::vector<std::string> tokens;  // n labels (UTF-8)
    Matrix pattern;                   // n x n target for the trained head (rows of 0: none)
};

struct TaskSpec {
    TaskKind kind = TaskKind::PreviousToken;
    long n = 6;        // sequence length (coreference: always 8)
    long dModel = 8;   // must equal the session's
    int examples = 8;  // sequences per step (pattern: 1)
    std::uint64_t seed = 1;
    Matrix X;                         // pattern: the session's X
    std::vector<std::string> tokens;  // pattern: the session's tokens
    Matrix pattern;                   // pattern: the target (n x m)
};

inline constexpr long kCoreferenceFeatures = 6;
inline constexpr long kMaxTaskLength = 512;
inline constexpr int kMaxTaskExamples = 256;

// Fills `out` with the task's examples. Errors: ShapeMismatch naming "task.pattern" or
// "task.d_model" (coreference needs d_model >= 6), TooLarge for n > 512 or more than 256
// examples, EmptyTarget for n < 2.
Status makeTask(const TaskSpec& spec, std::vector<TrainExample>& out);

// "previous-token", "match", "coref", "pattern".
const char* taskName(TaskKind kind);
bool parseTaskKind(const std::string& text, TaskKind& kind);

}  // namespace attn
