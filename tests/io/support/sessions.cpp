// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/support/sessions.h"

#include <cstring>

#include <QDir>
#include <QFile>

#include "core/random_init.h"

namespace attnlab::testing {

Session richSession()
{
    Session s = defaultSession();
    s.dModel = 4;
    s.dAdditive = 2;
    s.seed = (quint64{1} << 60) + 12345;
    s.targetTokens = {QStringLiteral("它"), QStringLiteral("say \"hi\""),
                      QStringLiteral("back\\slash"), QStringLiteral("tab\there\n")};
    s.sourceTokens = {QStringLiteral("le"), QStringLiteral("chat"), QStringLiteral("😀")};
    attn::Rng rng(7);
    s.input.X = attn::randomNormal(4, 4, rng, 3.0);
    s.input.X(0, 0) = -0.0;
    s.input.X(0, 1) = 4.9406564584124654e-324;  // smallest subnormal
    s.input.X(0, 2) = 0.1;
    s.input.X(0, 3) = 1e20;
    s.input.Y = attn::randomNormal(3, 4, rng);
    randomiseProjections(s, 2, 2, 3, s.seed);
    s.dAdditive = 2;
    s.input.mode = attn::Mode::Cross;
    s.input.scaling = attn::Scaling::Temperature;
    s.input.temperature = 0.7000000000000001;
    s.input.score = attn::ScoreFunction::Additive;
    s.input.sharedProjections = false;
    attn::BoolMatrix mask = attn::BoolMatrix::Constant(4, 3, true);
    mask(1, 2) = false;
    mask(3, 0) = false;
    s.input.mask = mask;
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.head = 1;
    e.index = 2;
    e.scale = 2.0;
    e.overrides = {{0, 1.25}, {1, -3.5e-7}};
    s.input.edits.push_back(e);
    attn::VectorEdit q;
    q.role = attn::Role::Value;
    q.head = 0;
    q.index = 1;
    q.scale = 0.5;
    s.input.edits.push_back(q);
    return s;
}

SessionFile richFile()
{
    SessionFile f;
    f.session = testing::richSession();
    f.view.head = 1;
    f.view.row = 2;
    f.view.column = 1;
    f.view.colors = WeightColors::DataRange;
    return f;
}

QString writeBytes(const QString& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = QDir(dir).filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(bytes);
    return path;
}

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameBits(const attn::Matrix& a, const attn::Matrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (long i = 0; i < a.rows(); ++i) {
        for (long j = 0; j < a.cols(); ++j) {
            if (!sameBits(a(i, j), b(i, j))) return false;
        }
    }
    return true;
}

bool sameBits(const attn::Vector& a, const attn::Vector& b)
{
    if (a.size() != b.size()) return false;
    for (long i = 0; i < a.size(); ++i) {
        if (!sameBits(a[i], b[i])) return false;
    }
    return true;
}

}  // namespace attnlab::testing
