#pragma once
// A pre-scan of raw session-file bytes for what QJsonDocument cannot report or silently
// accepts: the text encoding (UTF-16/32 byte-order marks, invalid UTF-8), nesting deeper
// than a limit, and duplicate keys in one object (QJsonDocument keeps only one of them).
// It does not check JSON syntax: the parser reports that afterwards.

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>

namespace attnlab {

struct JsonPrescan {
    enum class Problem { None, Utf16Bom, Utf32Bom, InvalidUtf8, TooDeep, DuplicateKey };
    Problem problem = Problem::None;
    QString field;            // JSON path of the duplicate key or of the too-deep value
    qsizetype offset = 0;     // byte offset of the problem
    int line = 0;             // 1-based line of the problem
    qsizetype bomLength = 0;  // bytes of a UTF-8 byte-order mark to skip (0 or 3)
    // Paths of numbers written as negative zero ("-0.0"): QJsonDocument reads them as +0.
    QSet<QString> negativeZeros;
    // Element counts of the arrays two levels down, by path ("target.tokens"): what a reader
    // can check against its limits before the parser builds a tree of every value.
    QHash<QString, qsizetype> arrayLengths;
};

inline constexpr int kMaxJsonDepth = 64;

JsonPrescan prescanJson(const QByteArray& bytes, int maxDepth = kMaxJsonDepth);

// The JSON path of the value being read at `offset` (for parser errors), e.g. "options.mode".
QString jsonPathAt(const QByteArray& bytes, qsizetype offset);

// 1-based line number of a byte offset.
int lineOfOffset(const QByteArray& bytes, qsizetype offset);

}  // namespace attnlab
