// SPDX-License-Identifier: GPL-3.0-or-later
// The model window's crash recovery: the recovery file's format (round trip, refusals), the
// model kind of Autosave, the window autosaving what is open, and the start offering it back.
#include "ui/model/model_recovery.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "support/model_folder.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/io/autosave.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"

namespace attnlab {
namespace {

using testing::sameEdits;
using testing::settled;

using attn::model::HeadEdit;
using attn::model::HeadEditKind;

ModelRecoveryState sampleState(const QString& folder)
{
    ModelRecoveryState s;
    s.folder = folder;
    s.text = QStringLiteral("the cat sat \"on\" 那只动物\n");
    s.edits = {HeadEdit{HeadEditKind::AblateZero, 1, 2, 0, 1.0f},
               HeadEdit{HeadEditKind::Key, 0, 3, 2, 0.37f},
               HeadEdit{HeadEditKind::AblateMean, 0, 1, 0, 1.0f}};
    s.selection = ModelSelection{1, 2, ModelFocus::Head, 3};
    return s;
}

// A model window's recovery file as a killed process leaves it: no live lock.
QString plantModelOrphan(const QString& dir, const QString& id, const ModelRecoveryState& s)
{
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(QStringLiteral("model-%1.attnlab-model.json").arg(id));
    QString error;
    return writeModelRecovery(path, s, error) ? path : QString();
}

TEST(ModelRecoveryFile, KeepsFolderTextEditsAndSelectionExactly)
{
    const ModelRecoveryState in = sampleState(QStringLiteral("/models/gpt2 small"));
    ModelRecoveryState out;
    QString error;
    ASSERT_TRUE(parseModelRecovery(modelRecoveryJson(in), out, error)) << error.toStdString();
    EXPECT_EQ(out.folder, in.folder);
    EXPECT_EQ(out.text, in.text);
    EXPECT_TRUE(sameEdits(out.edits, in.edits));
    EXPECT_EQ(out.selection, in.selection);
}

TEST(ModelRecoveryFile, RefusesBadContentSayingWhy)
{
    ModelRecoveryState state = sampleState(QStringLiteral("/m"));
    state.edits[1].scale = 0.5f;  // written as 0.5 exactly
    const QByteArray good = modelRecoveryJson(state);
    const auto with = [&](const char* from, const char* to) {
        QByteArray b = good;
        EXPECT_TRUE(b.contains(from)) << from;
        return b.replace(from, to);
    };
    const struct {
        QByteArray bytes;
        const char* says;
    } cases[] = {
        {QByteArray("{\"format\": \"attnlab-model-recovery\", "), "JSON"},
        {QByteArray("[1, 2]"), "JSON object"},
        {QByteArray(kMaxModelRecoveryBytes + 1, ' '), "larger than"},
        {with("attnlab-model-recovery", "attnlab-session"), "recovery file"},
        {with("\"version\": 1", "\"version\": 2"), "version"},
        {with("\"folder\"", "\"folders\""), "\"folder\" is missing"},
        {with("\"layer\": 1", "\"layer\": -1"), "\"layer\""},
        {with("\"head\": 2", "\"head\": 99999999"), "\"head\""},
        {with("\"head\": 2", "\"head\": 2.5"), "\"head\""},
        {with("\"ablate-mean\"", "\"ablate-most\""), "\"kind\""},
        {with("0.5", "1e99"), "\"scale\""},
        {with("0.5", "\"x\""), "\"scale\""},
        {with("\"query\": 3", "\"query\": -2"), "\"query\""},
        {with("\"focus\": \"head\"", "\"focus\": 1"), "\"focus\""},
    };
    for (const auto& c : cases) {
        ModelRecoveryState out;
        QString error;
        EXPECT_FALSE(parseModelRecovery(c.bytes, out, error)) << c.says;
        EXPECT_TRUE(error.contains(QLatin1String(c.says))) << c.says << ": " << error.toStdString();
    }
}

TEST(Autosave, TheModelKindKeepsItsOwnNumberedFilesBesideTheWorkbenchs)
{
    QTemporaryDir dir;
    bool work = false;
    const auto make = [&] {
        auto a = std::make_unique<Autosave>(
            AutosaveKind::model(), [&work] { return work; },
            [](const QString& path, QString& error) {
                return writeModelRecovery(path, ModelRecoveryState{}, error);
            });
        a->setDirectory(dir.path());
        a->setInterval(20);
        return a;
    };
    auto first = make();
    auto second = make();
    const QString pid = QString::number(QCoreApplication::applicationPid());
    EXPECT_TRUE(QFileInfo(first->recoveryPath())
                    .fileName()
                    .startsWith(QStringLiteral("model-") + pid + QLatin1Char('-')));
    EXPECT_TRUE(first->recoveryPath().endsWith(QStringLiteral(".attnlab-model.json")));
    EXPECT_NE(first->recoveryPath(), second->recoveryPath());

    EXPECT_FALSE(first->writeNow());  // nothing to keep
    work = true;
    QSignalSpy written(first.get(), &Autosave::written);
    first->changed();
    ASSERT_TRUE(written.wait(5000));
    ASSERT_TRUE(QFileInfo::exists(first->recoveryPath()));
    const QString lock = first->recoveryPath().chopped(19) + QStringLiteral(".lock");
    EXPECT_TRUE(QFileInfo::exists(lock)) << lock.toStdString();
    // Held by this live process: neither kind offers it.
    EXPECT_TRUE(Autosave::findOrphans(dir.path(), AutosaveKind::model()).isEmpty());
    EXPECT_TRUE(Autosave::findOrphans(dir.path()).isEmpty());
    work = false;
    first->changed();
    EXPECT_FALSE(QFileInfo::exists(first->recoveryPath()));

    // A killed process's file is an orphan of the model kind only, and is set aside by its
    // kind's name.
    const QString orphan =
        plantModelOrphan(dir.path(), QStringLiteral("999999991-1"), ModelRecoveryState{});
    ASSERT_FALSE(orphan.isEmpty());
    EXPECT_TRUE(Autosave::findOrphans(dir.path()).isEmpty());
    const QList<Autosave::Orphan> orphans =
        Autosave::findOrphans(dir.path(), AutosaveKind::model());
    ASSERT_EQ(orphans.size(), 1);
    EXPECT_EQ(orphans.front().sessionPath, orphan);
    EXPECT_EQ(Autosave::setAside(orphans.front()),
              QDir(dir.path())
                  .filePath(QStringLiteral("model-999999991-1.unrestorable.attnlab-model.json")));
    EXPECT_TRUE(Autosave::findOrphans(dir.path(), AutosaveKind::model()).isEmpty());
}

struct RecordingModelDialogs {
    QStringList questions;
    QStringList warnings;
    QMessageBox::StandardButton answer = QMessageBox::Yes;
    ModelRecoveryDialogs dialogs()
    {
        return {[this](const QString&, const QString& text) {
                    questions << text;
                    return answer;
                },
                [this](const QString&, const QString& text) { warnings << text; }};
    }
};

TEST(ModelWindowRecovery, AnOpenModelIsAutosavedWithItsTextEditsAndHeadAndCloseRemovesIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    ModelWindow w;
    w.autosave()->setDirectory(dir.filePath(QStringLiteral("recovery")));
    w.autosave()->setInterval(50);
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    ASSERT_TRUE(w.openFolder(folder));
    w.setText(QStringLiteral("the cat sat"));
    ASSERT_TRUE(settled(w.document()));
    ASSERT_TRUE(w.document()->ablateHead(1, 2, false));
    ASSERT_TRUE(settled(w.document()));
    w.document()->selectHead(1, 3);
    w.document()->selectQuery(2);
    QSignalSpy written(w.autosave(), &Autosave::written);
    ASSERT_TRUE(written.wait(5000));

    ModelRecoveryState saved;
    QString error;
    ASSERT_TRUE(readModelRecovery(w.autosave()->recoveryPath(), saved, error))
        << error.toStdString();
    EXPECT_EQ(saved.folder, w.document()->folder());
    EXPECT_EQ(saved.text, QStringLiteral("the cat sat"));
    EXPECT_TRUE(sameEdits(saved.edits, w.document()->edits()));
    ASSERT_EQ(saved.edits.size(), 1u);
    EXPECT_EQ(saved.selection, (ModelSelection{1, 3, ModelFocus::Head, 2}));

    w.show();
    w.close();
    EXPECT_FALSE(QFileInfo::exists(w.autosave()->recoveryPath()));
}

TEST(ModelWindowRecovery, StartRestoresTheOrphanInTheModelWindowAndTakesItOver)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    ModelRecoveryState lost = sampleState(test::modelFolder(dir, "gpt2_tiny", true));
    lost.text = QStringLiteral("the cat sat on");
    lost.edits = {HeadEdit{HeadEditKind::AblateZero, 1, 2, 0, 1.0f},
                  HeadEdit{HeadEditKind::Key, 0, 3, 2, 0.5f}};
    const QString orphan = plantModelOrphan(recovery, QStringLiteral("999999992-1"), lost);
    ASSERT_FALSE(orphan.isEmpty());

