// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson catalogue reader on its own (attnlab_readers, no window): the committed
// resources/lessons/lessons.json read from disk names every text, session and dock it needs, and
// malformed catalogues give no lessons rather than a crash. The sanitizer step of .ci/run runs
// these under ASan + UBSan.
#include "ui/readers/lesson_catalog.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonObject>

#include "ui/readers/dock_layout.h"

namespace attnlab {
namespace {

const QString kDir = QStringLiteral(ATTNLAB_SOURCE_DIR "/resources/lessons/");

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<Lesson> catalogFromDisk(const QByteArray& json)
{
    return parseLessonCatalog(json, kDir, &readFile);
}

TEST(LessonCatalogRead, CommittedCatalogNamesTextsSessionsAndDocksThatExist)
{
    const QList<Lesson> lessons = catalogFromDisk(readFile(kDir + QStringLiteral("lessons.json")));
    const QStringList sessions =
        QDir(kDir).entryList({QStringLiteral("*.attnlab.json")}, QDir::Files);
    ASSERT_GE(lessons.size(), 10);
    QStringList ids;
    for (const Lesson& l : lessons) {
        SCOPED_TRACE(l.id.toStdString());
        EXPECT_FALSE(ids.contains(l.id));
        ids << l.id;
        EXPECT_FALSE(l.titleEn.isEmpty());
        EXPECT_FALSE(l.titleZh.isEmpty());
        EXPECT_FALSE(l.textEn.isEmpty());
        EXPECT_FALSE(l.textZh.isEmpty());
        EXPECT_TRUE(QFile::exists(l.sessionPath)) << l.sessionPath.toStdString();
        const DockLayout& layout = l.layout;
        EXPECT_FALSE(layout.left.isEmpty() && layout.right.isEmpty() && layout.bottom.isEmpty());
    }
    // Every session file in the folder belongs to a lesson (some lessons share a text).
    for (const QString& s : sessions) {
        const bool used = std::any_of(lessons.begin(), lessons.end(),
                                      [&](const Lesson& l) { return l.sessionPath == kDir + s; });
        EXPECT_TRUE(used) << s.toStdString();
    }
}

TEST(LessonCatalogRead, MalformedCatalogsGiveNoLessonsOrOnlyTheWellFormedOnes)
{
    EXPECT_TRUE(catalogFromDisk(QByteArray()).isEmpty());
    EXPECT_TRUE(catalogFromDisk("not json").isEmpty());
    EXPECT_TRUE(catalogFromDisk(R"({"lessons": 3})").isEmpty());
    EXPECT_TRUE(catalogFromDisk(QByteArray(100'000, '[') + QByteArray(100'000, ']')).isEmpty());
    const QList<Lesson> some = catalogFromDisk(
        R"({"lessons": [1, "x", {"title_en": "no id"}, {"id": "a", "layout": [1]},)"
        R"( {"id": "b", "text_en": "../../../../etc/none", "layout": {"left": [[[]]]}}]})");
    ASSERT_EQ(some.size(), 2);
    EXPECT_EQ(some[0].id, QStringLiteral("a"));
    EXPECT_TRUE(some[1].textEn.isEmpty());
    EXPECT_TRUE(some[1].layout.left.isEmpty());  // [[[]]] names no dock
}

}  // namespace
}  // namespace attnlab
