// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/pattern_file.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include "core/attention.h"
#include "ui/readers/bounded_read.h"
#include "ui/readers/session_file.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class PatternFileTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)  // the context the catalogue already translates
};

// A pattern as CSV: one line per query row, the cells separated by commas (or spaces).
bool readPatternCsv(const QString& path, attn::Matrix& out, QString& error)
{
    QByteArray bytes;
    if (QString problem; !readUserFile(path, qint64{64} << 20, bytes, problem)) {
        error = PatternFileTr::tr("%1: %2").arg(path, problem);
        return false;
    }
    std::vector<std::vector<double>> rows;
    const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    for (qsizetype l = 0; l < lines.size(); ++l) {
        const QString line = lines[l].trimmed();
        if (line.isEmpty()) continue;
        std::vector<double> row;
        for (const QString& cell : line.split(separators, Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = cell.toDouble(&ok);
            if (!ok) {
                error = PatternFileTr::tr("%1: line %2: \"%3\" is not a number")
                            .arg(path)
                            .arg(l + 1)
                            .arg(cell);
                return false;
            }
            row.push_back(v);
        }
        if (!rows.empty() && row.size() != rows.front().size()) {
            error = PatternFileTr::tr("%1: line %2 has %3 cells, the first row %4")
                        .arg(path)
                        .arg(l + 1)
                        .arg(row.size())
                        .arg(rows.front().size());
            return false;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) {
        error = PatternFileTr::tr("%1: holds no pattern").arg(path);
        return false;
    }
    out.resize(static_cast<long>(rows.size()), static_cast<long>(rows.front().size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = 0; j < rows[i].size(); ++j)
            out(static_cast<long>(i), static_cast<long>(j)) = rows[i][j];
    return true;
}

}  // namespace

bool readPatternFile(const QString& path, int head, attn::Matrix& out, QString& error)
{
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return readPatternCsv(path, out, error);
    SessionFile sf;
    FileError fe;
    if (!readSessionFile(path, sf, fe)) {
        error = fe.message();
        return false;
    }
    if (head >= static_cast<int>(sf.session.input.heads.size())) {
        error = PatternFileTr::tr("%1: has no head %2").arg(path).arg(head + 1);
        return false;
    }
    attn::AttentionResult result;
    const attn::Status s = attn::computeAttention<double>(sf.session.input, result);
    if (!s.ok()) {
        error = QStringLiteral("%1: %2").arg(path, statusMessage(s));
        return false;
    }
    out = result.heads[static_cast<std::size_t>(head)].weights;
    return true;
}

}  // namespace attnlab
