// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/lesson_actions.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

#include "ui/document/document.h"
#include "ui/model/align_lesson_launcher.h"
#include "ui/model/induction_lesson_launcher.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/writing_lesson_launcher.h"
#include "ui/panels/cost_panel.h"
#include "ui/panels/lesson_panel.h"
#include "ui/panels/rope_lesson_buttons.h"
#include "ui/panels/scaling_plot.h"
#include "ui/panels/working_panel.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/window/dock_layout.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/start_page.h"

namespace attnlab {

namespace {
constexpr const char* kLessonProperty = "attnlabLesson";
}  // namespace

LessonActions::LessonActions(MainWindow* window, Document* doc)
    : QObject(window),
      window_(window),
      doc_(doc),
      panel_(new LessonPanel(window)),
      working_(new WorkingPanel(doc, window)),
      cost_(new CostPanel(doc, window))
{
    setObjectName(QStringLiteral("LessonActions"));
    lessonDock_ = addDock(panel_, QStringLiteral("LessonDock"), Qt::RightDockWidgetArea);
    workingDock_ = addDock(working_, QStringLiteral("WorkingDock"), Qt::BottomDockWidgetArea);
    costDock_ = addDock(cost_, QStringLiteral("CostDock"), Qt::BottomDockWidgetArea);
    lessonDock_->hide();
    workingDock_->hide();
    costDock_->hide();
    panel_->addAttachment(QStringLiteral("scaling"), new ScalingPlot(doc, panel_));
    panel_->addAttachment(QStringLiteral("real-model"),
                          new ModelLessonLauncher(window->modelWindows(), panel_));
    auto* care = new ModelLessonLauncher(window->modelWindows(), panel_);
    care->setObjectName(QStringLiteral("modelCareLauncher"));
    // The letters model has heads whose job is known (induction), so the experiment on it has
    // an answer the lesson can state; the poem model has none of that certainty.
    care->setBuiltins({QStringLiteral("induction")});
    care->setKeyExperiment(true);
    care->setFocusPair({QStringLiteral("it"), QStringLiteral("它")},
                       {QStringLiteral("animal"), QStringLiteral("动物")});
    panel_->addAttachment(QStringLiteral("model-care"), care);
    // The kernel's third call in a model that learned it: the translator built into AttnLab.
    // Both cross-attention lessons read the same text, which offers it; "One kernel, three
    // calls" is about it.
    for (const QString& lesson :
         {QStringLiteral("cross"), QStringLiteral("cross-short"), QStringLiteral("three-calls")}) {
        auto* translator = new ModelLessonLauncher(window->modelWindows(), panel_);
        translator->setObjectName(QStringLiteral("crossTranslatorLauncher"));
        translator->setBuiltins({QStringLiteral("dates")});
        translator->setDownloadStep(false);
        panel_->addAttachment(lesson, translator);
    }
    panel_->addAttachment(QStringLiteral("induction-form"),
                          new InductionLessonLauncher(window->modelWindows(), panel_));
    panel_->addAttachment(QStringLiteral("cross-align"),
                          new AlignLessonLauncher(window->modelWindows(), panel_));
    panel_->addAttachment(QStringLiteral("rope"), new RopeLessonButtons(doc, panel_));
    panel_->addAttachment(
        QStringLiteral("temperature"),
        new WritingLessonLauncher(window->modelWindows(),
                                  WritingLessonLauncher::Lesson::Temperature, panel_));
    panel_->addAttachment(
        QStringLiteral("model-writes"),
        new WritingLessonLauncher(window->modelWindows(), WritingLessonLauncher::Lesson::Induction,
                                  panel_));
    connect(panel_, &LessonPanel::restartRequested, this, &LessonActions::openLesson);
    buildMenu();
    window_->installEventFilter(this);
    // The window rebuilds its interface (and this object) on a language switch: the open
    // lesson is kept on the window so that its text comes back in the new language.
    current_ = window_->property(kLessonProperty).toString();
    panel_->setLesson(current_);
}

QDockWidget* LessonActions::addDock(QWidget* panel, const QString& objectName,
                                    Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(window_);
    dock->setObjectName(objectName);
    auto* scroll = new QScrollArea(dock);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    dock->setWidget(scroll);
    window_->addDockWidget(area, dock);
    return dock;
}

void LessonActions::buildMenu()
{
    menu_ = new QMenu(window_);
    menu_->setObjectName(QStringLiteral("LessonsMenu"));
    auto* help = window_->findChild<QMenu*>(QStringLiteral("HelpMenu"));
    if (help) {
        window_->menuBar()->insertMenu(help->menuAction(), menu_);
        QAction* start = help->addAction(QString(), this, &LessonActions::showStartPage);
        start->setObjectName(QStringLiteral("HelpStartPageAction"));
    } else {
        window_->menuBar()->addMenu(menu_);
    }
    fillMenu();
}

void LessonActions::fillMenu()
{
    menu_->setTitle(tr("&Lessons"));
    lessonDock_->setWindowTitle(tr("Lesson"));
    workingDock_->setWindowTitle(tr("Show working"));
    costDock_->setWindowTitle(tr("Cost of n²"));
    if (QAction* a = window_->findChild<QAction*>(QStringLiteral("HelpStartPageAction")))
        a->setText(tr("&Start page…"));
    menu_->clear();
    for (const Lesson& lesson : lessons()) {
        const QString id = lesson.id;
        QAction* a = menu_->addAction(
            QString(lesson.numberedTitle()).replace(QLatin1Char('&'), QStringLiteral("&&")), this,
            [this, id] { openLesson(id); });
        a->setToolTip(lesson.summary());
        a->setData(id);
    }
    menu_->setToolTipsVisible(true);
    menu_->addSeparator();
    menu_->addAction(tr("&Start page…"), this, &LessonActions::showStartPage);
    QAction* text = lessonDock_->toggleViewAction();
    text->setText(tr("Lesson &text"));
    menu_->addAction(text);
    QAction* working = workingDock_->toggleViewAction();
    working->setText(tr("Show &working"));
    menu_->addAction(working);
    QAction* cost = costDock_->toggleViewAction();
    cost->setText(tr("&Cost of n² (time and memory against n)"));
    menu_->addAction(cost);
}

bool LessonActions::openLesson(const QString& id)
{
    // A lesson is a workbench session: the long session open in the window makes room.
    if (!window_->leaveLongSession()) return false;
    Session session;
    ViewState view;
    FileError error;
    if (!loadLesson(id, session, view, error)) {
        window_->statusBar()->showMessage(error.message(), 8000);
        return false;
    }
    // Lessons are found by id, so the label can name the lesson in the language of the day.
    // The numbered title is not quoted: Chinese titles start with quotes of their own.
    const Label label = [id] {
        const Lesson* l = findLessonById(id);
        return tr("Open %1").arg(l ? l->numberedTitle() : id);
    };
    // A lesson opened over nothing unsaved is itself unsaved work of nobody: quitting or
    // opening a file then asks nothing. Over unsaved changes it stays modified, so that the
    // question still protects them (Undo brings them back).
    const bool wasClean = doc_->undoStack()->isClean();
    if (!doc_->replaceSession(session, label)) return false;
    if (wasClean) {
        doc_->flush();  // the step is on the stack once a computation running before it ends
        doc_->undoStack()->setClean();
    }
    // A lesson is not the file that was open: Save must not write the lesson over it.
    if (FileActions* files = window_->fileActions()) files->detachFromFile();
    doc_->clearPin();
    doc_->setHead(view.head);
    doc_->select(view.row, view.column);
    current_ = id;
    doc_->setLesson(id);
    window_->setProperty(kLessonProperty, id);
    panel_->setLesson(id);
    applyLayout(*findLessonById(id));
    lessonDock_->show();
    lessonDock_->raise();
    if (id == QLatin1String("scaling")) {
        // Room for the plot below the text.
        window_->resizeDocks({lessonDock_}, {560}, Qt::Horizontal);
        window_->resizeDocks({lessonDock_}, {760}, Qt::Vertical);
    }
    return true;
}

void LessonActions::applyLayout(const Lesson& lesson)
{
    applyDockLayout(window_, lesson.layout);
}

StartPage* LessonActions::startPage() const
{
    return startPage_.data();
}

void LessonActions::showStartPage()
{
    if (!startPage_) {
        startPage_ = new StartPage(window_);
        startPage_->setAttribute(Qt::WA_DeleteOnClose);
        connect(startPage_, &StartPage::openLesson, this, &LessonActions::openLesson);
        connect(startPage_, &QDialog::finished, this, &LessonActions::focusWindow);
    }
    startPage_->show();
    startPage_->raise();
    startPage_->activateWindow();
}

void LessonActions::focusWindow()
{
    // Nothing hands the keyboard back when the page closes (X without a window manager, some
    // desktops): Ctrl+P and Ctrl+Q would do nothing until the window is clicked.
    window_->raise();
    window_->activateWindow();
    QWidget* target = window_->centralWidget();
    if (auto* tabs = qobject_cast<QTabWidget*>(target); tabs && tabs->currentWidget())
        target = tabs->currentWidget();
    if (target) target->setFocus(Qt::ActiveWindowFocusReason);
}

bool LessonActions::showStartPageOnFirstLaunch()
{
    QSettings settings;
    if (!settings.value(QStringLiteral("lessons/showStartPage"), true).toBool()) return false;
    settings.setValue(StartPage::shownKey(), true);
    showStartPage();
    return true;
}

void LessonActions::setLanguage(const QString& code)
{
    setLessonLanguage(code);
    fillMenu();
    panel_->refresh();
    if (startPage_) {
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(startPage_, &change);
    }
}

bool LessonActions::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == window_ && event->type() == QEvent::LanguageChange) fillMenu();
    return QObject::eventFilter(watched, event);
}

}  // namespace attnlab
