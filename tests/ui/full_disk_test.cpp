// SPDX-License-Identifier: GPL-3.0-or-later
// Writing on a full disk: every output of the command line (JSON, CSV, PNG, SVG, PDF, a session)
// either replaces the old file completely or leaves it untouched, and says why in words with exit
// 4. Each case runs the real attnlab in its own mount namespace (unshare -m) on a small tmpfs
// filled up beforehand, so the machine's disks are never touched; without the rights for that
// (not root, no unshare) the test is skipped and says so.
#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include "support/model_folder.h"

namespace attnlab {
namespace {

constexpr char kOld[] = "the old file, which must survive\n";

struct DiskRun {
    int code = -1;
    QString err;
    QByteArray after;  // the output file afterwards
    bool mounted = false;
};

// In a new mount namespace: a tmpfs of `kib` KiB on a fresh folder, the old output file in it,
// the rest filled with zeros but `freeKib` KiB, then `attnlab ARGS` with OUT replaced by the
// output.
DiskRun onFullDisk(const QString& output, QStringList args, int kib = 256, int freeKib = 0)
{
    QTemporaryDir mountPoint;
    const QString out = mountPoint.filePath(output);
    for (QString& a : args) a.replace(QStringLiteral("OUT"), out);
    QStringList quoted;
    for (const QString& a : args) quoted << QLatin1Char('\'') + a + QLatin1Char('\'');
    const QString script =
        QStringLiteral(
            "mount -t tmpfs -o size=%1k none '%2' || exit 97; "
            "printf '%3' > '%4'; "
            "dd if=/dev/zero of='%2/fill' bs=1k count=%5 2>/dev/null; "
            "'%6' %7 > /dev/null; code=$?; cat '%4'; exit $code")
            .arg(kib)
            .arg(mountPoint.path(),
                 QString::fromLatin1(kOld).replace(QLatin1String("\n"), QLatin1String("\\n")),
                 out)
            .arg(kib - 4 - freeKib)  // the old file takes one 4 KiB page
            .arg(QStringLiteral(ATTNLAB_BINARY), quoted.join(QLatin1Char(' ')));
    QProcess p;
    p.start(QStringLiteral("unshare"),
            {QStringLiteral("-m"), QStringLiteral("--propagation"), QStringLiteral("private"),
             QStringLiteral("sh"), QStringLiteral("-c"), script});
    DiskRun r;
    if (!p.waitForFinished(60000)) return r;
    r.code = p.exitCode();
    r.mounted = r.code != 97 && p.exitStatus() == QProcess::NormalExit &&
                p.error() != QProcess::FailedToStart;
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.after = p.readAllStandardOutput();
    return r;
}

bool canMount()
{
    QProcess p;
    p.start(
        QStringLiteral("unshare"),
        {QStringLiteral("-m"), QStringLiteral("--propagation"), QStringLiteral("private"),
         QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("mount -t tmpfs none /mnt")});
    return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

class FullDisk : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!canMount())
            GTEST_SKIP() << "needs root and unshare -m to mount a small tmpfs of its own";
    }
};

void expectKeptAndSaid(const DiskRun& r, const char* what)
{
    ASSERT_TRUE(r.mounted) << what;
    EXPECT_EQ(r.code, 4) << what << ": " << r.err.toStdString();
    EXPECT_EQ(r.after, QByteArray(kOld)) << what << ": the old file was changed";
    EXPECT_TRUE(r.err.contains(QStringLiteral("full"), Qt::CaseInsensitive) ||
                r.err.contains(QStringLiteral("No space left"), Qt::CaseInsensitive))
        << what << ": " << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("Unknown error"))) << what;
}

TEST_F(FullDisk, SmallAndLargeOutputsOfComputeLeaveTheOldFileAndSayTheDiskIsFull)
{
    expectKeptAndSaid(
        onFullDisk(QStringLiteral("out.json"),
                   {QStringLiteral("compute"), QStringLiteral("--lesson"),
                    QStringLiteral("hand-exercise"), QStringLiteral("-o"), QStringLiteral("OUT")}),
        "compute json");
    expectKeptAndSaid(
        onFullDisk(QStringLiteral("out.csv"),
                   {QStringLiteral("compute"), QStringLiteral("--lesson"),
                    QStringLiteral("hand-exercise"), QStringLiteral("-o"), QStringLiteral("OUT")}),
        "compute csv");
}

TEST_F(FullDisk, AnOutputLargerThanTheFreeSpaceLeavesTheOldFileAndSaysSo)
{
    // Every layer's and head's map of a 30-token text and its predictions: tens of kB, with
    // 8 kB free.
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    expectKeptAndSaid(
        onFullDisk(QStringLiteral("maps.json"),
                   {QStringLiteral("model"), QStringLiteral("--model"), folder,
                    QStringLiteral("--text"), QStringLiteral("the cat sat on the mat, the end."),
                    QStringLiteral("-o"), QStringLiteral("OUT")},
                   256, 8),
        "model json");
}

TEST_F(FullDisk, FiguresOfEveryFormatLeaveTheOldFileAndSayTheDiskIsFull)
{
    for (const char* name : {"map.png", "map.svg", "map.pdf"})
        expectKeptAndSaid(
            onFullDisk(QLatin1String(name),
                       {QStringLiteral("render"), QStringLiteral("--lesson"),
                        QStringLiteral("hand-exercise"), QStringLiteral("-o"),
                        QStringLiteral("OUT"), QStringLiteral("--width"), QStringLiteral("64"),
                        QStringLiteral("--height"), QStringLiteral("64")}),
            name);
}

TEST_F(FullDisk, ASessionFromAModelLeavesTheOldFileAndSaysTheDiskIsFull)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    expectKeptAndSaid(onFullDisk(QStringLiteral("head.attnlab.json"),
                                 {QStringLiteral("model"), QStringLiteral("--model"), folder,
                                  QStringLiteral("--text"), QStringLiteral("the cat"),
                                  QStringLiteral("--session-out"), QStringLiteral("OUT")}),
                      "session");
}

TEST_F(FullDisk, WithRoomTheOutputReplacesTheOldFileWhole)
{
    const DiskRun r =
        onFullDisk(QStringLiteral("out.json"),
                   {QStringLiteral("compute"), QStringLiteral("--lesson"),
                    QStringLiteral("hand-exercise"), QStringLiteral("-o"), QStringLiteral("OUT")},
                   1024, 900);
    ASSERT_TRUE(r.mounted);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_TRUE(r.after.startsWith("{")) << r.after.left(40).toStdString();
    EXPECT_TRUE(r.after.trimmed().endsWith("}"));
}

}  // namespace
}  // namespace attnlab
