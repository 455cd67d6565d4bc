// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Help menu's two windows: Keyboard shortcuts, read from the window's actions when it
// opens (so the list cannot drift from the menus), and the User guide, compiled in from
// docs/guide.en.md and docs/guide.zh.md and shown in the interface language.

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;
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

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QMainWindow* window, QWidget* parent = nullptr);
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

private:
    QTextBrowser* browser_;
};

}  // namespace attnlab
