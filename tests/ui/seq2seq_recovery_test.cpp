// SPDX-License-Identifier: GPL-3.0-or-later
// The translator window's crash recovery: its file's format (round trip, refusals), the window
// autosaving what is open and removing it on a normal close, and the start offering a crashed
// run's window back in a translator window of its own, or saying why not and setting it aside.
// On the tiny Marian checkpoint with its real tokenizer files. Offscreen.
#include "ui/model/seq2seq_recovery.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "io/support/sessions.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/io/autosave.h"
#include "ui/model/seq2seq_window.h"

namespace attnlab {
namespace {

using testing::settled;

using attn::model::AttentionKind;
using attn::model::HeadEdit;
using attn::model::HeadEditKind;
using testing::sameEdits;

QString marian()
{
    return QStringLiteral(ATTNLAB_FIXTURE_DIR "/seq2seq/marian_tokenizer");
}

Seq2SeqRecoveryState sampleState(const QString& folder)
{
    Seq2SeqRecoveryState s;
    s.folder = folder;
    s.source = QStringLiteral("the program is \"free\" software\n");
    s.target = QStringLiteral("该程序");
    s.edits = {HeadEdit{HeadEditKind::AblateZero, 1, 2, 0, 1.0f, AttentionKind::Cross},
               HeadEdit{HeadEditKind::Key, 0, 3, 2, 0.5f, AttentionKind::Encoder},
               HeadEdit{HeadEditKind::Query, 1, 0, 1, 2.0f, AttentionKind::Decoder}};
    s.selection = Seq2SeqSelection{AttentionKind::Cross, 1, 2};
    return s;
}

QString plantOrphan(const QString& dir, const QString& id, const QByteArray& bytes)
{
    QDir().mkpath(dir);
    return testing::writeBytes(dir, QStringLiteral("translator-%1.attnlab-translator.json").arg(id),
                               bytes);
}

struct RecordingDialogs {
    QStringList questions;
    QStringList warnings;
    QMessageBox::StandardButton answer = QMessageBox::Yes;
    RecoveryDialogs dialogs()
    {
        return {[this](const QString&, const QString& text) {
                    questions << text;
                    return answer;
                },
                [this](const QString&, const QString& text) { warnings << text; }};
    }
};

TEST(TranslatorRecoveryFile, KeepsFolderTextsEditsWithTheirAttentionAndSelectionExactly)
{
    const Seq2SeqRecoveryState in = sampleState(QStringLiteral("/models/opus mt"));
    Seq2SeqRecoveryState out;
    QString error;
    ASSERT_TRUE(parseSeq2SeqRecovery(seq2seqRecoveryJson(in), out, error)) << error.toStdString();
    EXPECT_EQ(out.folder, in.folder);
    EXPECT_EQ(out.source, in.source);
    EXPECT_EQ(out.target, in.target);
    EXPECT_TRUE(sameEdits(out.edits, in.edits));
    EXPECT_EQ(out.selection, in.selection);
}

TEST(TranslatorRecoveryFile, RefusesBadContentSayingWhy)
{
    const QByteArray good = seq2seqRecoveryJson(sampleState(QStringLiteral("/m")));
    const auto with = [&](const char* from, const char* to) {
        QByteArray b = good;
        EXPECT_TRUE(b.contains(from)) << from;
        return b.replace(from, to);
    };
    const struct {
        QByteArray bytes;
        const char* says;
    } cases[] = {
        {QByteArray("{\"format\": \"attnlab-translator-recovery\", "), "JSON"},
        {QByteArray(kMaxSeq2SeqRecoveryBytes + 1, ' '), "larger than"},
        {with("attnlab-translator-recovery", "attnlab-model-recovery"), "translator window"},
        {with("\"source\"", "\"sources\""), "\"source\" is missing"},
        {with("\"target\": \"", "\"target\": 3, \"x\": \""), "\"target\" is not a string"},
        {with("\"attention\": \"encoder\"", "\"attention\": \"encoders\""), "\"attention\""},
        {with("\"attention\": \"cross\",\n  \"head\"", "\"head\""), "\"attention\" is missing"},
        {with("\"layer\": 1", "\"layer\": -1"), "\"layer\""},
        {with("0.5", "\"x\""), "\"scale\""},
    };
    for (const auto& c : cases) {
        Seq2SeqRecoveryState out;
        QString error;
        EXPECT_FALSE(parseSeq2SeqRecovery(c.bytes, out, error)) << c.says;
        EXPECT_TRUE(error.contains(QLatin1String(c.says))) << c.says << ": " << error.toStdString();
    }
}

TEST(TranslatorWindowRecovery, AnOpenTranslatorIsAutosavedWithItsTextsEditsAndHeadAndCloseRemovesIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    Seq2SeqWindow w;
    w.autosave()->setDirectory(dir.filePath(QStringLiteral("recovery")));
    w.autosave()->setInterval(50);
    ASSERT_TRUE(w.openFolder(marian()));
    w.setSource(QStringLiteral("the program is free software"));
    ASSERT_TRUE(settled(w.document()));
    ASSERT_TRUE(w.document()->ablateHead(AttentionKind::Cross, 1, 2));
    ASSERT_TRUE(settled(w.document()));
    w.document()->select({AttentionKind::Encoder, 0, 3});
    QSignalSpy written(w.autosave(), &Autosave::written);
    ASSERT_TRUE(written.wait(5000));
    EXPECT_TRUE(QFileInfo(w.autosave()->recoveryPath())
                    .fileName()
                    .startsWith(QStringLiteral("translator-")));

    Seq2SeqRecoveryState saved;
    QString error;
    ASSERT_TRUE(readSeq2SeqRecovery(w.autosave()->recoveryPath(), saved, error))
        << error.toStdString();
    EXPECT_EQ(saved.folder, w.document()->folder());
    EXPECT_EQ(saved.source, QStringLiteral("the program is free software"));
    EXPECT_TRUE(saved.target.isEmpty());  // the model translates
    EXPECT_TRUE(sameEdits(saved.edits, w.document()->edits()));
    ASSERT_EQ(saved.edits.size(), 1u);
    EXPECT_EQ(saved.edits.front().attention, AttentionKind::Cross);
    EXPECT_EQ(saved.selection, (Seq2SeqSelection{AttentionKind::Encoder, 0, 3}));
    // Neither the model window's nor the workbench's offer would take it.
    EXPECT_TRUE(Autosave::findOrphans(w.autosave()->directory(), AutosaveKind::model()).isEmpty());

    w.show();
    w.close();
    EXPECT_FALSE(QFileInfo::exists(w.autosave()->recoveryPath()));
}

TEST(TranslatorWindowRecovery, StartRestoresTheOrphanInATranslatorWindowOfItsOwnAndTakesItOver)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    Seq2SeqRecoveryState lost = sampleState(marian());
    lost.source = QStringLiteral("free software");
    const QString orphan =
        plantOrphan(recovery, QStringLiteral("999999982-1"), seq2seqRecoveryJson(lost));
    ASSERT_FALSE(orphan.isEmpty());