    ModelWindow w;
    w.autosave()->setDirectory(recovery);
    RecordingModelDialogs dialogs;
    ASSERT_TRUE(offerModelRecovery(&w, false, dialogs.dialogs()));
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.front().contains(QDir::toNativeSeparators(lost.folder)));
    ASSERT_TRUE(settled(w.document()));
    EXPECT_EQ(w.document()->folder(), QDir::cleanPath(lost.folder));
    EXPECT_EQ(w.document()->text(), lost.text);
    EXPECT_EQ(w.textBox()->text(), lost.text);
    EXPECT_TRUE(sameEdits(w.document()->edits(), lost.edits));
    EXPECT_EQ(w.document()->selection(), lost.selection);
    EXPECT_TRUE(dialogs.warnings.isEmpty())
        << dialogs.warnings.join(QLatin1Char('\n')).toStdString();
    EXPECT_FALSE(QFileInfo::exists(orphan));  // taken over by this window's own file
    EXPECT_TRUE(QFileInfo::exists(w.autosave()->recoveryPath()));
}

TEST(ModelWindowRecovery, DiscardDeletesTheOrphanAndCancelKeepsIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString orphan = plantModelOrphan(dir.path(), QStringLiteral("999999993-1"),
                                            sampleState(dir.filePath(QStringLiteral("m"))));
    ModelWindow w;
    w.autosave()->setDirectory(dir.path());
    RecordingModelDialogs dialogs;
    dialogs.answer = QMessageBox::Cancel;
    EXPECT_FALSE(offerModelRecovery(&w, false, dialogs.dialogs()));
    EXPECT_TRUE(QFileInfo::exists(orphan));
    dialogs.answer = QMessageBox::Discard;
    EXPECT_FALSE(offerModelRecovery(&w, false, dialogs.dialogs()));
    EXPECT_FALSE(QFileInfo::exists(orphan));
    EXPECT_FALSE(w.document()->hasModel());
}

