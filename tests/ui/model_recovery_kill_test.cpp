// SPDX-License-Identifier: GPL-3.0-or-later
// The real program, killed with SIGKILL while its model window holds a model: what it autosaved
// stays behind as an orphan, and the next start restores it in the model window.
#include <functional>
#include <gtest/gtest.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include "support/kill_test_support.h"
#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/io/autosave.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_window.h"

namespace attnlab {
namespace {

using testing::sameEdits;

using attn::model::HeadEdit;
using attn::model::HeadEditKind;

class KilledModelWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(testing::attnlabBuilt());
        folder_ = QDir::cleanPath(test::modelFolder(dir_, "gpt2_tiny", true));
        recovery_ = dir_.filePath(QStringLiteral("recovery"));
        env_ = QProcessEnvironment::systemEnvironment();
        env_.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env_.insert(QStringLiteral("ATTNLAB_RECOVERY_DIR"), recovery_);
        env_.insert(QStringLiteral("ATTNLAB_AUTOSAVE_MS"), QStringLiteral("100"));
        env_.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
        env_.insert(QStringLiteral("XDG_DATA_HOME"), dir_.filePath(QStringLiteral("data")));
    }

    bool start(QProcess& p, const QStringList& args)
    {
        p.setProcessEnvironment(env_);
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(binary_, args);
        return p.waitForStarted(10000);
    }

    // The model window's recovery file of process `p` once it holds a state that `wanted`
    // accepts ("" when none did within 30 s).
    QString waitForState(const QProcess& p, ModelRecoveryState& state,
                         const std::function<bool(const ModelRecoveryState&)>& wanted)
    {
        const QString pattern = QStringLiteral("model-%1-*.attnlab-model.json").arg(p.processId());
        QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired()) {
            const QStringList files = QDir(recovery_).entryList({pattern}, QDir::Files);
            QString error;
            if (files.size() == 1) {
                const QString path = QDir(recovery_).filePath(files.front());
                if (readModelRecovery(path, state, error) && wanted(state)) return path;
            }
            QThread::msleep(50);
        }
        return {};
    }

    QString binary_ = testing::attnlabBinary();
    QTemporaryDir dir_;
    QString folder_;
    QString recovery_;
    QProcessEnvironment env_;
};

// Opened from the command line, the model window autosaves its folder and text without any
// save; SIGKILL leaves that file, and it is an orphan of the model kind.
TEST_F(KilledModelWindow, AnOpenModelIsOnDiskWhenTheProgramIsKilled)
{
    QProcess p;
    ASSERT_TRUE(start(p, {folder_}));
    ModelRecoveryState state;
    const QString file =
        waitForState(p, state, [](const ModelRecoveryState& s) { return !s.text.isEmpty(); });
    p.kill();  // SIGKILL: no destructor, no clean-up
    ASSERT_TRUE(p.waitForFinished(10000));
    ASSERT_FALSE(file.isEmpty()) << "the running program never autosaved its model window";
    EXPECT_EQ(state.folder, folder_);
    EXPECT_EQ(state.text, ModelWindow::exampleTexts().at(0));
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(recovery_, AutosaveKind::model());
    ASSERT_EQ(orphans.size(), 1);
    EXPECT_EQ(orphans.front().sessionPath, file);
    EXPECT_TRUE(Autosave::findOrphans(recovery_).isEmpty());  // no workbench work was lost
}

// How edits get in without a person: the test plants the file of an earlier crash with a text,
// two edits and a query, and starts attnlab --recover (restore without asking). The restored
// window autosaves under its own name; the test kills it with SIGKILL, checks the file, and
// starts attnlab --recover again, which must restore and take it over.
TEST_F(KilledModelWindow, TheNextStartRestoresFolderTextEditsAndHead)
{
    ModelRecoveryState lost;
    lost.folder = folder_;
    lost.text = QStringLiteral("the cat sat on");
    lost.edits = {HeadEdit{HeadEditKind::AblateZero, 1, 2, 0, 1.0f},
                  HeadEdit{HeadEditKind::Value, 0, 3, 1, 0.25f}};
    lost.selection = ModelSelection{1, 2, ModelFocus::Head, 1};
    QDir().mkpath(recovery_);
    const QString planted =
        QDir(recovery_).filePath(QStringLiteral("model-999999998-1.attnlab-model.json"));
    QString error;
    ASSERT_TRUE(writeModelRecovery(planted, lost, error)) << error.toStdString();
    const auto isLost = [&](const ModelRecoveryState& s) {
        return s.folder == lost.folder && s.text == lost.text && sameEdits(s.edits, lost.edits) &&
               s.selection == lost.selection;
    };

    QProcess first;
    ASSERT_TRUE(start(first, {QStringLiteral("--recover")}));
    ModelRecoveryState state;
    const QString firstFile = waitForState(first, state, isLost);
    const bool plantedGone = !QFileInfo::exists(planted);
    first.kill();
    ASSERT_TRUE(first.waitForFinished(10000));
    ASSERT_FALSE(firstFile.isEmpty()) << "the restored model window was not autosaved as it was";
    EXPECT_TRUE(plantedGone) << "the restored orphan was kept";
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(recovery_, AutosaveKind::model());
    ASSERT_EQ(orphans.size(), 1);
    EXPECT_EQ(orphans.front().sessionPath, firstFile);

    QProcess second;
    ASSERT_TRUE(start(second, {QStringLiteral("--recover")}));
    const QString secondFile = waitForState(second, state, isLost);
    QDeadlineTimer deadline(30000);
    while (QFileInfo::exists(firstFile) && !deadline.hasExpired()) QThread::msleep(50);
    const bool tookOver = !QFileInfo::exists(firstFile);
    second.kill();
    second.waitForFinished(10000);
    ASSERT_FALSE(secondFile.isEmpty()) << "the next start did not restore the model window";
    EXPECT_TRUE(tookOver) << "the first program's file was kept";
}

}  // namespace
}  // namespace attnlab
