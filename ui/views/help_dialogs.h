// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Help menu's two windows, for the workbench and the model window alike: Keyboard
// shortcuts, read from the windows' actions when it opens (so the list cannot drift from the
// menus), with the keys that no action carries (the presenter's, the walkthrough's arrows,
// Ctrl+click), and the User guide, compiled in from docs/guide.en.md and docs/guide.zh.md and
// shown in the interface language, following it when the language changes.

#include <functional>

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;
class QMenu;
class QTextBrowser;
class QTreeWidget;

namespace attnlab {

struct ShortcutEntry {
    QString group;   // the menu path ("File", "View ▸ Panels"), or "Other" for actions in no menu
    QString action;  // the action's text without its & accelerator mark
    QString keys;    // every key sequence of the action, as the platform writes it
};

// Every enabled-or-not action of `window` that has a shortcut: first those in the menu bar,
// in menu order, then the others (toolbars, panels) by text.
QList<ShortcutEntry> collectShortcuts(const QMainWindow* window);
// The same with every group put under `title` ("Model window ▸ File").
QList<ShortcutEntry> collectShortcuts(const QMainWindow* window, const QString& title);

// Keys handled by a window's key events rather than by an action, translated: the presenter
// window's (its tool actions live in a window that is not open while the list is read), the
// walkthrough's, the heatmaps' and the model view's.
QList<ShortcutEntry> keysWithoutActions();

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }

private:
    QTreeWidget* tree_;
};

class GuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit GuideDialog(QWidget* parent = nullptr);
    [[nodiscard]] QTextBrowser* browser() const { return browser_; }
    // The guide's Markdown in `language` ("zh_CN" or "en"; English for any other).
    static QString guideText(const QString& language);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QTextBrowser* browser_;
};

// Adds "User guide" (F1) and "Keyboard shortcuts" to `menu`; the list shows what `entries`
// returns when it opens. The actions are named HelpGuideAction and HelpShortcutsAction.
void addHelpActions(QMenu* menu, QWidget* window, std::function<QList<ShortcutEntry>()> entries);

}  // namespace attnlab
