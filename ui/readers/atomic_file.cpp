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

QString writeProblemText(const attn::io::WriteStatus& s)
{
    using attn::io::WriteError;
    const QString other = QFile::decodeName(QByteArray::fromStdString(s.other));
    switch (s.error) {
    case WriteError::Ok: return {};
    case WriteError::DiskFull:
        return AtomicFileTr::tr("the disk is full: %1 needed, %2 free")
            .arg(QLocale().formattedDataSize(static_cast<qint64>(s.needed)),
                 s.freeKnown ? QLocale().formattedDataSize(static_cast<qint64>(s.freeBefore))
                             : AtomicFileTr::tr("an unknown amount"));
    case WriteError::NotWritable:
        return AtomicFileTr::tr("it is %1, which AttnLab does not write to").arg(kindText(s.kind));
    case WriteError::NoReader:
        return AtomicFileTr::tr("it is a FIFO (named pipe) that nobody is reading");
    case WriteError::EmptyPath: return AtomicFileTr::tr("no file name was given");
    case WriteError::NoFolder: return AtomicFileTr::tr("the folder %1 does not exist").arg(other);
    case WriteError::NoPermission:
        return other.isEmpty()
                   ? AtomicFileTr::tr(
                         "you may not write this file (permission denied); it is "
                         "left as it was")
                   : AtomicFileTr::tr("you may not write in the folder %1 (permission denied)")
                         .arg(other);
    case WriteError::SameAsInput:
        return AtomicFileTr::tr("it is the same file as the input %1, which it would overwrite")
            .arg(other);
    case WriteError::SameAsOutput:
        return AtomicFileTr::tr(
                   "it is the same file as the output %1; give each output its own "
                   "file")
            .arg(other);
    case WriteError::NotOurs:
        return AtomicFileTr::tr(
                   "it is a folder AttnLab did not make (it holds %1); nothing in it "
                   "was changed: choose a new or empty folder")
            .arg(other);
    case WriteError::SystemError: break;
    }
    return QString::fromLocal8Bit(std::strerror(s.errnoValue));
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& problem)
{
    const attn::io::WriteStatus s =
        attn::io::writeFileAtomically(QFile::encodeName(path).toStdString(), bytes.constData(),
                                      static_cast<std::size_t>(bytes.size()));
    problem = writeProblemText(s);
    return s.ok();
}

}  // namespace attnlab
