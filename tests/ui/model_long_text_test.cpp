// SPDX-License-Identifier: GPL-3.0-or-later
// A long text in the model window: from ATTNLAB_POOL_ABOVE tokens on (1,024 by default; 8 here,
// so that the tiny Qwen3 pools) every head's map is kept pooled to screen resolution, the
// enlarged head's whole map is made on demand from the kept queries and keys and equals the
// core's whole run, the rollout says why it is missing, the head view says why it draws no
// lines, and attention sinks are found one after another.
#include <gtest/gtest.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/forward.h"
#include "support/decoder_folder.h"
#include "ui/model/model_document.h"
#include "ui/model/model_focus_panel.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_window.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

// Sets ATTNLAB_POOL_ABOVE for one test.
class PoolAbove {
public:
    explicit PoolAbove(const char* value) { qputenv("ATTNLAB_POOL_ABOVE", value); }
    ~PoolAbove() { qunsetenv("ATTNLAB_POOL_ABOVE"); }
    PoolAbove(const PoolAbove&) = delete;
    PoolAbove& operator=(const PoolAbove&) = delete;
};

struct LongWindow {
    QTemporaryDir dir;
    QString folder;
    std::unique_ptr<ModelWindow> window;
    QStringList warnings;
    [[nodiscard]] ModelDocument* doc() const { return window->document(); }
};

void openLong(LongWindow& w, const QString& text)
{
    w.folder = test::qwen3Folder(w.dir);
    w.window = std::make_unique<ModelWindow>();
    ModelWindowDialogs d;
    d.openFolder = [](const QString&) { return QString(); };
    d.savePath = [](const QString&) { return QString(); };
    d.warn = [&w](const QString& title, const QString& t) {
        w.warnings << title + QStringLiteral(": ") + t;
    };
    w.window->setDialogs(d);
    w.window->resize(1366, 768);
    w.window->show();
    ASSERT_TRUE(w.window->openFolder(w.folder)) << w.warnings.join(QLatin1Char('\n')).toStdString();
    w.window->setText(text);
    ASSERT_TRUE(QTest::qWaitFor([&w] { return w.doc()->idle(); }, 20000));
    ASSERT_TRUE(w.doc()->snapshot());
}

const QString kText =
    QStringLiteral("The animal didn't cross the street because it was too tired.");

TEST(ModelLongText, MapsArePooledAndTheEnlargedHeadIsTheCoresWholeMap)
{
    const PoolAbove pool("8");
    LongWindow w;
    ASSERT_NO_FATAL_FAILURE(openLong(w, kText));
    const auto snap = w.doc()->snapshot();
    ASSERT_GT(snap->tokenCount(), 8);
    ASSERT_TRUE(snap->pooled());
    EXPECT_EQ(snap->heads(), 4);
    EXPECT_TRUE(snap->rollout.empty());
    const auto thumbnails = w.doc()->thumbnails();
    ASSERT_TRUE(thumbnails);
    EXPECT_EQ(thumbnails->size(), static_cast<std::size_t>(2 * (4 + 2)));
    EXPECT_TRUE((*thumbnails)[4].isNull() == false) << "the layer mean is drawn";
    EXPECT_TRUE((*thumbnails)[5].isNull()) << "no rollout";

    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(w.folder.toStdString(), model).ok());
    attn::model::ForwardResult whole;
    ASSERT_TRUE(attn::model::forward(model, snap->result.ids, {}, whole).ok());
    w.doc()->selectHead(1, 3);
    const auto map = w.doc()->focusedMatrix();
    ASSERT_TRUE(map);
    EXPECT_LT((*map - whole.layers[1].attention[3]).cwiseAbs().maxCoeff(), 1e-6f);
    EXPECT_EQ(w.doc()->focusedMatrix(), map) << "kept until the selection changes";
    w.doc()->selectAggregate(0, ModelFocus::LayerAverage);
    const auto mean = w.doc()->focusedMatrix();
    ASSERT_TRUE(mean);
    attn::model::FloatMatrix want = whole.layers[0].attention[0];
    for (std::size_t h = 1; h < 4; ++h) want += whole.layers[0].attention[h];
    want /= 4.0f;
    EXPECT_LT((*mean - want).cwiseAbs().maxCoeff(), 1e-6f);

    // The enlarged map reads the floats in place and shows every token.
    ModelFocusPanel* focus = w.window->focusPanel();
    ASSERT_NE(focus, nullptr);
    EXPECT_EQ(focus->map()->content().rows(), snap->tokenCount());
    // Hovering a cell gives its weight and the score behind it, recomputed.
    w.doc()->selectHead(0, 1);
    Q_EMIT focus->map()->cellHovered(6, 2);
    EXPECT_TRUE(focus->hoverLabel()->text().contains(QStringLiteral("score")))
        << focus->hoverLabel()->text().toStdString();

    // Rollout is not computed for a pooled run, and the window says why.
    w.doc()->selectAggregate(0, ModelFocus::Rollout);
    EXPECT_FALSE(w.doc()->focusedMatrix());
    EXPECT_TRUE(w.doc()->focusAbsence().contains(QStringLiteral("9 tokens")))
        << w.doc()->focusAbsence().toStdString();
    QString error;
    EXPECT_FALSE(
        w.window->exportTo(ModelExport::HeadView, w.dir.filePath(QStringLiteral("h.png")), error));
    EXPECT_TRUE(error.contains(QStringLiteral("too many"))) << error.toStdString();
    w.doc()->selectHead(1, 0);
    EXPECT_TRUE(
        w.window->exportTo(ModelExport::Focus, w.dir.filePath(QStringLiteral("f.png")), error))
        << error.toStdString();
    EXPECT_TRUE(
        w.window->exportTo(ModelExport::Grid, w.dir.filePath(QStringLiteral("g.png")), error))
        << error.toStdString();
}

TEST(ModelLongText, AttentionSinksAreFoundOneAfterAnother)
{
    LongWindow w;
    ASSERT_NO_FATAL_FAILURE(openLong(w, kText));
    const auto snap = w.doc()->snapshot();
    // The share each head puts on the first token is the mean of its map's first column.
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 4; ++h) {
            const auto& m = snap->result.layers[l].attention[h];
            const long n = m.rows();
            EXPECT_NEAR(snap->result.layers[l].firstShare[h],
                        m.col(0).tail(n - 1).cast<double>().sum() / (n - 1), 1e-6);
        }
    QSignalSpy said(w.doc(), &ModelDocument::noticed);
    ASSERT_TRUE(w.doc()->selectNextSink());
    ASSERT_EQ(said.size(), 1);
    const QString first = said.front().front().toString();
    EXPECT_TRUE(first.contains(QStringLiteral("first token"))) << first.toStdString();
    // The strongest head is enlarged first.
    float best = -1.0f;
    int bestLayer = -1, bestHead = -1;
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 4; ++h)
            if (snap->result.layers[static_cast<std::size_t>(l)]
                    .firstShare[static_cast<std::size_t>(h)] > best) {
                best = snap->result.layers[static_cast<std::size_t>(l)]
                           .firstShare[static_cast<std::size_t>(h)];
                bestLayer = l;
                bestHead = h;
            }
    EXPECT_EQ(w.doc()->selection().layer, bestLayer);
    EXPECT_EQ(w.doc()->selection().head, bestHead);
    EXPECT_EQ(w.doc()->selection().focus, ModelFocus::Head);
}

}  // namespace
}  // namespace attnlab
