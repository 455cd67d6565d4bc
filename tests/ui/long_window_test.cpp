// SPDX-License-Identifier: GPL-3.0-or-later
// The long-session document and window: what the worker computes is the full path's map
// (within float's tolerance), edits are undo steps that recompute in the background, Cancel
// leaves the session as it was, when two maps do not fit the memory the old weights' memory
// is reused, and the window shows, hovers, inspects and exports the float map in place.
#include "ui/long/long_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/attention.h"
#include "core/random_init.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/long/long_document.h"
#include "ui/long/long_panel.h"
#include "ui/readers/session_file.h"
#include "ui/views/color_scales.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

constexpr double kFloatTolerance = 2e-5;

Session longSession(long n, attn::Mode mode, long heads = 1, long dK = 8)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = 8;
    spec.dK = dK;
    spec.dV = 4;
    spec.heads = heads;
    spec.mode = mode;
    spec.seed = 7;
    Session s;
    s.input = attn::randomInput(spec);
    s.dModel = 8;
    for (long i = 0; i < n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    return s;
}

bool idle(const LongDocument* doc)
{
    return QTest::qWaitFor([doc] { return !doc->computing(); }, 120000);
}

double maxDiff(const attn::MatrixT<float>& got, const attn::Matrix& want)
{
    return (got.cast<double>() - want).cwiseAbs().maxCoeff();
}

attn::AttentionResult fullPath(const Session& s)
{
    attn::AttentionResult r;
    EXPECT_TRUE(attn::computeAttention<double>(s.input, r).ok());
    return r;
}

TEST(LongDocument, ComputesOnAWorkerWhatTheFullPathComputesWithin2e5)
{
    LongDocument doc;
    QSignalSpy progress(&doc, &LongDocument::progressed);
    const Session s = longSession(300, attn::Mode::Causal, 2);
    ASSERT_TRUE(doc.open(s));
    EXPECT_TRUE(doc.computing());
    EXPECT_EQ(doc.result(), nullptr);  // nothing is shown before it is computed
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    const attn::AttentionResult want = fullPath(s);
    for (std::size_t h = 0; h < 2; ++h)
        EXPECT_LE(maxDiff(doc.result()->heads[h].weights, want.heads[h].weights), kFloatTolerance);
    EXPECT_FALSE(progress.isEmpty());
    EXPECT_EQ(doc.undoStack()->count(), 0);  // opening is not an undo step
}

TEST(LongDocument, AScaledKeyIsOneUndoStepAndUndoRestoresTheMapBitForBit)
{
    LongDocument doc;
    const Session s = longSession(300, attn::Mode::Self);
    ASSERT_TRUE(doc.open(s));
    ASSERT_TRUE(idle(&doc));
    const attn::MatrixT<float> before = doc.result()->heads[0].weights;
    ASSERT_TRUE(doc.scaleKey(0, 40, 2.0));
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.undoStack()->count(), 1);
    Session edited = s;
    edited.input.edits.push_back(attn::VectorEdit{attn::Role::Key, 0, 40, 2.0, {}});
    EXPECT_LE(maxDiff(doc.result()->heads[0].weights, fullPath(edited).heads[0].weights),
              kFloatTolerance);
    EXPECT_GT((doc.result()->heads[0].weights - before).cwiseAbs().maxCoeff(), 1e-3);
    doc.undoStack()->undo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_TRUE(doc.result()->heads[0].weights == before);
    EXPECT_TRUE(doc.session().input.edits.empty());
    doc.undoStack()->redo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.session().input.edits.size(), 1U);
}

