// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/attention_input.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/rope.h"

namespace attn {

double AttentionInput::scoreDivisor() const
{
    switch (scaling) {
    case Scaling::None: return 1.0;
    case Scaling::SqrtDk: return std::sqrt(static_cast<double>(keyDim()));
    case Scaling::Temperature: return temperature;
    }
    return 1.0;
}

namespace {

Status shapeError(const std::string& field, long rows, long cols, long wantRows, long wantCols)
{
    Status s;
    s.code = StatusCode::ShapeMismatch;
    s.field = field;
    s.row = rows;
    s.col = cols;
    s.expectedRows = wantRows;
    s.expectedCols = wantCols;
    return s;
}

template <typename M>
Status checkFinite(const std::string& field, const M& m)
{
    // Fast path, one vectorised pass: x - x is 0 for finite x and NaN otherwise.
    if (m.size() == 0 || (m.array() - m.array()).sum() == 0) return {};
    for (long r = 0; r < m.rows(); ++r) {
        for (long c = 0; c < m.cols(); ++c) {
            if (!std::isfinite(m(r, c))) {
                Status s;
                s.code = StatusCode::NonFinite;
                s.field = field;
                s.row = r;
                s.col = c;
                return s;
            }
        }
    }
    return {};
}

// Checks shape (a negative wanted size accepts anything) and finiteness.
Status checkMatrix(const std::string& field, const Matrix& m, long wantRows, long wantCols)
{
    if ((wantRows >= 0 && m.rows() != wantRows) || (wantCols >= 0 && m.cols() != wantCols))
        return shapeError(field, m.rows(), m.cols(), wantRows < 0 ? m.rows() : wantRows,
                          wantCols < 0 ? m.cols() : wantCols);
    return checkFinite(field, m);
}

Status checkHeadFields(const AttentionInput& in, std::size_t h)
{
    const HeadParams& p = in.heads[h];
    const long d = in.modelDim();
    const long dk = in.keyDim();
    if (Status s = checkMatrix("W_Q", p.W_Q, d, dk); !s.ok()) return s;
    if (!in.sharedProjections) {
        if (Status s = checkMatrix("W_K", p.W_K, d, dk); !s.ok()) return s;
        if (Status s = checkMatrix("W_V", p.W_V, d, in.valueDim()); !s.ok()) return s;
    }
    // Biases: empty (none) or one number per column of their projection.
    const struct {
        const char* name;
        const Vector& b;
        long width;
    } biases[] = {{"b_Q", p.b_Q, dk}, {"b_K", p.b_K, dk}, {"b_V", p.b_V, in.valueDim()}};
    for (const auto& [name, b, width] : biases) {
        if (b.size() != 0 && b.size() != width) return shapeError(name, b.size(), 1, width, 1);
        if (Status s = checkFinite(name, b); !s.ok()) return s;
    }
    if (in.score == ScoreFunction::Additive) {
        const long da = p.additive.v.size();
        if (da == 0) return Status{StatusCode::MissingAdditive, "additive.v"};
        if (Status s = checkMatrix("additive.W_a", p.additive.W_a, da, dk); !s.ok()) return s;
        if (Status s = checkMatrix("additive.U_a", p.additive.U_a, da, dk); !s.ok()) return s;
        if (Status s = checkFinite("additive.v", p.additive.v); !s.ok()) return s;
    }
    return {};
}

Status checkHead(const AttentionInput& in, std::size_t h)
{
    Status s = checkHeadFields(in, h);
    if (!s.ok()) s.head = static_cast<int>(h);
    return s;
}

const char* roleName(Role role)
{
    switch (role) {
    case Role::Query: return "query";
    case Role::Key: return "key";
    case Role::Value: return "value";
    }
    return "vector";
}

// Each vector may carry one edit: a second one for the same (role, head, index) would be
// ambiguous (which applies?), so it is refused rather than silently applied twice or ignored.
Status checkEdits(const AttentionInput& in)
{
    for (std::size_t e = 0; e < in.edits.size(); ++e) {
        const VectorEdit& edit = in.edits[e];
        Status s = validateEdit(in, edit);
        if (!s.ok()) {
            const bool scale = s.code == StatusCode::EditScaleTooLarge;
            if (s.code != StatusCode::DuplicateEdit) s.field = scale ? "scale" : "";
            s.edit = static_cast<int>(e);
            return s;
        }
        for (std::size_t k = 0; k < e; ++k) {
            if (!in.edits[k].sameTarget(edit)) continue;
            s.code = StatusCode::DuplicateEdit;
            s.field.clear();
            s.edit = static_cast<int>(e);
            s.row = static_cast<long>(k);
            s.subject = std::string(roleName(edit.role)) + " " + std::to_string(edit.index + 1) +
                        " of head " + std::to_string(edit.head + 1);
            return s;
        }
    }
    return {};
}

// Rotary positions need dot-product scoring and parameters that can turn vectors of width d_k.
Status checkRope(const AttentionInput& in)
{
    if (!in.rope) return {};
    Status s;
    s.code = StatusCode::BadRope;
    s.value = in.keyDim();
    if (in.score != ScoreFunction::Dot) {
        s.field = "score";
        s.detail =
            "rotary positions need dot-product scoring: only q . k turns into a function of "
            "the distance between the positions";
        return s;
    }
    const std::string field = ropeProblemField(*in.rope, in.keyDim());
    if (field.empty()) return {};
    s.field = field == "width" ? "d_k" : "rope." + field;
    s.detail = ropeProblem(*in.rope, in.keyDim());
    return s;
}

}  // namespace

std::size_t estimateBytes(const AttentionInput& in, std::size_t scalarBytes)
{
    const auto n = static_cast<std::size_t>(std::max<long>(in.queryCount(), 0));
    const auto m = static_cast<std::size_t>(std::max<long>(in.keyCount(), 0));
    const auto h = in.heads.size();
    const auto dk = static_cast<std::size_t>(std::max<long>(in.keyDim(), 0));
    const auto dv = static_cast<std::size_t>(std::max<long>(in.valueDim(), 0));
    // scores, scaled, weights as scalars; the mask as bytes; Q, K, V, output.
    // With rotary positions, Q and K are kept turned as well.
    const std::size_t rotated = in.rope ? (n + m) * dk : 0;
    const std::size_t perHead =
        n * m * (3 * scalarBytes + 1) + (n * dk + m * dk + m * dv + n * dv + rotated) * scalarBytes;
    return h * perHead + 2 * n * h * dv * scalarBytes;
}

Status validate(const AttentionInput& in, const Limits& limits, std::size_t scalarBytes)
{
    if (in.X.rows() == 0) return Status{StatusCode::EmptyTarget, "X"};
    if (in.X.cols() == 0) return Status{StatusCode::ZeroModelDim, "X"};
    if (in.mode == Mode::Cross && in.Y.rows() == 0) return Status{StatusCode::EmptySource, "Y"};
    if (in.heads.empty()) return Status{StatusCode::NoHeads, "heads"};
    if (in.keyDim() == 0) return headFailure(StatusCode::ZeroKeyDim, 0, "W_Q");
    if (in.valueDim() == 0) return headFailure(StatusCode::ZeroValueDim, 0, "W_V");
    if (in.sharedProjections && in.heads.front().W_V.size() != 0 &&
        in.heads.front().W_V.cols() != in.keyDim())
        return headFailure(StatusCode::SharedNeedsEqualDims, 0, "W_V");
    if (in.scaling == Scaling::Temperature &&
        (!std::isfinite(in.temperature) || in.temperature <= 0.0))
        return Status{StatusCode::BadTemperature, "temperature"};
    if (Status s = checkRope(in); !s.ok()) return s;

    if (Status s = checkFinite("X", in.X); !s.ok()) return s;
    if (in.mode == Mode::Cross) {
        if (Status s = checkMatrix("Y", in.Y, -1, in.modelDim()); !s.ok()) return s;
    }
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        if (Status s = checkHead(in, h); !s.ok()) return s;
    }
    if (in.W_O.size() != 0) {
        const long concatDim = static_cast<long>(in.heads.size()) * in.valueDim();
        if (Status s = checkMatrix("W_O", in.W_O, concatDim, -1); !s.ok()) return s;
    }
    if (in.mask && (in.mask->rows() != in.queryCount() || in.mask->cols() != in.keyCount())) {
        Status s{StatusCode::MaskShape, "mask"};
        s.row = in.mask->rows();
        s.col = in.mask->cols();
        s.expectedRows = in.queryCount();
        s.expectedCols = in.keyCount();
        return s;
    }
    if (Status s = checkEdits(in); !s.ok()) return s;

