// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/export_actions.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "ui/document/document.h"
#include "ui/document/long_document.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/last_folder.h"
#include "ui/export/numbers_export.h"
#include "ui/panels/heads_grid_panel.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/pipeline_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_actions.h"

namespace attnlab {

ExportActions::ExportActions(MainWindow* window, Document* doc)
    : QObject(window), window_(window), doc_(doc)
{
    dialogs_.savePath = [window](const QString& title, const QString& suggestion,
                                 const QString& filters, QString* selected) {
        return QFileDialog::getSaveFileName(window, title, suggestion, filters, selected);
    };
    dialogs_.folder = [window](const QString& title, const QString& start) {
        return QFileDialog::getExistingDirectory(window, title, start);
    };
    auto* menu = new QMenu(tr("E&xport"), window_);
    menu->setObjectName(QStringLiteral("ExportMenu"));
    // After the File menu (the first one), before Edit.
    const QList<QAction*> menus = window_->menuBar()->actions();
    if (menus.size() > 1)
        window_->menuBar()->insertMenu(menus.at(1), menu);
    else
        window_->menuBar()->addMenu(menu);

    figure_ = menu->addAction(tr("&Figure…"), this, &ExportActions::onExportFigure);
    figure_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    figure_->setToolTip(
        tr("Save a map, a pipeline stage, the difference map, all heads or "
           "the whole pipeline as PNG, SVG or PDF."));
    copy_ = menu->addAction(tr("&Copy figure to clipboard"), this, &ExportActions::onCopyFigure);
    copy_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy_->setToolTip(tr("Copy the map of the current tab as an image."));
    menu->addSeparator();
    menu->addAction(tr("Numbers as &JSON…"), this, &ExportActions::onExportJson);
    menu->addAction(tr("Numbers as CSV &files, one per matrix…"), this,
                    &ExportActions::onExportCsvFiles);
    menu->addAction(tr("Numbers as one CSV &table…"), this, &ExportActions::onExportCsvTable);
}

FigureSource ExportActions::source() const
{
    doc_->flush();
    FigureSource s;
    s.session = &doc_->session();
    s.result = doc_->hasResult() ? &doc_->result() : nullptr;
    if (s.result && doc_->pinnedWeights()) {
        s.before.resize(s.result->heads.size());
        const std::size_t h = static_cast<std::size_t>(doc_->head());
        if (h < s.before.size()) s.before[h] = *doc_->pinnedWeights();
        s.beforeDescription = tr("before = the pinned weights");
    }
    return s;
}

FigureRequest ExportActions::currentTabRequest() const
{
    FigureRequest r = last_.request;
    r.head = doc_->head();
    r.allHeads = false;
    QWidget* tab = window_->centralTabs()->currentWidget();
    if (qobject_cast<PipelinePanel*>(tab)) {
        r.stage = FigureStage::Pipeline;
    } else if (qobject_cast<HeadsGridPanel*>(tab)) {
        r.stage = FigureStage::Weights;
        r.allHeads = true;
    } else if (qobject_cast<WeightsPanel*>(tab) && tab != window_->weightsPanel()) {
        r.stage = FigureStage::Difference;
    } else {
        r.stage = FigureStage::Weights;
    }
    return r;
}

bool ExportActions::figureFor(const FigureRequest& request, Figure& figure, QString& error) const
{
    return buildFigure(source(), request, figure, error);
}

bool ExportActions::longFigure(Figure& figure, QString& error) const
{
    const LongMapPanel* panel = window_->longMapPanel();
    HeatmapContent map = panel ? panel->content() : HeatmapContent{};
    if (map.rows() == 0) {
        error = tr("There is no map to export yet.");
        return false;
    }
    figure = Figure{};
    figure.title = map.title;
    map.title.clear();
    figure.panels.push_back(std::move(map));
    figure.caption =
        tr("%1 tokens; only the weights were kept, in float; each pixel shows the largest weight "
           "of the cells it covers.")
            .arg(QLocale().toString(
                static_cast<qint64>(window_->longDocument()->session().input.queryCount())));
    return true;
}

bool ExportActions::exportLongMap(const QString& path, QString& error) const
{
    Figure figure;
    return longFigure(figure, error) &&
           writeFigure(figure, path, defaultFigureSize(figure), 2.0, error);
}

bool ExportActions::refusedForLongSession()
{
    if (!window_->showsLongSession()) return false;
    window_->statusBar()->showMessage(
        tr("A long session keeps only its weights: export its map as a figure (Ctrl+E)."), 10000);
    return true;
}

void ExportActions::onExportLongMap()
{
    // Named after the session's file.
    const QString file = window_->fileActions()->currentFile();
    const QString base = file.isEmpty()
                             ? QStringLiteral("long-map")
                             : QFileInfo(file).completeBaseName().section(QLatin1Char('.'), 0, 0);
    QString selected;
    QString path = askSavePath(
        tr("Export the map"), base + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty()) return;
    FigureFormat format;
    if (!figureFormatForPath(path, format))
        path += selected.contains(QLatin1String("*.svg"))   ? QStringLiteral(".svg")
                : selected.contains(QLatin1String("*.pdf")) ? QStringLiteral(".pdf")
                                                            : QStringLiteral(".png");
    QString error;
    report(exportLongMap(path, error), path, error);
}

void ExportActions::onExportFigure()
{
    if (window_->showsLongSession()) {
        onExportLongMap();
        return;
    }
    // Marks drawn in the presenter view belong to that picture: offer it.
    auto* presenter = window_->findChild<PresenterActions*>();
    if (presenter && presenter->currentViewHasMarks()) {
        const auto answer = QMessageBox::question(
            window_, tr("Export figure"),
            tr("This view has marks from the presenter view. Export it as presented, with the "
               "marks?"),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer == QMessageBox::Cancel) return;
        if (answer == QMessageBox::Yes) {
            exportMarked(presenter);
            return;
        }
    }
    const FigureSource src = source();
    FigureExportSettings initial = last_;
    initial.request = currentTabRequest();
    FigureDialog dialog(src, initial, window_);
    if (dialog.exec() != QDialog::Accepted) return;
    last_ = dialog.settings();
    Figure figure;
    QString error;
    if (!buildFigure(src, last_.request, figure, error)) {
        QMessageBox::warning(window_, tr("Export figure"), error);
        return;
    }
    QString selected;
    QString path = askSavePath(
        tr("Export figure"), QStringLiteral("attention-%1.png").arg(stageKey(last_.request.stage)),
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty()) return;
    FigureFormat format;
    if (!figureFormatForPath(path, format)) {
        // No or unknown extension: take the one of the chosen filter.
        const QString ext = selected.contains(QLatin1String("*.svg"))   ? QStringLiteral(".svg")
                            : selected.contains(QLatin1String("*.pdf")) ? QStringLiteral(".pdf")
                                                                        : QStringLiteral(".png");
        path += ext;
    }
    const bool ok = writeFigure(figure, path, last_.size, last_.scale, error);
    report(ok, path, error);
}

void ExportActions::exportMarked(PresenterActions* presenter)
{
    const QString path =
        askSavePath(tr("Export figure with marks"),
                    QStringLiteral("presented-%1.png").arg(presenter->currentView()),
                    tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    const bool ok = presenter->exportMarkedView(path, error);
    report(ok, path, error);
}

void ExportActions::onCopyFigure()
{
    Figure figure;
    QString error;
    if (window_->showsLongSession() ? !longFigure(figure, error)
                                    : !figureFor(currentTabRequest(), figure, error)) {
        QMessageBox::warning(window_, tr("Copy figure"), error);
        return;
    }
    QGuiApplication::clipboard()->setImage(
        renderFigureImage(figure, defaultFigureSize(figure), last_.scale));
    window_->statusBar()->showMessage(tr("Figure copied to the clipboard."), 5000);
}

void ExportActions::onExportJson()
{
    if (refusedForLongSession()) return;
    const FigureSource src = source();
    if (!src.result) return;
    const QString path = askSavePath(tr("Export numbers as JSON"), QStringLiteral("attention.json"),
                                     tr("JSON (*.json)"));
    if (path.isEmpty() || !confirmSize(src, NumbersFormat::Json)) return;
    QString error;
    report(writeBytes(path, resultToJson(*src.session, *src.result), error), path, error);
}

void ExportActions::onExportCsvTable()
{
    if (refusedForLongSession()) return;
    const FigureSource src = source();
    if (!src.result) return;
    const QString path = askSavePath(tr("Export numbers as one CSV table"),
                                     QStringLiteral("attention.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty() || !confirmSize(src, NumbersFormat::LongCsv)) return;
    QString error;
    report(writeBytes(path, resultToLongCsv(*src.session, *src.result), error), path, error);
}

void ExportActions::onExportCsvFiles()
{
    if (refusedForLongSession()) return;
    const FigureSource src = source();
    if (!src.result) return;
    const QString folder = dialogs_.folder(
        tr("Export numbers as CSV files (one per matrix) into a folder"), lastFolder());
    if (folder.isEmpty()) return;
    rememberFolderOf(folder);
    if (!confirmSize(src, NumbersFormat::Json)) return;
    QString error;
    for (const auto& [name, bytes] : resultToCsvFiles(*src.session, *src.result)) {
        if (!writeBytes(QDir(folder).filePath(name), bytes, error)) {
            report(false, folder, error);
            return;
        }
    }
    report(true, folder, QString());
}

QString ExportActions::askSavePath(const QString& title, const QString& fileName,
                                   const QString& filters, QString* selectedFilter)
{
    const QString path = dialogs_.savePath(title, inLastFolder(fileName), filters, selectedFilter);
    rememberFolderOf(path);
    return path;
}

bool ExportActions::confirmSize(const FigureSource& src, NumbersFormat format)
{
    if (estimateNumbersBytes(src.session->input, format) <= kMaxNumbersBytes) return true;
    return QMessageBox::question(window_, tr("Export numbers"),
                                 numbersCostText(src.session->input, format) + QLatin1Char(' ') +
                                     tr("Export anyway? (A figure is usually what a long "
                                        "sequence needs.)"),
                                 QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Yes;
}

void ExportActions::report(bool ok, const QString& path, const QString& error)
{
    if (ok)
        window_->statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)),
                                          8000);
    else
        QMessageBox::warning(window_, tr("Export"), error);
}

}  // namespace attnlab
