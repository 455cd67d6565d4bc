// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/presenter/presenter_window.h"

#include <array>

#include <QAction>
#include <QActionGroup>
#include <QBoxLayout>
#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "ui/export/last_folder.h"
#include "ui/export/numbers_export.h"
#include "ui/presenter/mark_layer.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/screen_only.h"
#include "ui/views/tick_spacing.h"

namespace attnlab {

namespace {

QIcon swatch(const QColor& color)
{
    QPixmap p(16, 16);
    p.fill(color);
    return QIcon(p);
}

void scalePlot(QCustomPlot* plot, double factor)
{
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelFont(scaledFont(axis->tickLabelFont(), factor));
            axis->setLabelFont(scaledFont(axis->labelFont(), factor));
        }
    }
    keepTickLabelsApart(plot);  // larger numbers need fewer of them on the same width
    if (plot->legend) plot->legend->setFont(scaledFont(plot->legend->font(), factor));
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(e))
            text->setFont(scaledFont(text->font(), factor));
        if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
            scale->axis()->setTickLabelFont(scaledFont(scale->axis()->tickLabelFont(), factor));
            scale->axis()->setLabelFont(scaledFont(scale->axis()->labelFont(), factor));
        }
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace

PresenterWindow::PresenterWindow(QWidget* content, MarkStore* marks, const QString& page,
                                 QWidget* parent)
    : QWidget(parent, Qt::Window), content_(content)
{
    setObjectName(QStringLiteral("PresenterWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 8, 24, 16);
    buildTools();
    layout->addWidget(tools_);
    content->setParent(this);
    layout->addWidget(content, 1);
    content->show();
    layer_ = new MarkLayer(marks, content, this);
    layer_->setPage(page);
    layer_->raise();
    setFocusProxy(content);
    retranslate();
}

PresenterWindow::~PresenterWindow() = default;

void PresenterWindow::showOn(QScreen* screen)
{
    showFullScreen();
    // Without a window manager (a bare X server) full screen is not honoured: then cover the
    // screen by hand.
    if (screen) {
        const QRect area = screen->geometry();
        QTimer::singleShot(0, this, [this, area] {
            if (geometry() != area) setGeometry(area);
        });
    }
    activateWindow();
    if (content_) content_->setFocus(Qt::OtherFocusReason);
}

void PresenterWindow::setGiveBack(std::function<void(QWidget*)> giveBack)
{
    giveBack_ = std::move(giveBack);
}

void PresenterWindow::buildTools()
{
    tools_ = new QToolBar(this);
    tools_->setObjectName(QStringLiteral("presenterTools"));
    tools_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools_->setFont(scaledFont(font(), 1.3));
    tools_->setFocusPolicy(Qt::NoFocus);
    toolGroup_ = new QActionGroup(this);
    const std::array<std::pair<MarkTool, Qt::Key>, 5> tools{{{MarkTool::None, Qt::Key_N},
                                                             {MarkTool::Pen, Qt::Key_P},
                                                             {MarkTool::Highlighter, Qt::Key_H},
                                                             {MarkTool::Ring, Qt::Key_R},
                                                             {MarkTool::Pointer, Qt::Key_L}}};
    for (const auto& [tool, key] : tools) {
        QAction* a = tools_->addAction(QString());
        a->setCheckable(true);
        a->setData(static_cast<int>(tool));
        a->setShortcut(QKeySequence(key));
        a->setShortcutContext(Qt::WindowShortcut);
        a->setChecked(tool == MarkTool::None);
        toolGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, tool = tool] { setTool(tool); });
    }
    tools_->addSeparator();
    colorGroup_ = new QActionGroup(this);
    const QList<QColor> palette = colors();
    for (int i = 0; i < palette.size(); ++i) {
        QAction* a = tools_->addAction(swatch(palette[i]), QString());
        a->setCheckable(true);
        a->setChecked(i == 0);
        a->setShortcut(QKeySequence(Qt::Key_1 + i));
        a->setShortcutContext(Qt::WindowShortcut);
        colorGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, i] { setColor(i); });
    }
    tools_->addSeparator();
    QAction* clear = tools_->addAction(QString(), this, &PresenterWindow::clearMarks);
    clear->setObjectName(QStringLiteral("clearMarks"));
    clear->setShortcut(QKeySequence(Qt::Key_C));
    clear->setShortcutContext(Qt::WindowShortcut);
    QAction* save = tools_->addAction(QString(), this, &PresenterWindow::exportWithDialog);
    save->setObjectName(QStringLiteral("exportPicture"));
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    save->setShortcutContext(Qt::WindowShortcut);
    QAction* leave = tools_->addAction(QString(), this, &QWidget::close);
    leave->setObjectName(QStringLiteral("leavePresenter"));
    for (QAction* a : tools_->actions()) addAction(a);  // shortcuts work with the bar hidden too
}

