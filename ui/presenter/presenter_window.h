// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The presenter view for the lecture hall: one view (a workbench tab, a walkthrough step, a
// model window figure, the trainer's live map) full screen with large text, and a sheet over
// it for marking while talking (mark_layer.h). Esc (or F5 again) leaves. Keys: P pen,
// H highlighter, R ring a cell, L pointer, N no tool (the view gets the mouse), 1–4 colours,
// C clears this page's marks, Ctrl+E exports the picture with its marks.
//
// The view is either made for this window (and deleted with it) or borrowed from its place in
// another window and handed back on closing (setGiveBack).

#include <functional>

#include <QPointer>
#include <QWidget>

#include "ui/presenter/mark_store.h"

class QPainter;
class QActionGroup;
class QScreen;
class QToolBar;

namespace attnlab {

class MarkLayer;

class PresenterWindow : public QWidget {
    Q_OBJECT
public:
    // Text size in the presenter view relative to the window's.
    static constexpr double FontScale = 2.0;
    // Maps and plots grow a little less than text, so that their labels still fit.
    static constexpr double MapFontScale = 1.6;
    // A view of many maps at once (the pipeline's nine) keeps room for their cells.
    static constexpr double ManyMapsFontScale = 1.2;

    // A top-level window (parented for lifetime only), deleted when closed. `marks` keeps the
    // marks of every page (it outlives this window); `page` names the view (and its step).
    PresenterWindow(QWidget* content, MarkStore* marks, const QString& page,
                    QWidget* parent = nullptr);
    ~PresenterWindow() override;

    // Full screen on `screen` (by hand where no window manager honours full screen), with
    // the keyboard on the view.
    void showOn(QScreen* screen);
    // The content came from elsewhere: `giveBack` puts it back when this window closes.
    void setGiveBack(std::function<void(QWidget*)> giveBack);
    [[nodiscard]] QWidget* content() const { return content_; }
    [[nodiscard]] MarkLayer* markLayer() const { return layer_; }
    [[nodiscard]] QToolBar* tools() const { return tools_; }

    // The page the marks are drawn on (a walkthrough step changes it).
    void setPage(const QString& page);
    [[nodiscard]] QString page() const;
    void setTool(MarkTool tool);
    [[nodiscard]] MarkTool tool() const;
    void setColor(int index);  // 0..3
    void clearMarks();

    // The view with the marks over it, at its size on screen.
    [[nodiscard]] QImage picture() const;
    // Writes the view and its marks as PNG, SVG or PDF (by the suffix); false with a
    // translated `error`.
    bool exportPicture(const QString& path, QString& error) const;

    // The marking colours: red, blue, green, orange.
    [[nodiscard]] static QList<QColor> colors();
    // Where `widget` sits in its parent's box layout, as a function that puts it back there
    // (with its fonts as they were before `factor` scaled them); empty when it is elsewhere.
    [[nodiscard]] static std::function<void(QWidget*)> placeOf(QWidget* widget, double factor);
    // Text and plot labels of `widget` and every plot in it scaled by `factor`.
    static void scaleFonts(QWidget* widget, double factor);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void renderContent(QPainter& painter) const;
    void buildTools();
    void retranslate();
    void exportWithDialog();
    void placeLayer();

    QPointer<QWidget> content_;
    MarkLayer* layer_ = nullptr;
    QToolBar* tools_ = nullptr;
    QActionGroup* toolGroup_ = nullptr;
    QActionGroup* colorGroup_ = nullptr;
    std::function<void(QWidget*)> giveBack_;
};

}  // namespace attnlab
