// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/bounded_read.h"

#include <cstring>

#include <QCoreApplication>
#include <QFile>

#include "core/io/bounded_file.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::BoundedRead)
};

QString mib(std::uint64_t bytes)
{
    return QString::number((bytes + (std::uint64_t{1} << 20) - 1) >> 20);
}

}  // namespace

bool readUserFile(const QString& path, qint64 limit, QByteArray& out, QString& problem)
{
    out.clear();
    if (path.startsWith(QLatin1String(":/"))) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            problem = Tr::tr("cannot be read: %1").arg(f.errorString());
            return false;
        }
        out = f.read(limit + 1);
        if (out.size() > limit) {
            out.clear();
            problem =
                Tr::tr("the file is too large: such a file may be at most %1 MiB.").arg(mib(limit));
            return false;
        }
        return true;
    }
    std::string bytes;
    const attn::io::ReadStatus s = attn::io::readBoundedFile(
        QFile::encodeName(path).toStdString(), static_cast<std::uint64_t>(limit), bytes);
    using attn::io::ReadError;
    switch (s.error) {
    case ReadError::Ok:
        out = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
        return true;
    case ReadError::Missing: problem = Tr::tr("the file does not exist."); return false;
    case ReadError::NotRegular:
        problem = s.kind == attn::io::FileKind::Directory
                      ? Tr::tr("this is a folder, not a file.")
                      : Tr::tr("it is %1, not a file; it was not read.").arg(fileKindText(s.kind));
        return false;
    case ReadError::TooLarge:
        problem =
            Tr::tr("the file is too large: such a file may be at most %1 MiB.").arg(mib(s.limit));
        return false;
    case ReadError::OpenFailed:
    case ReadError::ReadFailed:
        problem =
            Tr::tr("cannot be read: %1").arg(QString::fromLocal8Bit(std::strerror(s.errnoValue)));
        return false;
    }
    return false;
}

}  // namespace attnlab