void PresenterWindow::retranslate()
{
    setWindowTitle(tr("AttnLab — presenter view"));
    const QStringList toolNames{tr("No tool (N)"), tr("Pen (P)"), tr("Highlighter (H)"),
                                tr("Ring a cell (R)"), tr("Pointer (L)")};
    const QStringList toolTips{
        tr("The mouse works the view: hover, click, scroll"),
        tr("Draw by dragging"),
        tr("Highlight by dragging"),
        tr("Click a cell of a map to ring it"),
        tr("A red dot follows the mouse"),
    };
    const QList<QAction*> tools = toolGroup_->actions();
    for (int i = 0; i < tools.size(); ++i) {
        tools[i]->setText(toolNames.value(i));
        tools[i]->setToolTip(toolTips.value(i));
    }
    const QStringList colorNames{tr("Red (1)"), tr("Blue (2)"), tr("Green (3)"), tr("Orange (4)")};
    const QList<QAction*> swatches = colorGroup_->actions();
    for (int i = 0; i < swatches.size(); ++i) swatches[i]->setToolTip(colorNames.value(i));
    for (QAction* a : tools_->actions()) {
        if (a->objectName() == QLatin1String("clearMarks")) {
            a->setText(tr("Clear (C)"));
            a->setToolTip(tr("Clear the marks of this view or step"));
        } else if (a->objectName() == QLatin1String("exportPicture")) {
            a->setText(tr("Export…"));
            a->setToolTip(tr("Save this view with its marks as PNG, SVG or PDF (Ctrl+E)"));
        } else if (a->objectName() == QLatin1String("leavePresenter")) {
            a->setText(tr("Close (Esc)"));
            a->setToolTip(tr("Back to the window"));
        }
    }
}

QList<QColor> PresenterWindow::colors()
{
    return {QColor(0xd6, 0x27, 0x28), QColor(0x1f, 0x5f, 0xd0), QColor(0x1a, 0x9a, 0x3a),
            QColor(0xf0, 0x8a, 0x00)};
}

void PresenterWindow::scaleFonts(QWidget* widget, double factor)
{
    if (!widget) return;
    // HeatmapViews follow their widget font (changeEvent); other plots copied it into their
    // axes when they were made.
    widget->setFont(scaledFont(widget->font(), factor));
    for (QCustomPlot* plot : widget->findChildren<QCustomPlot*>())
        if (!qobject_cast<HeatmapView*>(plot)) scalePlot(plot, factor);
}

std::function<void(QWidget*)> PresenterWindow::placeOf(QWidget* widget, double factor)
{
    QWidget* parent = widget ? widget->parentWidget() : nullptr;
    auto* box = parent ? qobject_cast<QBoxLayout*>(parent->layout()) : nullptr;
    const int index = box ? box->indexOf(widget) : -1;
    if (index < 0) return {};
    const int stretch = box->stretch(index);
    return [parent = QPointer<QWidget>(parent), box = QPointer<QBoxLayout>(box), index, stretch,
            factor](QWidget* w) {
        scaleFonts(w, 1.0 / factor);
        if (!parent || !box) {
            w->deleteLater();  // its window went while it was presented
            return;
        }
        w->setParent(parent);
        box->insertWidget(std::min(index, box->count()), w, stretch);
        w->show();
    };
}

