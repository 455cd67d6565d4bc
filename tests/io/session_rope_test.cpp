// SPDX-License-Identifier: GPL-3.0-or-later
// Rotary positions in session files (options.rope, format version 3): written only when on,
// read back exactly, absent in older files (rotation off). Bad values: io/support/bad_sessions.
#include <gtest/gtest.h>

#include <QJsonDocument>
#include <QJsonObject>

#include "core/attention.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

// The default session with d_k = 4 (rotary positions turn pairs of coordinates).
Session evenSession()
{
    Session s = defaultSession();
    randomiseProjections(s, 1, 4, 3, 7);
    return s;
}

TEST(SessionRope, RotaryPositionsAreWrittenAsVersion3AndReadBackExactly)
{
    SessionFile in{evenSession(), {}};
    attn::Rope rope;
    rope.theta = 500000.0;
    rope.scaling = attn::RopeScaling::Llama3;
    rope.factor = 8.0;
    rope.lowFreqFactor = 1.0;
    rope.highFreqFactor = 4.0;
    rope.originalPositions = 8192.0;
    in.session.input.rope = rope;
    EXPECT_EQ(sessionFormatVersion(in.session), 3);
    const QByteArray json = sessionToJson(in);
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    EXPECT_EQ(root[QLatin1String("version")].toInt(), 3);
    const QJsonObject written = root[QLatin1String("options")][QLatin1String("rope")].toObject();
    EXPECT_EQ(written[QLatin1String("theta")].toDouble(), 500000.0);
    EXPECT_EQ(written[QLatin1String("scaling")].toString(), QLatin1String("llama3"));
    EXPECT_EQ(written[QLatin1String("original_max_position_embeddings")].toDouble(), 8192.0);

    SessionFile out;
    FileError error;
    ASSERT_TRUE(parseSessionJson(json, QStringLiteral("mem"), out, error))
        << error.message().toStdString();
    ASSERT_TRUE(out.session.input.rope.has_value());
    EXPECT_EQ(*out.session.input.rope, rope);
    EXPECT_EQ(sessionToJson(out), json);
    // The same rotated map.
    attn::AttentionResult a, b;
    ASSERT_TRUE(attn::computeAttention<double>(in.session.input, a).ok());
    ASSERT_TRUE(attn::computeAttention<double>(out.session.input, b).ok());
    EXPECT_EQ(a.heads[0].weights, b.heads[0].weights);
    EXPECT_NE(a.heads[0].rotatedK.size(), 0);
}

TEST(SessionRope, OnlyThetaIsNeededTheRestTakeTheirDefaults)
{
    SessionFile in{evenSession(), {}};
    in.session.input.rope = attn::Rope{};
    QJsonObject root = QJsonDocument::fromJson(sessionToJson(in)).object();
    QJsonObject options = root[QLatin1String("options")].toObject();
    options[QLatin1String("rope")] = QJsonObject{{QStringLiteral("theta"), 25.0}};
    root[QLatin1String("options")] = options;
    SessionFile out;
    FileError error;
    ASSERT_TRUE(parseSessionJson(QJsonDocument(root).toJson(), QStringLiteral("mem"), out, error))
        << error.message().toStdString();
    attn::Rope want;
    want.theta = 25.0;
    EXPECT_EQ(out.session.input.rope, want);
}

TEST(SessionRope, FilesWithoutRopeOpenWithRotationOffAndStayOlderVersions)
{
    // A version 1 and a version 2 file (biases): no field, no rotation.
    SessionFile plain{evenSession(), {}};
    EXPECT_EQ(sessionFormatVersion(plain.session), 1);
    SessionFile biased = plain;
    biased.session.input.heads[0].b_Q = attn::Vector::Constant(4, 0.5);
    EXPECT_EQ(sessionFormatVersion(biased.session), 2);
    for (const SessionFile* f : {&plain, &biased}) {
        const QByteArray json = sessionToJson(*f);
        EXPECT_FALSE(json.contains("rope"));
        SessionFile out;
        out.session.input.rope = attn::Rope{};  // replaced by what the file says
        FileError error;
        ASSERT_TRUE(parseSessionJson(json, QStringLiteral("old"), out, error))
            << error.message().toStdString();
        EXPECT_FALSE(out.session.input.rope.has_value());
    }
}

}  // namespace
}  // namespace attnlab
