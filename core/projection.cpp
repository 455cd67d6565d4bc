#include "core/projection.h"

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
MatrixT<T> projectAll(const AttentionInput& in, int head, Role role)
{
    const Matrix& src = sourceFor(in, role);
    MatrixT<T> out = src.cast<T>() * projectionFor(in, head, role).cast<T>();
    for (const VectorEdit& e : in.edits) {
        if (e.role == role && e.head == head) {
            VectorT<T> row = out.row(e.index).transpose();
            applyEdit<T>(in, role, head, e.index, row);
            out.row(e.index) = row.transpose();
        }
    }
    return out;
}

template <typename T>
VectorT<T> projectOne(const AttentionInput& in, int head, Role role, int index)
{
    const Matrix& src = sourceFor(in, role);
    VectorT<T> v = (src.row(index).cast<T>() * projectionFor(in, head, role).cast<T>()).transpose();
    applyEdit<T>(in, role, head, index, v);
    return v;
}

#define ATTN_INSTANTIATE(T)                                                                    \
    template void applyEdit<T>(const AttentionInput&, Role, int, int, Eigen::Ref<VectorT<T>>); \
    template MatrixT<T> projectAll<T>(const AttentionInput&, int, Role);                       \
    template VectorT<T> projectOne<T>(const AttentionInput&, int, Role, int);
ATTN_INSTANTIATE(double)
ATTN_INSTANTIATE(float)
#undef ATTN_INSTANTIATE

}  // namespace attn