void PresenterWindow::setPage(const QString& page)
{
    layer_->setPage(page);
}

QString PresenterWindow::page() const
{
    return layer_->page();
}

void PresenterWindow::setTool(MarkTool tool)
{
    layer_->setTool(tool);
    for (QAction* a : toolGroup_->actions())
        if (a->data().toInt() == static_cast<int>(tool)) a->setChecked(true);
}

MarkTool PresenterWindow::tool() const
{
    return layer_->tool();
}

void PresenterWindow::setColor(int index)
{
    const QList<QColor> palette = colors();
    if (index < 0 || index >= palette.size()) return;
    layer_->setColor(palette[index]);
    colorGroup_->actions().at(index)->setChecked(true);
}

void PresenterWindow::clearMarks()
{
    layer_->store()->clear(layer_->page());
}

void PresenterWindow::placeLayer()
{
    if (content_) layer_->setGeometry(content_->geometry());
    layer_->raise();
}

void PresenterWindow::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeLayer();
}

// The content without the widgets marked screen-only (their place stays blank).
void PresenterWindow::renderContent(QPainter& painter) const
{
    QRegion region(content_->rect());
    for (const QWidget* w : content_->findChildren<QWidget*>()) {
        if (!w->isVisible() || !w->property(kScreenOnlyProperty).toBool()) continue;
        region -= QRect(w->mapTo(content_, QPoint(0, 0)), w->size());
    }
    content_->render(&painter, QPoint(), region);
}

QImage PresenterWindow::picture() const
{
    if (!content_) return {};
    const_cast<PresenterWindow*>(this)->placeLayer();
    QImage image(content_->size() * devicePixelRatio(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio());
    image.fill(Qt::white);
    QPainter painter(&image);
    renderContent(painter);
    layer_->paintMarks(painter);
    return image;
}

bool PresenterWindow::exportPicture(const QString& path, QString& error) const
{
    if (!content_) return false;
    const_cast<PresenterWindow*>(this)->placeLayer();
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = content_->size();
    // Drawn in memory and written through the atomic writer: the file is replaced whole or left
    // as it was, and a FIFO or device at `path` is treated as every export treats it.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool ok = false;
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(windowTitle());
        QPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            renderContent(painter);
            layer_->paintMarks(painter);
            ok = painter.end();
        }
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QSizeF(size) * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF());
        pdf.setResolution(96);
        QPainter painter;
        ok = painter.begin(&pdf);
        if (ok) {
            renderContent(painter);
            layer_->paintMarks(painter);
            ok = painter.end();
        }
    } else {
        ok = picture().save(&buffer, "PNG");
    }
    buffer.close();
    if (!ok) {
        error = tr("Could not write %1.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeBytes(path, bytes, error);
}

void PresenterWindow::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the view with its marks"), inLastFolder(tr("presented-view.png")),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    rememberFolderOf(path);
    QString error;
    if (!exportPicture(path, error)) QMessageBox::warning(this, tr("Export"), error);
}

void PresenterWindow::keyPressEvent(QKeyEvent* event)
{
    // The view handles its own keys (the walkthrough's steps) and passes the others up here.
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_F5) {
        close();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void PresenterWindow::closeEvent(QCloseEvent* event)
{
    if (giveBack_ && content_) {
        QWidget* borrowed = content_;
        content_ = nullptr;
        layout()->removeWidget(borrowed);
        giveBack_(borrowed);
        giveBack_ = nullptr;
    }
    QWidget::closeEvent(event);
}

void PresenterWindow::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace attnlab
