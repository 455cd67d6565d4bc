// SPDX-License-Identifier: GPL-3.0-or-later
// Session files written and read back by the readers alone, without a window: every field bit
// for bit, random and special doubles, version 2's biases and provenance, the layout of what is
// written, the documented example, and a failed save that leaves the old file. io_tests run
// these under ASan + UBSan too; ui_tests open the same files through the window.
#include "ui/readers/session_file.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <iterator>
#include <random>
#include <signal.h>
#include <sys/resource.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "core/attention.h"
#include "io/support/sessions.h"
#include "ui/readers/session_format.h"

namespace attnlab {
namespace {

using testing::richFile;
using testing::sameBits;

TEST(SessionFile, SaveThenOpenRestoresEveryFieldBitIdentical)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rich.attnlab.json"));
    const SessionFile in = richFile();
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, in, error)) << error.message().toStdString();
    SessionFile out;
    ASSERT_TRUE(readSessionFile(path, out, error)) << error.message().toStdString();

    const Session& a = in.session;
    const Session& b = out.session;
    EXPECT_EQ(b.targetTokens, a.targetTokens);
    EXPECT_EQ(b.sourceTokens, a.sourceTokens);
    EXPECT_EQ(b.seed, a.seed);
    EXPECT_EQ(b.dModel, a.dModel);
    EXPECT_EQ(b.dAdditive, a.dAdditive);
    EXPECT_TRUE(sameBits(b.input.X, a.input.X));
    EXPECT_TRUE(sameBits(b.input.Y, a.input.Y));
    EXPECT_TRUE(sameBits(b.input.W_O, a.input.W_O));
    ASSERT_EQ(b.input.heads.size(), a.input.heads.size());
    for (std::size_t h = 0; h < a.input.heads.size(); ++h) {
        const attn::HeadParams& p = a.input.heads[h];
        const attn::HeadParams& q = b.input.heads[h];
        EXPECT_TRUE(sameBits(q.W_Q, p.W_Q)) << h;
        EXPECT_TRUE(sameBits(q.W_K, p.W_K)) << h;
        EXPECT_TRUE(sameBits(q.W_V, p.W_V)) << h;
        EXPECT_TRUE(sameBits(q.additive.W_a, p.additive.W_a)) << h;
        EXPECT_TRUE(sameBits(q.additive.U_a, p.additive.U_a)) << h;
        EXPECT_TRUE(sameBits(attn::Matrix(q.additive.v), attn::Matrix(p.additive.v))) << h;
    }
    EXPECT_EQ(b.input.mode, a.input.mode);
    EXPECT_EQ(b.input.scaling, a.input.scaling);
    EXPECT_TRUE(sameBits(b.input.temperature, a.input.temperature));
    EXPECT_EQ(b.input.score, a.input.score);
    EXPECT_EQ(b.input.sharedProjections, a.input.sharedProjections);
    ASSERT_TRUE(b.input.mask.has_value());
    EXPECT_EQ(*b.input.mask, *a.input.mask);
    ASSERT_EQ(b.input.edits.size(), a.input.edits.size());
    for (std::size_t e = 0; e < a.input.edits.size(); ++e) {
        const attn::VectorEdit& x = a.input.edits[e];
        const attn::VectorEdit& y = b.input.edits[e];
        EXPECT_TRUE(x.sameTarget(y)) << e;
        EXPECT_TRUE(sameBits(x.scale, y.scale)) << e;
        ASSERT_EQ(x.overrides.size(), y.overrides.size()) << e;
        for (std::size_t k = 0; k < x.overrides.size(); ++k) {
            EXPECT_EQ(x.overrides[k].component, y.overrides[k].component);
            EXPECT_TRUE(sameBits(x.overrides[k].value, y.overrides[k].value));
        }
    }
    EXPECT_EQ(out.view.head, 1);
    EXPECT_EQ(out.view.row, 2);
    EXPECT_EQ(out.view.column, 1);
    EXPECT_EQ(out.view.colors, WeightColors::DataRange);
    // Writing what was read gives the same bytes.
    EXPECT_EQ(sessionToJson(out), sessionToJson(in));
}