TEST(LongDocument, ABadKeyIsRefusedByNameAndNothingChanges)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(longSession(200, attn::Mode::Self)));
    ASSERT_TRUE(idle(&doc));
    const auto shown = doc.result();
    EXPECT_FALSE(doc.scaleKey(0, 200, 2.0));
    EXPECT_FALSE(doc.lastError().isEmpty());
    EXPECT_FALSE(doc.computing());
    EXPECT_EQ(doc.result(), shown);
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(LongDocument, CancelKeepsTheSessionAndTheMapShownWhenBothMapsFit)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(longSession(4000, attn::Mode::Self, 1, 64)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.keepsMapWhileComputing());
    const auto shown = doc.result();
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    EXPECT_EQ(doc.result(), shown);  // the old map stays while the new one computes
    doc.cancel();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.result(), shown);
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Self);
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(LongDocument, WhenTwoMapsDoNotFitTheOldWeightsMemoryIsReusedAndCancelLeavesNoMap)
{
    const Session s = longSession(4000, attn::Mode::Self, 1, 64);
    attn::Limits limits;
    limits.maxBytes = attn::estimateLongBytes(s.input) * 3 / 2;
    LongDocument doc(limits);
    QSignalSpy releasing(&doc, &LongDocument::releasing);
    ASSERT_TRUE(doc.open(s));
    ASSERT_TRUE(idle(&doc));
    ASSERT_FALSE(doc.keepsMapWhileComputing());
    const float* memory = doc.result()->heads[0].weights.data();
    const attn::MatrixT<float> original = doc.result()->heads[0].weights;
    releasing.clear();

    ASSERT_TRUE(doc.scaleKey(0, 7, 3.0));
    EXPECT_EQ(releasing.count(), 1);
    EXPECT_EQ(doc.result(), nullptr);
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    EXPECT_EQ(doc.result()->heads[0].weights.data(), memory);  // no fresh 64 MB
    Session edited = s;
    edited.input.edits.push_back(attn::VectorEdit{attn::Role::Key, 0, 7, 3.0, {}});
    EXPECT_LE(maxDiff(doc.result()->heads[0].weights, fullPath(edited).heads[0].weights),
              kFloatTolerance);

    // Cancelled: the session is the edited one still, the map is gone until computed again.
    ASSERT_TRUE(doc.setScaling(attn::Scaling::None));
    doc.cancel();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.result(), nullptr);
    EXPECT_EQ(doc.session().input.scaling, attn::Scaling::SqrtDk);
    EXPECT_EQ(doc.undoStack()->count(), 1);
    ASSERT_TRUE(doc.recompute());
    ASSERT_TRUE(idle(&doc));
    ASSERT_NE(doc.result(), nullptr);
    doc.undoStack()->undo();
    ASSERT_TRUE(idle(&doc));
    EXPECT_TRUE(doc.result()->heads[0].weights == original);
}

// The centre of cell (row, column) in the map's widget coordinates.
QPoint cellCentre(const HeatmapView* map, int row, int column)
{
    return QPoint(static_cast<int>(map->xAxis->coordToPixel(column)),
                  static_cast<int>(map->yAxis->coordToPixel(row)));
}

TEST(LongWindow, HoverShowsTheCellsWeightAndItsScoresRecomputedFromQAndK)
{
    LongWindow w;
    const Session s = longSession(600, attn::Mode::Self);
    ASSERT_TRUE(w.open(s, QString()));
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(idle(w.document()));
    ASSERT_TRUE(w.showsMap());
    EXPECT_NE(w.map()->content().floats, nullptr);  // read in place, no double copy
    EXPECT_TRUE(w.panel()->keptText().contains(QStringLiteral("only the weights P are kept")))
        << w.panel()->keptText().toStdString();

    w.map()->zoom(0.05);  // a few cells across, so that the mouse lands on one
    QApplication::processEvents();
    const int row = static_cast<int>(std::lround(w.map()->yAxis->range().center()));
    const int col = static_cast<int>(std::lround(w.map()->xAxis->range().center()));
    QTest::mouseMove(w.map(), cellCentre(w.map(), row, col));
    QApplication::processEvents();
    ASSERT_EQ(w.map()->hoveredRow(), row);
    ASSERT_EQ(w.map()->hoveredColumn(), col);
    const attn::AttentionResult want = fullPath(s);
    const QString scaled = QLocale().toString(want.heads[0].scaled(row, col), 'f', 3);
    EXPECT_TRUE(w.hoverText().contains(scaled))
        << w.hoverText().toStdString() << " lacks " << scaled.toStdString();

    // A click selects the row; the inspector's first key is the row's largest weight.
    QTest::mouseClick(w.map(), Qt::LeftButton, {}, cellCentre(w.map(), row, col));
    QApplication::processEvents();
    EXPECT_EQ(w.document()->selectedRow(), row);
    Eigen::Index best = 0;
    want.heads[0].weights.row(row).maxCoeff(&best);
    ASSERT_EQ(w.panel()->topKeys()->rowCount(), LongPanel::kTopKeys);
    EXPECT_TRUE(w.panel()->topKeys()->item(0, 0)->text().startsWith(QString::number(best + 1)))
        << w.panel()->topKeys()->item(0, 0)->text().toStdString();
    EXPECT_TRUE(w.panel()->rowText().contains(QStringLiteral("t%1").arg(row)));
}

