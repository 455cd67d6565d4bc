// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in models' copies in the cache are trusted only as far as their bytes go: a file
// changed to the same size is put back, a link put in a file's place or in the folder's place
// is replaced and what it names is never written.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "core/model/model.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {
namespace {

// The cache of a temporary home, for one test.
class FreshCache {
public:
    FreshCache() : old_(qgetenv("XDG_CACHE_HOME"))
    {
        qputenv("XDG_CACHE_HOME", (home_.path() + QStringLiteral("/cache")).toUtf8());
    }
    ~FreshCache()
    {
        if (old_.isEmpty())
            qunsetenv("XDG_CACHE_HOME");
        else
            qputenv("XDG_CACHE_HOME", old_);
    }
    [[nodiscard]] QString path() const { return home_.path(); }

private:
    QTemporaryDir home_;
    QByteArray old_;
};

QByteArray cachedBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void putBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

QString resolvedInduction()
{
    QString error;
    const QString dir = resolveModelFolder(QStringLiteral("builtin:induction"), error);
    EXPECT_FALSE(dir.isEmpty()) << error.toStdString();
    return dir;
}

TEST(BuiltinCache, AFileChangedToTheSameSizeIsPutBack)
{
    FreshCache cache;
    const QString dir = resolvedInduction();
    const QString config = dir + QStringLiteral("/config.json");
    const QByteArray original = cachedBytes(config);
    QByteArray edited = original;
    edited.replace("1e-05", "2e-05");
    ASSERT_NE(edited, original);
    ASSERT_EQ(edited.size(), original.size());
    putBytes(config, edited);
    // The reader refuses the mixed folder by itself...
    attn::model::Model model;
    EXPECT_EQ(attn::model::Model::load(QFile::encodeName(dir).toStdString(), model).code,
              attn::StatusCode::FolderMismatch);
    // ...and the next use of the built-in name puts the program's bytes back.
    EXPECT_EQ(resolvedInduction(), dir);
    EXPECT_EQ(cachedBytes(config), original);
    EXPECT_TRUE(attn::model::Model::load(QFile::encodeName(dir).toStdString(), model).ok());
}

TEST(BuiltinCache, ALinkInAFilesPlaceIsReplacedAndItsTargetUntouched)
{
    FreshCache cache;
    const QString dir = resolvedInduction();
    const QString victim = cache.path() + QStringLiteral("/victim.txt");
    putBytes(victim, "not the model's");
    const QString weights = dir + QStringLiteral("/model.safetensors");
    ASSERT_TRUE(QFile::remove(weights));
    ASSERT_TRUE(QFile::link(victim, weights));
    EXPECT_EQ(resolvedInduction(), dir);
    EXPECT_EQ(cachedBytes(victim), "not the model's");
    EXPECT_FALSE(QFileInfo(weights).isSymLink());
    EXPECT_GT(QFileInfo(weights).size(), 1000);
}

TEST(BuiltinCache, ALinkInTheFoldersPlaceIsReplacedAndTheFolderItNamesUntouched)
{
    FreshCache cache;
    const QString dir = resolvedInduction();
    const QString victim = cache.path() + QStringLiteral("/documents");
    ASSERT_TRUE(QDir().mkpath(victim));
    putBytes(victim + QStringLiteral("/config.json"), "the user's");
    ASSERT_TRUE(QDir(dir).removeRecursively());
    ASSERT_TRUE(QFile::link(victim, dir));
    EXPECT_EQ(resolvedInduction(), dir);
    EXPECT_FALSE(QFileInfo(dir).isSymLink());
    EXPECT_EQ(cachedBytes(victim + QStringLiteral("/config.json")), "the user's");
    EXPECT_EQ(QDir(victim).entryList(QDir::Files).size(), 1);
}

}  // namespace
}  // namespace attnlab
