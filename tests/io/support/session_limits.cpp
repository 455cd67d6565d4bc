// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/support/session_limits.h"

namespace attnlab::testing {

namespace {

QByteArray head(long dModel)
{
    return R"({"format": "attnlab-session", "version": 1, "seed": 1, "d_model": )" +
           QByteArray::number(static_cast<qlonglong>(dModel)) + ", ";
}

QByteArray tokenList(long tokens)
{
    QByteArray out = R"("tokens": [)";
    out.reserve(4 * tokens + 16);
    for (long i = 0; i < tokens; ++i) out += i ? R"(,"t")" : R"("t")";
    return out + "]";
}

}  // namespace

QByteArray sessionWithEmbeddingRows(long tokens, long dModel)
{
    QByteArray out = head(dModel) + R"("target": {)" + tokenList(tokens) + R"(, "embeddings": [[)";
    out.reserve(out.size() + 2 * dModel + 3 * tokens + 128);
    for (long j = 0; j < dModel; ++j) out += j ? ",0" : "0";
    out += "]";
    for (long i = 1; i < tokens; ++i) out += ",[]";
    out += R"(]}, "projections": {}, "options": {}, "edits": []})";
    return out;
}

QByteArray sessionWithMaskRows(long tokens)
{
    QByteArray out = head(1) + R"("target": {)" + tokenList(tokens) + R"(, "embeddings": [)";
    out.reserve(out.size() + 8 * tokens + 256);
    for (long i = 0; i < tokens; ++i) out += i ? ",[0]" : "[0]";
    out += R"(]}, "projections": {}, "options": {"mode": "self", "scaling": "sqrt_dk", )"
           R"("temperature": 1.0, "score": "dot", "shared_projections": false, "mask": [)";
    for (long i = 0; i < tokens; ++i) out += i ? ",[]" : "[]";
    out += R"(]}, "edits": []})";
    return out;
}

QByteArray sessionNested(long depth)
{
    return R"({"format": "attnlab-session", "version": 1, "x": )" + QByteArray(depth, '[') +
           QByteArray(depth, ']') + "}";
}

}  // namespace attnlab::testing