TEST(LongWindow, ACausalMapDrawsTheCellsPastTheDiagonalAsMaskedWithoutAMaskMatrix)
{
    LongWindow w;
    ASSERT_TRUE(w.open(longSession(400, attn::Mode::Causal), QString()));
    ASSERT_TRUE(idle(w.document()));
    ASSERT_TRUE(w.showsMap());
    EXPECT_FALSE(w.map()->content().mask.has_value());
    const QImage cells = w.map()->drawnImage();
    ASSERT_EQ(cells.width(), 400);
    EXPECT_EQ(cells.pixelColor(399, 0), maskedCellColor());
    EXPECT_NE(cells.pixelColor(0, 399), maskedCellColor());
    EXPECT_NE(cells.pixelColor(0, 0), maskedCellColor());
}

TEST(LongWindow, TheProgressBarAndCancelShowWhileComputingAndCancelLeavesTheSession)
{
    LongWindow w;
    w.show();
    ASSERT_TRUE(w.open(longSession(4000, attn::Mode::Self, 1, 64), QString()));
    EXPECT_TRUE(w.progressBar()->isVisibleTo(&w));
    EXPECT_TRUE(w.cancelButton()->isVisibleTo(&w));
    QTest::mouseClick(w.cancelButton(), Qt::LeftButton);
    ASSERT_TRUE(idle(w.document()));
    EXPECT_FALSE(w.progressBar()->isVisibleTo(&w));
    EXPECT_FALSE(w.showsMap());
    EXPECT_EQ(w.document()->session().input.queryCount(), 4000);
}

TEST(LongWindow, ExportsTheMapAsOneImageInSvgAndAsPngAndPdf)
{
    LongWindow w;
    ASSERT_TRUE(w.open(longSession(1024, attn::Mode::Causal), QString()));
    ASSERT_TRUE(idle(w.document()));
    QTemporaryDir dir;
    for (const char* ext : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("map.") + QLatin1String(ext));
        QString error;
        ASSERT_TRUE(w.exportMap(path, error)) << error.toStdString();
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        EXPECT_LT(bytes.size(), 4 << 20) << ext;
        if (QByteArray(ext) == "svg") {
            EXPECT_EQ(bytes.count("<image"), 1);
            EXPECT_TRUE(bytes.contains("float"));  // the title, as text
        }
        if (QByteArray(ext) == "pdf") {
            EXPECT_TRUE(bytes.startsWith("%PDF"));
        }
        if (QByteArray(ext) == "png") {
            EXPECT_FALSE(QImage::fromData(bytes).isNull());
        }
    }
}

TEST(LongWindow, AFileTooLongForEveryStageOpensInItsOwnWindowAndTheMainSessionStays)
{
    testing::isolateSettings();
    // 17,000 tokens: every stage in double would need 6.7 GiB, the weights in float 1.1 GiB.
    Session s = longSession(17000, attn::Mode::Causal, 1, 1);
    s.dModel = 8;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, SessionFile{s, {}}, error)) << error.message().toStdString();

    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    const Session before = window.document()->session();
    ASSERT_TRUE(window.openFile(path)) << dialogs.warnings.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(dialogs.warnings.isEmpty());
    EXPECT_TRUE(dialogs.questions.isEmpty());  // nothing of the main window is replaced
    EXPECT_EQ(window.document()->session().targetTokens, before.targetTokens);
    LongWindow* opened = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets()) {
        if (auto* lw = qobject_cast<LongWindow*>(w)) opened = lw;
    }
    ASSERT_NE(opened, nullptr);
    EXPECT_TRUE(opened->windowTitle().contains(QStringLiteral("long.attnlab.json")));
    ASSERT_TRUE(idle(opened->document()));
    ASSERT_TRUE(opened->showsMap());
    EXPECT_EQ(opened->map()->content().rows(), 17000);
    EXPECT_TRUE(opened->map()->content().causal);
    delete opened;
}

