// SPDX-License-Identifier: GPL-3.0-or-later
// The model window writes (the built-in Tang model): Generate publishes one snapshot per token,
// so the maps grow a row and a column each; what it wrote is the core's greedy generation of the
// same ids and shows in the text box; Undo takes a whole Generate back as one step, and Step one
// token; a seed draws the same tokens again; Stop ends it; the bars show what the sampling keeps
// and where the draw fell.
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include "support/decoder_folder.h"
#include "ui/model/generate_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {
namespace {

const QString kPrompt = QString::fromUtf8("床前明月光");

bool writingSettled(const ModelDocument* doc)
{
    return QTest::qWaitFor([doc] { return !doc->writing() && doc->idle(); }, 60000);
}

QString tangFolder()
{
    QString error;
    const QString folder = resolveModelFolder(QStringLiteral("builtin:tang"), error);
    EXPECT_FALSE(folder.isEmpty()) << error.toStdString();
    return folder;
}

struct TangWindow {
    ModelWindow window;
    ModelDocument* doc = nullptr;
    explicit TangWindow(const QString& folder = tangFolder())
    {
        window.setDialogs({[](const QString&) { return QString(); },
                           [](const QString&) { return QString(); },
                           [](const QString&, const QString&) {}});
        EXPECT_TRUE(window.openFolder(folder));
        doc = window.document();
        window.setText(kPrompt);
        EXPECT_TRUE(writingSettled(doc));
    }
};

std::vector<int> idsOf(const ModelSnapshot& snap)
{
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap.tokens) ids.push_back(t.id);
    return ids;
}

TEST(ModelGenerate, GenerateGrowsTheMapsTokenByTokenAndWritesTheCoresGreedyText)
{
    TangWindow t;
    const auto before = t.doc->snapshot();
    ASSERT_TRUE(before);
    const long prompt = before->tokenCount();
    std::vector<long> published;
    QObject::connect(t.doc, &ModelDocument::snapshotChanged, [&] {
        published.push_back(t.doc->snapshot() ? t.doc->snapshot()->tokenCount() : 0);
    });
    t.window.generatePanel()->countBox()->setValue(6);
    t.window.generatePanel()->generateAction()->trigger();
    ASSERT_TRUE(writingSettled(t.doc));
    const auto after = t.doc->snapshot();
    ASSERT_EQ(after->tokenCount(), prompt + 6);
    EXPECT_EQ(published, (std::vector<long>{prompt + 1, prompt + 2, prompt + 3, prompt + 4,
                                            prompt + 5, prompt + 6}));
    EXPECT_EQ(after->writtenFrom(), prompt);
    EXPECT_EQ(t.doc->focusedMatrix()->rows(), prompt + 6);
    // The core's greedy generation of the same prompt, run apart.
    attn::model::GenerateOptions o;
    o.maxNewTokens = 6;
    attn::model::Generation g;
    const std::vector<int> promptIds = idsOf(*before);
    ASSERT_TRUE(attn::model::generate(t.doc->loaded()->model, promptIds, o, g).ok());
    EXPECT_EQ(idsOf(*after), g.decoding.ids());
    EXPECT_EQ(t.window.textBox()->text(), after->writtenText);
    EXPECT_TRUE(t.window.textBox()->text().startsWith(kPrompt));
    EXPECT_GT(t.window.textBox()->text().size(), kPrompt.size());
    EXPECT_TRUE(t.window.generatePanel()->caption().contains(QStringLiteral("Greedy")))
        << t.window.generatePanel()->caption().toStdString();

    // One undo step takes the six tokens back; redo writes them again.
    QUndoStack* undo = t.doc->undoStack();
    undo->undo();
    ASSERT_TRUE(writingSettled(t.doc));
    EXPECT_EQ(t.doc->snapshot()->tokenCount(), prompt);
    EXPECT_EQ(t.window.textBox()->text(), kPrompt);
    undo->redo();
    ASSERT_TRUE(writingSettled(t.doc));
    EXPECT_EQ(idsOf(*t.doc->snapshot()), g.decoding.ids());

    // Step writes one, and is its own undo step.
    t.window.generatePanel()->stepAction()->trigger();
    ASSERT_TRUE(writingSettled(t.doc));
    EXPECT_EQ(t.doc->snapshot()->tokenCount(), prompt + 7);
    undo->undo();
    ASSERT_TRUE(writingSettled(t.doc));
    EXPECT_EQ(t.doc->snapshot()->tokenCount(), prompt + 6);
}

TEST(ModelGenerate, ASeedDrawsTheSameTokensAgainAndTheBarsShowTheCuts)
{
    TangWindow t;
    GeneratePanel* panel = t.window.generatePanel();
    panel->temperatureBox()->setValue(1.2);
    panel->topKBox()->setValue(5);
    panel->seedBox()->setValue(4);
    // Before anything is drawn: the preview keeps five tokens and cuts the rest grey.
    const ModelDocument::NextToken preview = t.doc->nextToken();
    EXPECT_FALSE(preview.drawn);
    EXPECT_EQ(preview.draw.kept, 5);
    EXPECT_EQ(panel->plot()->plottableCount(), 3);
    panel->countBox()->setValue(8);
    panel->generateAction()->trigger();
    ASSERT_TRUE(writingSettled(t.doc));
    const std::vector<int> first = idsOf(*t.doc->snapshot());
    EXPECT_TRUE(t.doc->nextToken().drawn);
    EXPECT_GE(t.doc->nextToken().draw.u, 0.0);
    t.doc->undoStack()->undo();
    ASSERT_TRUE(writingSettled(t.doc));
    panel->generateAction()->trigger();
    ASSERT_TRUE(writingSettled(t.doc));
    EXPECT_EQ(idsOf(*t.doc->snapshot()), first);
}

