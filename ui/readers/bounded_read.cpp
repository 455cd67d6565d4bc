// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/bounded_read.h"

#include <cstring>

#include <QCoreApplication>
#include <QFile>

#include "core/io/bounded_file.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

class BoundedReadTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::BoundedRead)
};

QString mib(std::uint64_t bytes)
{
    return QString::number((bytes + (std::uint64_t{1} << 20) - 1) >> 20);
}

// Why a read failed, in the sentences bounded_read.h promises.
QString problemOf(const attn::io::ReadStatus& s)
{
    using attn::io::ReadError;
    switch (s.error) {
    case ReadError::Ok: return {};
    case ReadError::Missing: return BoundedReadTr::tr("the file does not exist.");
    case ReadError::NotRegular:
        return s.kind == attn::io::FileKind::Directory
                   ? BoundedReadTr::tr("this is a folder, not a file.")
                   : BoundedReadTr::tr("it is %1, not a file; it was not read.")
                         .arg(fileKindText(s.kind));
    case ReadError::TooLarge:
        return BoundedReadTr::tr("the file is too large: such a file may be at most %1 MiB.")
            .arg(mib(s.limit));
    case ReadError::OpenFailed:
    case ReadError::ReadFailed:
        return BoundedReadTr::tr("cannot be read: %1")
            .arg(QString::fromLocal8Bit(std::strerror(s.errnoValue)));
    }
    return {};
}

// readUserFileInPieces' piece: large enough that the system call costs nothing beside the work
// on each piece, small enough that a stop is seen within milliseconds.
constexpr std::size_t kPieceBytes = std::size_t{4} << 20;

}  // namespace

bool readUserFile(const QString& path, qint64 limit, QByteArray& out, QString& problem)
{
    out.clear();
    if (path.startsWith(QLatin1String(":/"))) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            problem = BoundedReadTr::tr("cannot be read: %1").arg(f.errorString());
            return false;
        }
        out = f.read(limit + 1);
        if (out.size() > limit) {
            out.clear();
            problem = BoundedReadTr::tr("the file is too large: such a file may be at most %1 MiB.")
                          .arg(mib(limit));
            return false;
        }
        return true;
    }
    std::string bytes;
    const attn::io::ReadStatus s = attn::io::readBoundedFile(
        QFile::encodeName(path).toStdString(), static_cast<std::uint64_t>(limit), bytes);
    if (!s.ok()) {
        problem = problemOf(s);
        return false;
    }
    out = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    return true;
}

bool readUserFileInPieces(const QString& path, qint64 limit,
                          const std::function<bool(QByteArrayView)>& take, QString& problem)
{
    const attn::io::ReadStatus s = attn::io::readBoundedFileInPieces(
        QFile::encodeName(path).toStdString(), static_cast<std::uint64_t>(limit), kPieceBytes,
        [&take](const char* data, std::size_t size) {
            return take(QByteArrayView(data, static_cast<qsizetype>(size)));
        });
    if (s.ok()) return true;
    problem = problemOf(s);
    return false;
}

}  // namespace attnlab
