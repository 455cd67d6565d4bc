// SPDX-License-Identifier: GPL-3.0-or-later
// Paths that name something other than a regular file, given to the real attnlab and to the
// model window: a FIFO or /dev/zero as a session or as a model's config.json is refused by name
// within 100 MB of address space beyond the program's own baseline (and without blocking: the
// runs have a time-out); a character device as -o, or a link to one, is written in place and
// stays a device (the link stays a link); a FIFO nobody reads as -o is refused and stays a
// FIFO. Nothing is ever replaced by a regular file.
#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <future>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "support/cli_test_support.h"
#include "support/model_folder.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab {
namespace {

bool isCharDevice(const QString& path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISCHR(st.st_mode);
}

bool isFifo(const QString& path)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode);
}

bool makeFifo(const QString& path)
{
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

TEST(SpecialFiles, AFifoOrDevZeroAsASessionIsRefusedByNameWithin100MB)
{
    if (!test::addressLimitWorks()) GTEST_SKIP() << "AddressSanitizer: no ulimit -v test";
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const qint64 baseline =
        test::attnlabAddressBaseline({QStringLiteral("compute"), QStringLiteral("--lesson"),
                                      QStringLiteral("hand-exercise"), QStringLiteral("-o"), out});
    ASSERT_GT(baseline, 0);
    ASSERT_TRUE(QFile::remove(out));  // what the baseline's runs wrote
    const QString fifo = dir.filePath(QStringLiteral("fifo.attnlab.json"));
    ASSERT_TRUE(makeFifo(fifo));
    const QString zero = dir.filePath(QStringLiteral("zero.attnlab.json"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/zero"), zero));
    struct Case {
        QString path;
        const char* kind;
    };
    for (const Case& c : {Case{fifo, "a FIFO"}, Case{zero, "a character device"},
                          Case{QStringLiteral("/dev/zero"), "a character device"}}) {
        const test::CliRun r = test::runAttnlabWithAddressLimit(
            baseline + test::kAddressBudgetKiB,
            {QStringLiteral("compute"), QStringLiteral("--session"), c.path, QStringLiteral("-o"),
             out});
        EXPECT_EQ(r.code, 3) << c.path.toStdString() << ": " << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(c.path + QStringLiteral(": it is ") + QLatin1String(c.kind)))
            << r.err.toStdString();
    }
    EXPECT_TRUE(isFifo(fifo));
    EXPECT_TRUE(QFileInfo(zero).isSymLink());
    EXPECT_FALSE(QFileInfo::exists(out));
}

TEST(SpecialFiles, AFifoOrALinkToDevZeroAsConfigJsonIsRefusedByNameWithin100MB)
{
    if (!test::addressLimitWorks()) GTEST_SKIP() << "AddressSanitizer: no ulimit -v test";
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QStringList args = {QStringLiteral("model"), QStringLiteral("--model"), folder,
                              QStringLiteral("--text"), QStringLiteral("x")};
    const qint64 baseline = test::attnlabAddressBaseline(args);
    ASSERT_GT(baseline, 0);
    const QString config = folder + QStringLiteral("/config.json");
    for (const bool fifo : {true, false}) {
        QFile::remove(config);
        ASSERT_TRUE(fifo ? makeFifo(config) : QFile::link(QStringLiteral("/dev/zero"), config));
        const test::CliRun r =
            test::runAttnlabWithAddressLimit(baseline + test::kAddressBudgetKiB, args);
        EXPECT_EQ(r.code, 3) << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(config)) << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(fifo ? QStringLiteral("is a FIFO (named pipe), not a file")
                                        : QStringLiteral("is a character device, not a file")))
            << r.err.toStdString();
        EXPECT_TRUE(fifo ? isFifo(config) : QFileInfo(config).isSymLink());
    }
}

TEST(SpecialFiles, ACharacterDeviceOrALinkToOneAsOutputIsWrittenInPlaceAndStaysADevice)
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("out.json"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/null"), json));
    test::CliRun r =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--lesson"),
                          QStringLiteral("hand-exercise"), QStringLiteral("-o"), json});
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    const QString png = dir.filePath(QStringLiteral("out.png"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/null"), png));
    r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--lesson"),
                          QStringLiteral("hand-exercise"), QStringLiteral("-o"), png});
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    for (const QString& link : {json, png}) {
        EXPECT_TRUE(QFileInfo(link).isSymLink()) << link.toStdString();
        EXPECT_EQ(QFileInfo(link).symLinkTarget(), QStringLiteral("/dev/null"));
    }
    EXPECT_TRUE(isCharDevice(QStringLiteral("/dev/null")));

    // A device that takes nothing: its own reason, exit 4, and it stays a device.
    const QString full = dir.filePath(QStringLiteral("full.csv"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/full"), full));
    r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--lesson"),
                          QStringLiteral("hand-exercise"), QStringLiteral("-o"), full});
    EXPECT_EQ(r.code, 4);
    EXPECT_TRUE(r.err.contains(QStringLiteral("No space left on device"))) << r.err.toStdString();
    EXPECT_TRUE(QFileInfo(full).isSymLink());
    EXPECT_TRUE(isCharDevice(QStringLiteral("/dev/full")));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).size(), 3)
        << "a temporary file was left beside the links";
}