TEST(SessionFile, RandomDoublesSurviveSaveThenOpenBitIdentical)
{
    std::mt19937_64 rng(20240611);
    Session s = defaultSession();
    attn::Matrix X(500, 3);
    for (long i = 0; i < X.size(); ++i) {
        double d = 0.0;
        do {
            const std::uint64_t bits = rng();
            std::memcpy(&d, &bits, sizeof d);
        } while (!std::isfinite(d));
        X.data()[i] = d;
    }
    const double specials[] = {-0.0,
                               0.0,
                               4.9406564584124654e-324,
                               2.2250738585072014e-308,
                               1.7976931348623157e308,
                               -1.7976931348623157e308,
                               9007199254740993.0,
                               123456789012345678901234567890.0,
                               0.1,
                               1.0 / 3.0,
                               1e22,
                               1e23};
    for (std::size_t k = 0; k < std::size(specials); ++k) X.data()[k] = specials[k];
    s.targetTokens.clear();
    for (long i = 0; i < X.rows(); ++i) s.targetTokens << QString::number(i);
    s.input.X = X;
    s.input.edits.clear();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("random.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, SessionFile{s, {}}, error)) << error.message().toStdString();
    SessionFile out;
    ASSERT_TRUE(readSessionFile(path, out, error)) << error.message().toStdString();
    long differing = 0;
    for (long i = 0; i < X.size(); ++i)
        differing += !sameBits(out.session.input.X.data()[i], X.data()[i]);
    EXPECT_EQ(differing, 0);
    EXPECT_TRUE(std::signbit(out.session.input.X.data()[0]));  // -0.0 keeps its sign
}

TEST(SessionFile, AHeadWithBiasesAndProvenanceIsVersion2AndReadsBackBitIdentical)
{
    SessionFile in = richFile();
    for (attn::HeadParams& p : in.session.input.heads) {
        p.b_Q = attn::Vector::LinSpaced(in.session.input.keyDim(), -0.1, 0.7);
        p.b_K = attn::Vector::LinSpaced(in.session.input.keyDim(), 0.3, -1.0 / 3.0);
        p.b_V = attn::Vector::LinSpaced(in.session.input.valueDim(), 1e-300, 5.0);
    }
    in.session.input.heads.back().b_V.resize(0);  // a head may lack one
    ModelProvenance p;
    p.folder = QStringLiteral("/models/gpt2 (small)");
    p.sha256 = QString(64, QLatin1Char('0')).replace(3, 1, QLatin1Char('f'));
    p.modelType = QStringLiteral("gpt2");
    p.layer = 4;
    p.head = 11;
    p.text = QStringLiteral("The animal didn't cross the street because it was too \"tired\"");
    in.session.provenance = p;
    EXPECT_EQ(sessionFormatVersion(in.session), 2);
    const QByteArray json = sessionToJson(in);
    EXPECT_EQ(QJsonDocument::fromJson(json).object()[QLatin1String("version")].toInt(), 2);
    SessionFile out;
    FileError error;
    ASSERT_TRUE(parseSessionJson(json, QStringLiteral("mem"), out, error))
        << error.message().toStdString();
    ASSERT_EQ(out.session.input.heads.size(), in.session.input.heads.size());
    for (std::size_t h = 0; h < in.session.input.heads.size(); ++h) {
        const attn::HeadParams& a = in.session.input.heads[h];
        const attn::HeadParams& b = out.session.input.heads[h];
        EXPECT_TRUE(sameBits(b.b_Q, a.b_Q)) << h;
        EXPECT_TRUE(sameBits(b.b_K, a.b_K)) << h;
        EXPECT_TRUE(sameBits(b.b_V, a.b_V)) << h;
    }
    EXPECT_EQ(out.session.provenance, in.session.provenance);
    // The same result: the biases reach the core.
    attn::AttentionResult ra, rb;
    ASSERT_TRUE(attn::computeAttention<double>(in.session.input, ra).ok());
    ASSERT_TRUE(attn::computeAttention<double>(out.session.input, rb).ok());
    EXPECT_TRUE(sameBits(rb.heads[0].weights, ra.heads[0].weights));
}

TEST(SessionFile, ASessionWithoutVersion2FieldsIsStillWrittenAsVersion1)
{
    const SessionFile plain = richFile();
    EXPECT_EQ(sessionFormatVersion(plain.session), 1);
    const QByteArray json = sessionToJson(plain);
    EXPECT_FALSE(json.contains("b_Q"));
    EXPECT_FALSE(json.contains("provenance"));
}

TEST(SessionFile, WritesMasksAsBooleansAndOneMatrixRowPerLine)
{
    const QByteArray json = sessionToJson(richFile());
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    EXPECT_EQ(root[QLatin1String("format")].toString(), QLatin1String("attnlab-session"));
    EXPECT_EQ(root[QLatin1String("version")].toInt(), 1);
    const QJsonArray mask = root[QLatin1String("options")][QLatin1String("mask")].toArray();
    ASSERT_EQ(mask.size(), 4);
    EXPECT_TRUE(mask[0].toArray()[0].isBool());
    EXPECT_FALSE(mask[1].toArray()[2].toBool());
    EXPECT_FALSE(json.contains("null"));
    EXPECT_FALSE(json.contains("Infinity"));
    const QRegularExpression row(
        QStringLiteral("\\n\\s+\\[[-0-9.e+]+, [-0-9.e+]+, [-0-9.e+]+, "
                       "[-0-9.e+]+\\]"));
    EXPECT_TRUE(row.match(QString::fromUtf8(json)).hasMatch());
}

TEST(SessionFile, DocumentedExampleOpens)
{
    const QString doc = QStringLiteral(ATTNLAB_SOURCE_DIR "/docs/session-format.md");
    const QByteArray md = testing::readBytes(doc);
    ASSERT_FALSE(md.isEmpty()) << doc.toStdString();
    const qsizetype start = md.indexOf("```json\n");
    ASSERT_GE(start, 0);
    const qsizetype end = md.indexOf("```", start + 8);
    SessionFile out;
    FileError error;
    EXPECT_TRUE(parseSessionJson(md.mid(start + 8, end - start - 8), doc, out, error))
        << error.message().toStdString();
    EXPECT_EQ(out.session.targetTokens.size(), 4);
}

// Makes writes beyond `bytes` fail (EFBIG), as a full disk would, even for root.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        getrlimit(RLIMIT_FSIZE, &old_);
        oldHandler_ = signal(SIGXFSZ, SIG_IGN);
        rlimit l = old_;
        l.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &l);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &old_);
        signal(SIGXFSZ, oldHandler_);
    }

