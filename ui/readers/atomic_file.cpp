// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/atomic_file.h"

#include <cstring>

#include <QCoreApplication>
#include <QFile>
#include <QLocale>

#include "core/io/atomic_file.h"

namespace attnlab {

namespace {

class AtomicFileTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::AtomicFile)
};

QString kindText(attn::io::FileKind kind)
{
    using attn::io::FileKind;
    switch (kind) {
    case FileKind::Regular: return AtomicFileTr::tr("a file");
    case FileKind::Directory: return AtomicFileTr::tr("a folder");
    case FileKind::Fifo: return AtomicFileTr::tr("a FIFO (named pipe)");
    case FileKind::CharDevice: return AtomicFileTr::tr("a character device");
    case FileKind::BlockDevice: return AtomicFileTr::tr("a block device");
    case FileKind::Socket: return AtomicFileTr::tr("a socket");
    case FileKind::Other: return AtomicFileTr::tr("not a regular file");
    }
    return AtomicFileTr::tr("not a regular file");
}

}  // namespace

QString fileKindText(attn::io::FileKind kind)
{
    return kindText(kind);
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& problem)
{
    const attn::io::WriteStatus s =
        attn::io::writeFileAtomically(QFile::encodeName(path).toStdString(), bytes.constData(),
                                      static_cast<std::size_t>(bytes.size()));
    using attn::io::WriteError;
    switch (s.error) {
    case WriteError::Ok: return true;
    case WriteError::DiskFull:
        problem =
            AtomicFileTr::tr("the disk is full: %1 needed, %2 free")
                .arg(QLocale().formattedDataSize(static_cast<qint64>(s.needed)),
                     s.freeKnown ? QLocale().formattedDataSize(static_cast<qint64>(s.freeBefore))
                                 : AtomicFileTr::tr("an unknown amount"));
        return false;
    case WriteError::NotWritable:
        problem =
            AtomicFileTr::tr("it is %1, which AttnLab does not write to").arg(kindText(s.kind));
        return false;
    case WriteError::NoReader:
        problem = AtomicFileTr::tr("it is a FIFO (named pipe) that nobody is reading");
        return false;
    case WriteError::SystemError: problem = QString::fromLocal8Bit(std::strerror(s.errnoValue));
    }
    return false;
}

}  // namespace attnlab
