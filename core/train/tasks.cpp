// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/tasks.h"

#include <array>
#include <cmath>
#include <numbers>

#include "core/random_init.h"

namespace attn {

namespace {

Status tooLarge(const char* field)
{
    Status s;
    s.code = StatusCode::TooLarge;
    s.field = field;
    return s;
}

Status shapeMismatch(const char* field, long rows, long cols, long expectedRows, long expectedCols)
{
    Status s;
    s.code = StatusCode::ShapeMismatch;
    s.field = field;
    s.row = rows;
    s.col = cols;
    s.expectedRows = expectedRows;
    s.expectedCols = expectedCols;
    return s;
}

std::string letter(long k)
{
    return std::string(1, static_cast<char>('A' + k % 26));
}

// Position `slot` of a ring of n slots in the first components: one-hot when there is room,
// else sin/cos pairs at angles that differ for every slot. A ring, with each example starting
// at another slot, so that the task is the same wherever a sentence starts: no slot is the
// first or the last.
long writePosition(long slot, long n, Eigen::Ref<Vector> x)
{
    const long d = x.size();
    if (d >= n) {
        x[slot] = 1.0;
        return n;
    }
    const long pairs = d / 2;
    for (long k = 0; k < pairs; ++k) {
        const double angle =
            2.0 * std::numbers::pi * static_cast<double>((k + 1) * slot) / static_cast<double>(n);
        x[2 * k] = std::cos(angle);
        x[2 * k + 1] = std::sin(angle);
    }
    return 2 * pairs;
}

void previousToken(const TaskSpec& spec, std::vector<TrainExample>& out)
{
    Rng rng(spec.seed);
    const long n = spec.n;
    const long d = spec.dModel;
    constexpr long kVocabulary = 8;
    const long contentDims = d >= n ? d - n : d;
    const double contentScale = d >= n ? 0.5 : 0.15;
    const Matrix vocabulary = randomNormal(kVocabulary, contentDims, rng, contentScale);
    for (int e = 0; e < spec.examples; ++e) {
        TrainExample ex;
        ex.X = Matrix::Zero(n, d);
        ex.pattern = Matrix::Zero(n, n);
        const long offset = e % n;
        for (long i = 0; i < n; ++i) {
            const long word = static_cast<long>(rng.nextU64() % kVocabulary);
            const long used = writePosition((offset + i) % n, n, ex.X.row(i).transpose());
            if (contentDims > 0) {
                // With one-hot positions the content has components of its own; with sin/cos
                // pairs it is a little noise on all of them.
                if (d >= n)
                    ex.X.row(i).segment(used, contentDims) = vocabulary.row(word);
                else
                    ex.X.row(i) += vocabulary.row(word);
            }
            ex.tokens.push_back(letter(word));
            if (i > 0) ex.pattern(i, i - 1) = 1.0;
        }
        out.push_back(std::move(ex));
    }
}

void match(const TaskSpec& spec, std::vector<TrainExample>& out)
{
    Rng rng(spec.seed);
    const long n = spec.n;
    const long d = spec.dModel;
    const long features = std::min<long>(3, std::max<long>(2, d));
    Matrix directions = randomNormal(features, d, rng);
    for (long f = 0; f < features; ++f) directions.row(f).normalize();
    for (int e = 0; e < spec.examples; ++e) {
        TrainExample ex;
        ex.X = randomNormal(n, d, rng, 0.1);
        std::vector<long> feature(static_cast<std::size_t>(n));
        for (long i = 0; i < n; ++i) {
            feature[static_cast<std::size_t>(i)] = static_cast<long>(rng.nextU64() % features);
            ex.X.row(i) += directions.row(feature[static_cast<std::size_t>(i)]);
            ex.tokens.push_back(letter(feature[static_cast<std::size_t>(i)]));
        }
        ex.pattern = Matrix::Zero(n, n);
        for (long i = 0; i < n; ++i)
            for (long j = 0; j < n; ++j)
                if (feature[static_cast<std::size_t>(i)] == feature[static_cast<std::size_t>(j)])
                    ex.pattern(i, j) = 1.0;
        out.push_back(std::move(ex));
    }
}

// Features of the coreference toy, one component each.
enum Feature : long { Noun, Animate, Place, Pronoun, Function, Quality };

void coreference(const TaskSpec& spec, std::vector<TrainExample>& out)
{
    Rng rng(spec.seed);
    const long d = spec.dModel;
    const std::array<const char*, 3> animals{"动物", "猫", "狗"};
    const std::array<const char*, 3> places{"街", "路", "河"};
    for (int e = 0; e < spec.examples; ++e) {
        const bool tired = e % 2 == 0;
        const auto variant = static_cast<std::size_t>((e / 2) % 3);
        const std::array<std::pair<const char*, std::vector<long>>, 8> words{{
            {"那只", {Function}},
            {animals[variant], {Noun, Animate}},
            {"没过", {Function}},
            {places[variant], {Noun, Place}},
            {"因为", {Function}},
            {"它", {Pronoun, tired ? Animate : Place}},
            {"太", {Function}},
            {tired ? "累" : "宽", {Quality}},
        }};
        TrainExample ex;
        ex.X = randomNormal(8, d, rng, 0.05);
        for (long i = 0; i < 8; ++i) {
            for (long f : words[static_cast<std::size_t>(i)].second) ex.X(i, f) += 1.0;
            ex.tokens.emplace_back(words[static_cast<std::size_t>(i)].first);
        }
        ex.pattern = Matrix::Zero(8, 8);
        ex.pattern(5, tired ? 1 : 3) = 1.0;
        out.push_back(std::move(ex));
    }
}

}  // namespace

Status makeTask(const TaskSpec& spec, std::vector<TrainExample>& out)
{
    if (spec.examples < 1 || spec.examples > kMaxTaskExamples) return tooLarge("task.examples");
    std::vector<TrainExample> made;
    switch (spec.kind) {
    case TaskKind::PreviousToken:
    case TaskKind::Match:
        if (spec.n < 2) {
            Status s;
            s.code = StatusCode::EmptyTarget;
            s.field = "task.n";
            return s;
        }
        if (spec.n > kMaxTaskLength) return tooLarge("task.n");
        if (spec.dModel < 1) return shapeMismatch("task.d_model", 0, spec.dModel, 0, 1);
        if (spec.kind == TaskKind::PreviousToken)
            previousToken(spec, made);
        else
            match(spec, made);
        break;
    case TaskKind::Coreference:
        if (spec.dModel < kCoreferenceFeatures)
            return shapeMismatch("task.d_model", 8, spec.dModel, 8, kCoreferenceFeatures);
        coreference(spec, made);
        break;
    case TaskKind::Pattern: {
        const long n = spec.X.rows();
        if (n < 1) {
            Status s;
            s.code = StatusCode::EmptyTarget;
            s.field = "task.X";
            return s;
        }
        if (spec.pattern.rows() != n || spec.pattern.cols() < 1)
            return shapeMismatch("task.pattern", spec.pattern.rows(), spec.pattern.cols(), n,
                                 spec.pattern.cols() < 1 ? n : spec.pattern.cols());
        TrainExample ex;
        ex.X = spec.X;
        ex.tokens = spec.tokens;
        ex.pattern = spec.pattern;
        made.push_back(std::move(ex));
        break;
    }
    }
    out = std::move(made);
    return Status::success();
}

const char* taskName(TaskKind kind)
{
    switch (kind) {
    case TaskKind::PreviousToken: return "previous-token";
    case TaskKind::Match: return "match";
    case TaskKind::Coreference: return "coref";
    case TaskKind::Pattern: return "pattern";
    }
    return "?";
}

bool parseTaskKind(const std::string& text, TaskKind& kind)
{
    for (TaskKind k :
         {TaskKind::PreviousToken, TaskKind::Match, TaskKind::Coreference, TaskKind::Pattern}) {
        if (text == taskName(k)) {
            kind = k;
            return true;
        }
    }
    return false;
}

}  // namespace attn