    const std::size_t need = estimateBytes(in, scalarBytes);
    if (need > limits.maxBytes) {
        Status s{StatusCode::TooLarge, "size"};
        s.bytesNeeded = need;
        s.bytesBudget = limits.maxBytes;
        return s;
    }
    return {};
}

Status validateEdit(const AttentionInput& in, const VectorEdit& ed)
{
    const long positions = ed.role == Role::Query ? in.queryCount() : in.keyCount();
    const long dims = ed.role == Role::Value ? in.valueDim() : in.keyDim();
    Status s;
    s.field = "edit";
    bool bad = ed.head < 0 || ed.head >= static_cast<long>(in.heads.size()) || ed.index < 0 ||
               ed.index >= positions;
    for (const ComponentOverride& o : ed.overrides) {
        bad = bad || o.component < 0 || o.component >= dims;
        if (!std::isfinite(o.value)) {
            s.code = StatusCode::NonFinite;
            s.row = ed.index;
            s.col = o.component;
            return s;
        }
    }
    // A component set twice: which value holds would depend on the order they are applied in.
    std::vector<int> components;
    for (const ComponentOverride& o : ed.overrides) components.push_back(o.component);
    std::sort(components.begin(), components.end());
    if (const auto twice = std::adjacent_find(components.begin(), components.end());
        twice != components.end()) {
        s.code = StatusCode::DuplicateEdit;
        s.field = "overrides";
        s.col = *twice;
        return s;
    }
    if (!std::isfinite(ed.scale)) {
        s.code = StatusCode::NonFinite;
        s.row = ed.index;
        return s;
    }
    if (std::abs(ed.scale) > kMaxEditScale) {
        s.code = StatusCode::EditScaleTooLarge;
        s.field = "edit.scale";
        return s;
    }
    if (bad) s.code = StatusCode::EditOutOfRange;
    return s;
}

void upsertEdit(std::vector<VectorEdit>& edits, const VectorEdit& edit)
{
    for (auto it = edits.begin(); it != edits.end(); ++it) {
        if (it->sameTarget(edit)) {
            if (edit.isIdentity())
                edits.erase(it);
            else
                *it = edit;
            return;
        }
    }
    if (!edit.isIdentity()) edits.push_back(edit);
}

const VectorEdit* findEdit(const std::vector<VectorEdit>& edits, Role role, int head, int index)
{
    for (const VectorEdit& e : edits) {
        if (e.role == role && e.head == head && e.index == index) return &e;
    }
    return nullptr;
}

}  // namespace attn