TEST(SpecialFiles, AFifoNobodyReadsAsOutputIsRefusedAndStaysAFifo)
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("out.json"));
    ASSERT_TRUE(makeFifo(fifo));
    const test::CliRun r =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--lesson"),
                          QStringLiteral("hand-exercise"), QStringLiteral("-o"), fifo});
    EXPECT_EQ(r.code, 4);
    EXPECT_TRUE(r.err.contains(QStringLiteral("a FIFO (named pipe) that nobody is reading")))
        << r.err.toStdString();
    EXPECT_TRUE(isFifo(fifo));
}

TEST(SpecialFiles, TheModelWindowRefusesAFifoOrDevZeroAsConfigJsonAndKeepsItsModel)
{
    QTemporaryDir dir;
    QStringList warnings;
    ModelWindow w;
    ModelWindowDialogs d;
    d.openFolder = [](const QString&) { return QString(); };
    d.savePath = [](const QString&) { return QString(); };
    d.warn = [&warnings](const QString&, const QString& text) { warnings << text; };
    w.setDialogs(d);
    const QString good = test::modelFolder(dir, "gpt2_tiny", true);
    ASSERT_TRUE(w.openFolder(good));
    const QString bad = dir.filePath(QStringLiteral("bad"));
    QDir().mkpath(bad);
    for (const char* f : {"model.safetensors", "vocab.json", "merges.txt"})
        ASSERT_TRUE(QFile::copy(good + QLatin1Char('/') + QLatin1String(f),
                                bad + QLatin1Char('/') + QLatin1String(f)));
    const QString config = bad + QStringLiteral("/config.json");
    for (const bool fifo : {true, false}) {
        QFile::remove(config);
        ASSERT_TRUE(fifo ? makeFifo(config) : QFile::link(QStringLiteral("/dev/zero"), config));
        warnings.clear();
        EXPECT_FALSE(w.openFolder(bad));
        ASSERT_EQ(warnings.size(), 1);
        EXPECT_TRUE(warnings[0].contains(QStringLiteral("config.json")))
            << warnings[0].toStdString();
        EXPECT_TRUE(warnings[0].contains(fifo ? QStringLiteral("FIFO")
                                              : QStringLiteral("character device")))
            << warnings[0].toStdString();
        EXPECT_EQ(w.document()->folder(), QDir::cleanPath(good));
    }
}

// A session taken from a model records the SHA-256 of model.safetensors, read again by path
// after the model opened: whatever the path names by then is read through the bounded reader.
TEST(SpecialFiles, AFifoAsTheCheckpointToHashIsRefusedByNameWithoutBlocking)
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("model.safetensors"));
    ASSERT_TRUE(makeFifo(fifo));
    auto hashed = std::async(std::launch::async, [&fifo] {
        QString problem;
        QString sha = fileSha256(fifo, problem);
        return std::pair{sha, problem};
    });
    if (hashed.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        // It waits in open() for a writer: one lets it go, so that the test fails, not hangs.
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
        ADD_FAILURE() << "hashing a FIFO blocked for 10 s";
    }
    const auto [sha, problem] = hashed.get();
    EXPECT_TRUE(sha.isEmpty()) << sha.toStdString();
    EXPECT_TRUE(problem.contains(QStringLiteral("FIFO"))) << problem.toStdString();
    EXPECT_TRUE(isFifo(fifo));
}

TEST(ModelSha256, AFileHashesAsItsBytesAndAStopLeavesNoHashAndNoProblem)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.safetensors"));
    // Over two of the reader's 4 MiB pieces, so that the pieces are joined in order.
    QByteArray bytes(qsizetype{9} << 20, Qt::Uninitialized);
    for (qsizetype i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 131) >> 7);
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    ASSERT_EQ(f.write(bytes), bytes.size());
    f.close();
    QString problem;
    EXPECT_EQ(
        fileSha256(path, problem),
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
    EXPECT_TRUE(problem.isEmpty()) << problem.toStdString();
    const std::atomic<bool> stop{true};
    EXPECT_TRUE(fileSha256(path, problem, &stop).isEmpty());
    EXPECT_TRUE(problem.isEmpty()) << problem.toStdString();
    EXPECT_TRUE(fileSha256(dir.filePath(QStringLiteral("missing")), problem).isEmpty());
    EXPECT_FALSE(problem.isEmpty());
}

}  // namespace
}  // namespace attnlab
