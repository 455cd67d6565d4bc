// SPDX-License-Identifier: GPL-3.0-or-later
// The model window's "Head kinds" panel: its table is the core's head detectors on the open
// model, a click selects that head, the chosen score colours the model view; and the built-in
// models resolve to folders that open.
#include "ui/model/head_scores_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/head_detect.h"
#include "support/model_folder.h"
#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"
#include "ui/model/seq2seq_document.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {
namespace {

TEST(HeadScoresPanel, ShowsTheCoreScoresOfTheOpenModelAndSelectsAClickedHead)
{
    QTemporaryDir dir;
    ModelDocument doc;
    HeadScoresSource source(&doc);
    HeadScoresPanel panel(&doc, &source);
    EXPECT_EQ(panel.table()->rowCount(), 0);
    QString error;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    ASSERT_TRUE(doc.open(folder, error)) << error.toStdString();
    source.wait();
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc.idle(); }, 20000));

    // The same measure straight from the core: m = 16 (the fixture has 32 positions).
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    attn::model::DetectSpec spec;
    spec.m = 16;
    spec.count = 16;
    spec.candidates = attn::tok::ordinaryTokenIds(*doc.loaded()->tokenizer, model.config().vocab);
    attn::HeadScoreTable want;
    ASSERT_TRUE(attn::model::detectHeads(model, spec, want).ok());
    EXPECT_EQ(source.half(), 16);

    ASSERT_EQ(panel.table()->rowCount(), 2);
    ASSERT_EQ(panel.table()->columnCount(), 4);
    for (int k = 0; k < 4; ++k) {
        panel.kindBox()->setCurrentIndex(k);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                EXPECT_EQ(panel.table()->item(l, h)->text(),
                          QString::number(attn::scoreOf(want[l][h], attn::kHeadKinds[k]), 'f', 2))
                    << "kind " << k << " layer " << l << " head " << h;
    }
    const QRect cell = panel.table()->visualItemRect(panel.table()->item(1, 2));
    panel.show();
    QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(doc.selection().layer, 1);
    EXPECT_EQ(doc.selection().head, 2);

    EXPECT_FALSE(source.tint().has_value());
    panel.kindBox()->setCurrentIndex(2);
    panel.tintBox()->setChecked(true);
    ASSERT_TRUE(source.tint().has_value());
    EXPECT_EQ(*source.tint(), attn::HeadKind::Induction);
    panel.kindBox()->setCurrentIndex(0);
    EXPECT_EQ(*source.tint(), attn::HeadKind::PreviousToken);
    panel.tintBox()->setChecked(false);
    EXPECT_FALSE(source.tint().has_value());
}

TEST(BuiltinModels, AnUnknownNameIsRefusedAndAFolderPassesThrough)
{
    QString error;
    EXPECT_EQ(resolveModelFolder(QStringLiteral("/some/folder"), error),
              QStringLiteral("/some/folder"));
    EXPECT_TRUE(resolveModelFolder(QStringLiteral("builtin:nope"), error).isEmpty());
    EXPECT_TRUE(error.contains(QStringLiteral("\"nope\""))) << error.toStdString();
}

TEST(BuiltinModels, EachCopiesOutAsAFolderThatOpens)
{
    const QList<BuiltinModel> models = builtinModels();
    for (const BuiltinModel& m : models) {
        QString error;
        const QString folder = resolveModelFolder(builtinReference(m.name), error);
        ASSERT_FALSE(folder.isEmpty()) << error.toStdString();
        EXPECT_EQ(builtinNameOf(folder), m.name);
        QFile copied(folder + QStringLiteral("/model.safetensors"));
        QFile original(QStringLiteral(":/models/%1/model.safetensors").arg(m.name));
        ASSERT_TRUE(copied.open(QIODevice::ReadOnly));
        ASSERT_TRUE(original.open(QIODevice::ReadOnly));
        EXPECT_EQ(copied.readAll(), original.readAll());
        // An encoder-decoder opens in the translator's document, the others in the model's.
        if (QFile::exists(folder + QStringLiteral("/source.spm"))) {
            Seq2SeqDocument doc;
            EXPECT_TRUE(doc.open(folder, error)) << error.toStdString();
        } else {
            ModelDocument doc;
            EXPECT_TRUE(doc.open(folder, error)) << error.toStdString();
        }
        // A second resolve reuses the copy.
        EXPECT_EQ(resolveModelFolder(builtinReference(m.name), error), folder);
    }
}

}  // namespace
}  // namespace attnlab