private:
    rlimit old_{};
    sighandler_t oldHandler_;
};

TEST(SessionFile, FailedSaveLeavesTheOldFileIntact)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, SessionFile{defaultSession(), {}}, error));
    const QByteArray before = testing::readBytes(path);
    {
        FileSizeLimit limit(static_cast<rlim_t>(before.size()));
        EXPECT_FALSE(writeSessionFile(path, richFile(), error));
    }
    EXPECT_EQ(error.file, path);
    EXPECT_FALSE(error.problem.isEmpty());
    EXPECT_EQ(testing::readBytes(path), before);
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // no temporary left behind
}

TEST(SessionFile, SavingIntoAMissingFolderOrOverAFolderFailsWithAMessage)
{
    QTemporaryDir dir;
    FileError error;
    const QString missing = dir.filePath(QStringLiteral("no/such/dir/x.attnlab.json"));
    EXPECT_FALSE(writeSessionFile(missing, richFile(), error));
    EXPECT_TRUE(error.message().contains(missing));
    const QString folder = dir.filePath(QStringLiteral("folder.attnlab.json"));
    ASSERT_TRUE(QDir().mkdir(folder));
    EXPECT_FALSE(writeSessionFile(folder, richFile(), error));
    EXPECT_TRUE(QFileInfo(folder).isDir());
}

}  // namespace
}  // namespace attnlab
