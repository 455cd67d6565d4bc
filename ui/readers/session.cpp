// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/session.h"

#include <cmath>

#include <QCryptographicHash>
#include <QRegularExpression>

#include "core/random_init.h"

namespace attnlab {

Session defaultSession()
{
    Session s;
    s.targetTokens = {QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("sat"),
                      QStringLiteral("down")};
    s.dModel = 3;
    attn::AttentionInput& in = s.input;
    in.X = attn::Matrix{{1.0, 0.0, 1.0}, {0.0, 2.0, 0.0}, {1.0, 1.0, 0.0}, {0.0, 1.0, 1.0}};
    attn::HeadParams p;
    p.W_Q = attn::Matrix{{0.9, 0.1, 0.0}, {0.0, 1.2, 0.4}, {0.5, 0.0, 1.1}};
    p.W_K = attn::Matrix{{1.0, 0.0, 0.3}, {0.2, 0.8, 0.0}, {0.0, 0.4, 1.2}};
    p.W_V = attn::Matrix{{0.5, 0.0, 0.2}, {0.0, 0.4, 0.1}, {0.3, 0.1, 0.0}};
    attn::Rng rng(s.seed);
    p.additive.W_a = attn::randomNormal(s.dAdditive, 3, rng, 0.6);
    p.additive.U_a = attn::randomNormal(s.dAdditive, 3, rng, 0.6);
    p.additive.v = attn::randomNormal(s.dAdditive, 1, rng, 0.6).col(0);
    in.heads.push_back(p);
    s.sourceTokens = {QStringLiteral("le"), QStringLiteral("chat"), QStringLiteral("assis")};
    in.Y = attn::randomNormal(3, 3, rng);
    return s;
}

QStringList splitTokens(const QString& text, bool perCharacter)
{
    QStringList out;
    if (!perCharacter)
        return text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString& word :
         text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        // Split per user-perceived character: keep surrogate pairs together.
        for (qsizetype i = 0; i < word.size(); ++i) {
            if (word[i].isHighSurrogate() && i + 1 < word.size()) {
                out << word.mid(i, 2);
                ++i;
            } else {
                out << QString(word[i]);
            }
        }
    }
    return out;
}

namespace {
quint64 tokenSeed(const QString& token, quint64 seed)
{
    const QByteArray h = QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha1).left(8);
    quint64 v = 0;
    for (char c : h) v = (v << 8) | static_cast<unsigned char>(c);
    return v ^ (seed * 0x9E3779B97F4A7C15ULL);
}
}  // namespace

std::vector<int> tokenOrigins(const QStringList& tokens, const QStringList& oldTokens)
{
    std::vector<int> origin(static_cast<size_t>(tokens.size()), -1);
    std::vector<bool> claimed(static_cast<size_t>(oldTokens.size()), false);
    // A token that kept its place keeps it; only then may others claim what is left, so
    // that moving one word does not shift a repeated word's vector to another occurrence.
    for (qsizetype i = 0; i < tokens.size() && i < oldTokens.size(); ++i) {
        if (tokens[i] != oldTokens[i]) continue;
        origin[static_cast<size_t>(i)] = static_cast<int>(i);
        claimed[static_cast<size_t>(i)] = true;
    }
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        if (origin[static_cast<size_t>(i)] >= 0) continue;
        for (qsizetype j = 0; j < oldTokens.size(); ++j) {
            if (claimed[static_cast<size_t>(j)] || oldTokens[j] != tokens[i]) continue;
            origin[static_cast<size_t>(i)] = static_cast<int>(j);
            claimed[static_cast<size_t>(j)] = true;
            break;
        }
    }
    return origin;
}

attn::Matrix embeddingsFor(const QStringList& tokens, const QStringList& oldTokens,
                           const attn::Matrix& oldEmbeddings, int dModel, quint64 seed)
{
    return embeddingsFrom(tokens, tokenOrigins(tokens, oldTokens), oldEmbeddings, dModel, seed);
}

attn::Matrix embeddingsFrom(const QStringList& tokens, const std::vector<int>& origin,
                            const attn::Matrix& oldEmbeddings, int dModel, quint64 seed)
{
    const bool oldFits = oldEmbeddings.cols() == dModel;
    attn::Matrix out(tokens.size(), dModel);
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const long row = static_cast<long>(i);
        const int from = origin[static_cast<size_t>(i)];
        if (from >= 0 && oldFits && from < oldEmbeddings.rows()) {
            out.row(row) = oldEmbeddings.row(from);
        } else {
            attn::Rng rng(tokenSeed(tokens[i], seed));
            out.row(row) = attn::randomNormal(1, dModel, rng).row(0);
        }
    }
    return out;
}

void randomiseProjections(Session& s, int heads, int dK, int dV, quint64 seed)
{
    attn::Rng rng(seed);
    const double std = 1.0 / std::sqrt(static_cast<double>(std::max(s.dModel, 1)));
    s.input.heads.clear();
    for (int h = 0; h < heads; ++h) {
        attn::HeadParams p;
        p.W_Q = attn::randomNormal(s.dModel, dK, rng, std);
        p.W_K = attn::randomNormal(s.dModel, dK, rng, std);
        p.W_V = attn::randomNormal(s.dModel, dV, rng, std);
        const double astd = 1.0 / std::sqrt(static_cast<double>(std::max(dK, 1)));
        p.additive.W_a = attn::randomNormal(s.dAdditive, dK, rng, astd);
        p.additive.U_a = attn::randomNormal(s.dAdditive, dK, rng, astd);
        p.additive.v = attn::randomNormal(s.dAdditive, 1, rng, 1.0).col(0);
        s.input.heads.push_back(std::move(p));
    }
    if (heads > 1) {
        s.input.W_O = attn::randomNormal(heads * dV, s.dModel, rng,
                                         1.0 / std::sqrt(static_cast<double>(heads * dV)));
    } else {
        s.input.W_O.resize(0, 0);
    }
    s.input.edits.clear();
    s.seed = seed;
}

QStringList labelsFor(const QStringList& given, long count)
{
    QStringList out = given.mid(0, count);
    while (out.size() < count) out << QString::number(out.size() + 1);
    return out;
}

QString shownLabel(const QString& token, int maxChars)
{
    QString out;
    const qsizetype n = std::min<qsizetype>(token.size(), maxChars + 1);
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = token[i].unicode();
        if (c < 0x20)
            out += QChar(static_cast<char16_t>(0x2400 + c));
        else if (c == 0x7f)
            out += QChar(static_cast<char16_t>(0x2421));
        else
            out += token[i];
    }
    if (token.size() > maxChars) {
        out.truncate(maxChars - 1);
        if (!out.isEmpty() && out.back().isHighSurrogate()) out.chop(1);  // not half a character
        out += QChar(0x2026);
    }
    return out;
}

QStringList shownLabelsFor(const QStringList& given, long count)
{
    QStringList out = labelsFor(given, count);
    for (QString& l : out) l = shownLabel(l);
    return out;
}

QStringList componentLabels(long count)
{
    QStringList out;
    for (long c = 0; c < count; ++c) out << QString::number(c + 1);
    return out;
}

const QStringList& keyTokens(const Session& s)
{
    return s.input.mode == attn::Mode::Cross ? s.sourceTokens : s.targetTokens;
}

}  // namespace attnlab