TEST(LongWindow, UnsavedEditsAreAskedAboutOnCloseAndSaveWritesThemToTheFile)
{
    LongWindow w;
    w.show();
    ASSERT_TRUE(w.open(longSession(300, attn::Mode::Self), QString()));
    ASSERT_TRUE(idle(w.document()));
    int asked = 0;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    w.setCloseQuestion([&] {
        ++asked;
        return answer;
    });
    EXPECT_TRUE(w.close());  // nothing to save: no question
    EXPECT_EQ(asked, 0);
    w.show();
    ASSERT_TRUE(w.document()->scaleKey(0, 12, 2.0));
    ASSERT_TRUE(idle(w.document()));
    EXPECT_TRUE(w.isWindowModified());
    EXPECT_FALSE(w.close());  // Cancel keeps the window and the edit
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(w.isVisible());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.attnlab.json"));
    QString error;
    ASSERT_TRUE(w.saveTo(path, error)) << error.toStdString();
    EXPECT_FALSE(w.isWindowModified());
    SessionFile back;
    FileError readError;
    ASSERT_TRUE(readSessionFile(path, back, readError)) << readError.message().toStdString();
    ASSERT_EQ(back.session.input.edits.size(), 1U);
    EXPECT_EQ(back.session.input.edits[0].index, 12);
    EXPECT_EQ(back.session.input.edits[0].scale, 2.0);
    EXPECT_FALSE(w.saveTo(dir.filePath(QStringLiteral("no/such/dir/x.attnlab.json")), error));
    EXPECT_FALSE(error.isEmpty());

    ASSERT_TRUE(w.document()->setMode(attn::Mode::Causal));
    ASSERT_TRUE(idle(w.document()));
    answer = QMessageBox::Discard;
    EXPECT_TRUE(w.close());
    EXPECT_EQ(asked, 2);
}

TEST(LongWindow, EachHeadIsDrawnFromItsOwnWeightsAndTheArrowsMoveTheSelectedRow)
{
    LongWindow w;
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(w.open(longSession(300, attn::Mode::Self, 2), QString()));
    ASSERT_TRUE(idle(w.document()));
    const auto result = w.document()->result();
    EXPECT_EQ(w.map()->content().floats->data(), result->heads[0].weights.data());
    w.document()->setHead(1);
    EXPECT_EQ(w.map()->content().floats->data(), result->heads[1].weights.data());
    EXPECT_TRUE(w.map()->content().title.contains(QStringLiteral("head 2")));
    w.document()->selectRow(10);
    w.map()->setFocus();
    QTest::keyClick(w.map(), Qt::Key_Down);
    EXPECT_EQ(w.document()->selectedRow(), 11);
    QTest::keyClick(w.map(), Qt::Key_Up);
    QTest::keyClick(w.map(), Qt::Key_Up);
    EXPECT_EQ(w.document()->selectedRow(), 9);
    // The inspector follows the head: its first key is head 2's largest weight of row 9.
    Eigen::Index best = 0;
    result->heads[1].weights.row(9).maxCoeff(&best);
    EXPECT_TRUE(w.panel()->topKeys()->item(0, 0)->text().startsWith(QString::number(best + 1)));
}

TEST(LongWindow, UndoWaitsWhileAChangeComputesSoThatTheHistoryMatchesTheSession)
{
    LongWindow w;
    w.show();
    ASSERT_TRUE(w.open(longSession(4000, attn::Mode::Self, 1, 64), QString()));
    ASSERT_TRUE(idle(w.document()));
    ASSERT_TRUE(w.document()->scaleKey(0, 3, 2.0));
    ASSERT_TRUE(idle(w.document()));
    EXPECT_TRUE(w.undoAction()->isEnabled());
    EXPECT_TRUE(w.undoAction()->text().contains(QStringLiteral("key 4")));
    ASSERT_TRUE(w.document()->setMode(attn::Mode::Causal));
    ASSERT_TRUE(w.document()->computing());
    EXPECT_FALSE(w.undoAction()->isEnabled());
    w.undoAction()->trigger();  // as Ctrl+Z would: nothing happens
    EXPECT_EQ(w.document()->undoStack()->index(), 1);
    ASSERT_TRUE(idle(w.document()));
    EXPECT_EQ(w.document()->undoStack()->index(), 2);
    EXPECT_EQ(w.document()->session().input.mode, attn::Mode::Causal);
    EXPECT_TRUE(w.undoAction()->isEnabled());
}

}  // namespace
}  // namespace attnlab
