// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/projection.h"

#include <algorithm>
#include <vector>

namespace attn {

const Matrix& projectionFor(const AttentionInput& in, int head, Role role)
{
    const HeadParams& p = in.heads[static_cast<std::size_t>(head)];
    if (in.sharedProjections) return p.W_Q;
    switch (role) {
    case Role::Query: return p.W_Q;
    case Role::Key: return p.W_K;
    case Role::Value: return p.W_V;
    }
    return p.W_Q;
}

const Vector* biasFor(const AttentionInput& in, int head, Role role)
{
    const HeadParams& p = in.heads[static_cast<std::size_t>(head)];
    const Vector* b = &p.b_Q;
    if (!in.sharedProjections) {
        if (role == Role::Key) b = &p.b_K;
        if (role == Role::Value) b = &p.b_V;
    }
    return b->size() == 0 ? nullptr : b;
}

template <typename T>
void applyEdit(const AttentionInput& in, Role role, int head, int index, Eigen::Ref<VectorT<T>> vec)
{
    const VectorEdit* e = findEdit(in.edits, role, head, index);
    if (e == nullptr) return;
    for (const ComponentOverride& o : e->overrides) vec[o.component] = static_cast<T>(o.value);
    if (e->scale != 1.0) vec *= static_cast<T>(e->scale);
}

namespace {
const Matrix& sourceFor(const AttentionInput& in, Role role)
{
    return role == Role::Query ? in.X : in.keySource();
}
}  // namespace

template <typename T>
void projectInto(const AttentionInput& in, int head, std::initializer_list<Role> roles,
                 std::initializer_list<MatrixT<T>*> outs)
{
    struct Task {
        const Matrix* src;
        const Matrix* w;
        const Vector* bias;
        MatrixT<T>* out;
        long r0, rows;
    };
    std::vector<Task> tasks;
    double work = 0;
    auto out = outs.begin();
    for (Role role : roles) {
        const Matrix& src = sourceFor(in, role);
        const Matrix& w = projectionFor(in, head, role);
        const Vector* bias = biasFor(in, head, role);
        (*out)->resize(src.rows(), w.cols());
        work += static_cast<double>(src.size()) * static_cast<double>(w.cols());
        for (long r0 = 0; r0 < src.rows(); r0 += kProjectionBlockRows)
            tasks.push_back(
                {&src, &w, bias, *out, r0, std::min(kProjectionBlockRows, src.rows() - r0)});
        ++out;
    }
    // The row blocks of every role in one loop, so that the threads get even shares.
    const long count = static_cast<long>(tasks.size());
#pragma omp parallel for schedule(static) if (work >= kParallelProjectionWork)
    for (long t = 0; t < count; ++t) {
        const Task& task = tasks[static_cast<std::size_t>(t)];
        auto rows = task.out->middleRows(task.r0, task.rows);
        rows.noalias() = task.src->middleRows(task.r0, task.rows).template cast<T>() *
                         task.w->template cast<T>();
        if (task.bias) rows.rowwise() += task.bias->transpose().template cast<T>();
    }
    out = outs.begin();
    for (Role role : roles) {
        MatrixT<T>& m = **out++;
        for (const VectorEdit& e : in.edits) {
            if (e.role != role || e.head != head) continue;
            VectorT<T> row = m.row(e.index).transpose();
            applyEdit<T>(in, role, head, e.index, row);
            m.row(e.index) = row.transpose();
        }
    }
}

template <typename T>
VectorT<T> projectOne(const AttentionInput& in, int head, Role role, int index)
{
    const Matrix& src = sourceFor(in, role);
    VectorT<T> v = (src.row(index).cast<T>() * projectionFor(in, head, role).cast<T>()).transpose();
    if (const Vector* bias = biasFor(in, head, role)) v += bias->cast<T>();
    applyEdit<T>(in, role, head, index, v);
    return v;
}

#define ATTN_INSTANTIATE(T)                                                                    \
    template void applyEdit<T>(const AttentionInput&, Role, int, int, Eigen::Ref<VectorT<T>>); \
    template void projectInto<T>(const AttentionInput&, int, std::initializer_list<Role>,      \
                                 std::initializer_list<MatrixT<T>*>);                          \
    template VectorT<T> projectOne<T>(const AttentionInput&, int, Role, int);
ATTN_INSTANTIATE(double)
ATTN_INSTANTIATE(float)
#undef ATTN_INSTANTIATE

}  // namespace attn
