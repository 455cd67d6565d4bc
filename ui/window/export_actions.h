#pragma once
// The Export menu of the main window: a figure (PNG at 1×/2×/3×, SVG, PDF) of the map in
// the current tab or of any stage, the figure copied to the clipboard, and the numbers
// of every stage of every head as JSON or CSV. It draws from the document's result.

#include <QObject>

#include "ui/export/figure_dialog.h"
#include "ui/export/numbers_export.h"

class QAction;

namespace attnlab {

class Document;
class MainWindow;
class PresenterActions;

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

private:
    FigureSource source() const;
    void onExportFigure();
    void onCopyFigure();
    // Export ▸ Figure of a view with presenter marks: the view as presented, marks and all.
    void exportMarked(PresenterActions* presenter);
    void onExportJson();
    void onExportCsvFiles();
    void onExportCsvTable();
    void report(bool ok, const QString& path, const QString& error);
    // Asks before a numbers export larger than kMaxNumbersBytes; true to go on.
    bool confirmSize(const FigureSource& src, NumbersFormat format);

    MainWindow* window_;
    Document* doc_;
    QAction* figure_ = nullptr;
    QAction* copy_ = nullptr;
    FigureExportSettings last_;
};

}  // namespace attnlab
