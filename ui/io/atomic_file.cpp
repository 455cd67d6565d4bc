#include "ui/io/atomic_file.h"

#include <cerrno>
#include <cstring>

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>
#include <QStorageInfo>

namespace attnlab {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::AtomicFile)
};

// Why a write failed, in words: a full disk is named as such, with the sizes; otherwise the
// system's reason (errno), since QSaveFile often has only "Unknown error".
QString reason(const QString& path, qint64 needed, const QString& qtError, int error)
{
    const QStorageInfo disk(QFileInfo(path).absolutePath());
    if (error == ENOSPC || error == EDQUOT ||
        (disk.isValid() && disk.bytesAvailable() < needed + 4096))
        return Tr::tr("the disk is full: %1 needed, %2 free")
            .arg(QLocale().formattedDataSize(needed),
                 QLocale().formattedDataSize(std::max<qint64>(0, disk.bytesAvailable())));
    if (error != 0) return QString::fromLocal8Bit(std::strerror(error));
    return qtError;
}

}  // namespace

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& problem)
{
    QSaveFile file(path);
    errno = 0;
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        problem = reason(path, bytes.size(), file.errorString(), errno);
        return false;
    }
    // In pieces, so that a short write names the failure it met.
    constexpr qint64 kPiece = qint64{1} << 20;
    for (qint64 at = 0; at < bytes.size(); at += kPiece) {
        const qint64 n = std::min(kPiece, bytes.size() - at);
        errno = 0;
        if (file.write(bytes.constData() + at, n) != n) {
            const int error = errno;
            problem = reason(path, bytes.size(), file.errorString(), error);
            file.cancelWriting();
            return false;
        }
    }
    errno = 0;
    if (!file.commit()) {
        problem = reason(path, bytes.size(), file.errorString(), errno);
        return false;
    }
    return true;
}

}  // namespace attnlab