TEST(ModelWindowRecovery, AGoneFolderABadFileOrAHeadOutsideTheModelIsSaidAndSetAside)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    ModelRecoveryState outside = sampleState(folder);
    outside.selection.head = 4;  // the tiny model has 4 heads
    const struct {
        QString id;
        QByteArray bytes;
        const char* says;
    } cases[] = {
        {QStringLiteral("999999994-1"),
         modelRecoveryJson(sampleState(dir.filePath(QStringLiteral("gone")))),
         "cannot be opened any more"},
        {QStringLiteral("999999995-1"), QByteArray("{\"format\": "), "JSON"},
        {QStringLiteral("999999996-1"), modelRecoveryJson(outside), "head 5"},
    };
    for (const auto& c : cases) {
        const QString recovery = dir.filePath(c.id);
        ASSERT_TRUE(QDir().mkpath(recovery));
        testing::writeBytes(recovery, QStringLiteral("model-%1.attnlab-model.json").arg(c.id),
                            c.bytes);
        ModelWindow w;
        w.autosave()->setDirectory(recovery);
        RecordingModelDialogs dialogs;
        EXPECT_FALSE(offerModelRecovery(&w, true, dialogs.dialogs()));
        ASSERT_EQ(dialogs.warnings.size(), 1) << c.says;
        EXPECT_TRUE(dialogs.warnings.front().contains(QLatin1String(c.says)))
            << dialogs.warnings.front().toStdString();
        const QString aside = QDir(recovery).filePath(
            QStringLiteral("model-%1.unrestorable.attnlab-model.json").arg(c.id));
        EXPECT_TRUE(QFileInfo::exists(aside));
        EXPECT_TRUE(dialogs.warnings.front().contains(QDir::toNativeSeparators(aside)));
        EXPECT_TRUE(Autosave::findOrphans(recovery, AutosaveKind::model()).isEmpty());
        EXPECT_FALSE(w.document()->hasModel());  // the window stays as it was
    }
}

}  // namespace
}  // namespace attnlab