    RecordingDialogs dialogs;
    Seq2SeqWindow* restored = nullptr;
    ASSERT_TRUE(offerSeq2SeqRecovery(recovery, false, dialogs.dialogs(), {}, &restored));
    ASSERT_NE(restored, nullptr);
    const QPointer<Seq2SeqWindow> window(restored);
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.front().contains(QDir::toNativeSeparators(lost.folder)));
    Seq2SeqDocument* doc = window->document();
    ASSERT_TRUE(settled(doc));
    EXPECT_EQ(doc->folder(), QDir::cleanPath(lost.folder));
    EXPECT_EQ(doc->source(), lost.source);
    EXPECT_EQ(window->sourceBox()->text(), lost.source);
    EXPECT_EQ(doc->target(), lost.target);
    EXPECT_EQ(window->targetBox()->text(), lost.target);
    EXPECT_TRUE(sameEdits(doc->edits(), lost.edits));
    EXPECT_EQ(doc->selection(), lost.selection);
    ASSERT_TRUE(doc->snapshot());
    EXPECT_FALSE(doc->snapshot()->translated);  // the typed target is read, not translated
    EXPECT_TRUE(dialogs.warnings.isEmpty())
        << dialogs.warnings.join(QLatin1Char('\n')).toStdString();
    EXPECT_FALSE(QFileInfo::exists(orphan));  // taken over by the window's own file
    EXPECT_TRUE(QFileInfo::exists(window->autosave()->recoveryPath()));
    window->close();  // deleted when closed, its file with it
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.isNull(); }, 5000));
    EXPECT_TRUE(Autosave::findOrphans(recovery, AutosaveKind::translator()).isEmpty());
    EXPECT_TRUE(QDir(recovery).entryList({QStringLiteral("translator-*.json")}).isEmpty());
}