TEST(ModelGenerate, StopEndsAGenerationAndKeepsWhatWasWritten)
{
    TangWindow t;
    const long prompt = t.doc->snapshot()->tokenCount();
    int seen = 0;
    QObject::connect(t.doc, &ModelDocument::snapshotChanged, [&] {
        if (++seen == 2) t.window.generatePanel()->stopAction()->trigger();
    });
    t.doc->generate(40);
    ASSERT_TRUE(writingSettled(t.doc));
    const long written = t.doc->snapshot()->tokenCount() - prompt;
    EXPECT_GE(written, 2);
    EXPECT_LT(written, 40);
    EXPECT_FALSE(t.window.generatePanel()->stopAction()->isEnabled());
    EXPECT_TRUE(t.window.generatePanel()->generateAction()->isEnabled());
}

TEST(ModelGenerate, TheCheckpointsEndOfTextIdEndsItAndItsSettingsAreListed)
{
    QTemporaryDir dir;
    const QString src = tangFolder();
    for (const QString& name : QDir(src).entryList(QDir::Files))
        ASSERT_TRUE(QFile::copy(src + QLatin1Char('/') + name, dir.filePath(name)));
    int stop = -1;
    {
        TangWindow plain(dir.path());
        plain.doc->generate(12);
        ASSERT_TRUE(writingSettled(plain.doc));
        const auto snap = plain.doc->snapshot();
        stop = snap->tokens[static_cast<std::size_t>(snap->writtenFrom() + 3)].id;
    }
    QFile config(dir.filePath(QStringLiteral("generation_config.json")));
    ASSERT_TRUE(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("{\"eos_token_id\": %1, \"num_beams\": 4}").arg(stop).toUtf8());
    config.close();
    TangWindow t(dir.path());
    EXPECT_TRUE(t.window.generatePanel()->settingsText().contains(QStringLiteral("num_beams = 4")))
        << t.window.generatePanel()->settingsText().toStdString();
    t.doc->generate(12);
    ASSERT_TRUE(writingSettled(t.doc));
    const auto snap = t.doc->snapshot();
    EXPECT_LE(snap->tokenCount() - snap->writtenFrom(), 4);
    EXPECT_EQ(snap->tokens.back().id, stop);
    EXPECT_FALSE(t.doc->step());  // it has finished
}

// An edit of a written token's key is an edit like any other: the text is written again
// under it, and the edited key changes that head's map from the written position on, as a
// whole run of the same tokens with the edit has it.
TEST(ModelGenerate, AnEditAtAWrittenPositionWritesTheTextAgainUnderIt)
{
    TangWindow t;
    const long prompt = t.doc->snapshot()->tokenCount();
    t.doc->generate(5);
    ASSERT_TRUE(writingSettled(t.doc));
    const auto written = t.doc->snapshot();
    ASSERT_EQ(written->tokenCount(), prompt + 5);
    const long at = prompt + 1;  // the second written token
    ASSERT_TRUE(t.doc->scaleVector(attn::model::HeadEditKind::Key, 0, 0, at, 8.0f));
    ASSERT_TRUE(writingSettled(t.doc));
    const auto edited = t.doc->snapshot();
    ASSERT_TRUE(edited->generation);
    EXPECT_EQ(edited->edits.size(), 1u);
    EXPECT_EQ(edited->tokenCount(), prompt + 5);
    // Rows before the edited key are the unedited run's; rows that see it moved.
    const attn::model::FloatMatrix& before = written->result.layers[0].attention[0];
    const attn::model::FloatMatrix& after = edited->result.layers[0].attention[0];
    EXPECT_LT((after.topRows(at) - before.topRows(at)).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_GT(std::abs(after(at, at) - before(at, at)), 1e-3);
}

TEST(ModelGenerate, ADecoderWritesPastThePoolingLengthKeepingItsMapsAtScreenResolution)
{
    qputenv("ATTNLAB_POOL_ABOVE", "12");
    QTemporaryDir dir;
    const QString folder = test::qwen3Folder(dir);
    ModelWindow window;
    window.setDialogs({[](const QString&) { return QString(); },
                       [](const QString&) { return QString(); },
                       [](const QString&, const QString&) {}});
    ASSERT_TRUE(window.openFolder(folder));
    ModelDocument* doc = window.document();
    window.setText(QStringLiteral("one two three"));
    ASSERT_TRUE(writingSettled(doc));
    const long prompt = doc->snapshot()->tokenCount();
    ASSERT_LT(prompt, 12);
    doc->generate(14);
    ASSERT_TRUE(writingSettled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap->generation);
    EXPECT_EQ(snap->tokenCount(), prompt + static_cast<long>(snap->generation->steps.size()));
    ASSERT_GT(snap->tokenCount(), 12);
    // Past the bound every head's map is pooled, as a long run keeps it, and never whole.
    for (const attn::model::LayerTrace& t : snap->result.layers) EXPECT_TRUE(t.isPooled());
    EXPECT_TRUE(snap->generation->decoding.pooled());
    if (!snap->generation->endedAtEos) {
        EXPECT_TRUE(doc->step());
    }
    qunsetenv("ATTNLAB_POOL_ABOVE");
}

}  // namespace
}  // namespace attnlab
