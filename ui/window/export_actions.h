// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Export menu of the main window: a figure (PNG at 1×/2×/3×, SVG, PDF) of the map in
// the current tab or of any stage, the figure copied to the clipboard, and the numbers
// of every stage of every head as JSON or CSV. It draws from the document's result.

#include <functional>

#include <QObject>

#include "ui/export/figure_dialog.h"
#include "ui/export/numbers_export.h"

class QAction;

namespace attnlab {

class Document;
class MainWindow;
class PresenterActions;

// The file dialogs of the Export menu, replaceable in tests.
struct ExportDialogs {
    // A file to save to ("" = cancelled); `selectedFilter` receives the chosen filter.
    std::function<QString(const QString& title, const QString& suggestion, const QString& filters,
                          QString* selectedFilter)>
        savePath;
    // A folder to write into ("" = cancelled).
    std::function<QString(const QString& title, const QString& start)> folder;
};

// Every dialog starts in the folder last used (ui/export/last_folder.h) and remembers the one
// chosen.
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(MainWindow* window, Document* doc);

    [[nodiscard]] QAction* exportFigure() const { return figure_; }
    [[nodiscard]] QAction* copyFigure() const { return copy_; }
    // The stage the current central tab shows (weights, difference, pipeline, all heads).
    [[nodiscard]] FigureRequest currentTabRequest() const;
    // The figure for `request` from the document; false with a message when impossible.
    bool figureFor(const FigureRequest& request, Figure& figure, QString& error) const;
    // The long session's map (its current head) as a figure, and written to `path` as PNG, SVG
    // or PDF by the extension; false with `error` while there is no map.
    bool longFigure(Figure& figure, QString& error) const;
    bool exportLongMap(const QString& path, QString& error) const;
    void setDialogs(const ExportDialogs& dialogs) { dialogs_ = dialogs; }
    // The numbers exports of the menu (JSON, CSV files, one CSV table), for tests.
    void exportJson() { onExportJson(); }
    void exportCsvFiles() { onExportCsvFiles(); }
    void exportCsvTable() { onExportCsvTable(); }

private:
    FigureSource source() const;
    void onExportFigure();
    void onExportLongMap();
    // The numbers exports serve the workbench's sessions only (every stage in double).
    bool refusedForLongSession();
    void onCopyFigure();
    // Export ▸ Figure of a view with presenter marks: the view as presented, marks and all.
    void exportMarked(PresenterActions* presenter);
    void onExportJson();
    void onExportCsvFiles();
    void onExportCsvTable();
    void report(bool ok, const QString& path, const QString& error);
    // Asks before a numbers export larger than kMaxNumbersBytes; true to go on.
    bool confirmSize(const FigureSource& src, NumbersFormat format);
    // A path from the save dialog, started in the folder last used; remembers its folder.
    QString askSavePath(const QString& title, const QString& fileName, const QString& filters,
                        QString* selectedFilter = nullptr);

    MainWindow* window_;
    Document* doc_;
    QAction* figure_ = nullptr;
    QAction* copy_ = nullptr;
    FigureExportSettings last_;
    ExportDialogs dialogs_;
};

}  // namespace attnlab