TEST(TranslatorWindowRecovery, DiscardDeletesTheOrphanAndCancelKeepsIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString orphan = plantOrphan(dir.path(), QStringLiteral("999999983-1"),
                                       seq2seqRecoveryJson(sampleState(marian())));
    RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::Cancel;
    EXPECT_FALSE(offerSeq2SeqRecovery(dir.path(), false, dialogs.dialogs()));
    EXPECT_TRUE(QFileInfo::exists(orphan));
    dialogs.answer = QMessageBox::Discard;
    EXPECT_FALSE(offerSeq2SeqRecovery(dir.path(), false, dialogs.dialogs()));
    EXPECT_FALSE(QFileInfo::exists(orphan));
    EXPECT_EQ(dialogs.questions.size(), 2);
}

TEST(TranslatorWindowRecovery, AGoneFolderABadFileOrAHeadOutsideTheModelIsSaidAndSetAside)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    Seq2SeqRecoveryState outsideEdit = sampleState(marian());
    outsideEdit.edits[0].layer = 2;  // the tiny Marian has 2 + 2 layers of 4 heads
    Seq2SeqRecoveryState outsideHead = sampleState(marian());
    outsideHead.selection.head = 4;
    const struct {
        QString id;
        QByteArray bytes;
        const char* says;
    } cases[] = {
        {QStringLiteral("999999984-1"),
         seq2seqRecoveryJson(sampleState(dir.filePath(QStringLiteral("gone")))),
         "cannot be opened any more"},
        {QStringLiteral("999999985-1"), QByteArray("{\"format\": "), "JSON"},
        {QStringLiteral("999999986-1"), seq2seqRecoveryJson(outsideEdit), "layer 3 head 3"},
        {QStringLiteral("999999987-1"), seq2seqRecoveryJson(outsideHead), "head 5"},
    };
    for (const auto& c : cases) {
        const QString recovery = dir.filePath(c.id);
        plantOrphan(recovery, c.id, c.bytes);
        RecordingDialogs dialogs;
        Seq2SeqWindow* restored = nullptr;
        EXPECT_FALSE(offerSeq2SeqRecovery(recovery, true, dialogs.dialogs(), {}, &restored));
        EXPECT_EQ(restored, nullptr);
        ASSERT_EQ(dialogs.warnings.size(), 1) << c.says;
        EXPECT_TRUE(dialogs.warnings.front().contains(QLatin1String(c.says)))
            << dialogs.warnings.front().toStdString();
        const QString aside = QDir(recovery).filePath(
            QStringLiteral("translator-%1.unrestorable.attnlab-translator.json").arg(c.id));
        EXPECT_TRUE(QFileInfo::exists(aside));
        EXPECT_TRUE(dialogs.warnings.front().contains(QDir::toNativeSeparators(aside)));
        EXPECT_TRUE(Autosave::findOrphans(recovery, AutosaveKind::translator()).isEmpty());
    }
}

}  // namespace
}  // namespace attnlab
