// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/help_dialogs.h"

#include <algorithm>

#include <QAction>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFile>
#include <QHeaderView>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/readers/lesson_catalog.h"

namespace attnlab {

namespace {

QString plainText(const QAction* a)
{
    // The Chinese catalogue marks accelerators as "文件(&F)": drop the whole "(&F)".
    static const QRegularExpression cjkAccelerator(QStringLiteral("\\(&[^&]\\)"));
    QString text = a->text();
    text.remove(cjkAccelerator);
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    // Texts made from a tab's title keep the letter alone: "权重(W)".
    static const QRegularExpression cjkLetter(QStringLiteral("(?<=[^\\x{0}-\\x{7F}])\\([A-Z]\\)"));
    text.remove(cjkLetter);
    return text.trimmed();
}

QString keysOf(const QAction* a)
{
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

void walkMenu(const QMenu* menu, const QString& path, QList<ShortcutEntry>& out,
              QSet<const QAction*>& seen)
{
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        if (const QMenu* sub = a->menu()) {
            walkMenu(sub, path + QStringLiteral(" ▸ ") + plainText(a), out, seen);
            continue;
        }
        if (a->shortcuts().isEmpty() || seen.contains(a)) continue;
        seen.insert(a);
        out.append({path, plainText(a), keysOf(a)});
    }
}

}  // namespace

QList<ShortcutEntry> collectShortcuts(const QMainWindow* window)
{
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    if (const auto* bar = qobject_cast<const QMenuBar*>(window->menuWidget())) {
        for (const QAction* top : bar->actions())
            if (const QMenu* menu = top->menu()) walkMenu(menu, plainText(top), out, seen);
    }
    QList<ShortcutEntry> others;
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || seen.contains(a) || a->menu()) continue;
        seen.insert(a);
        others.append({ShortcutsDialog::tr("Other"), plainText(a), keysOf(a)});
    }
    std::sort(others.begin(), others.end(),
              [](const ShortcutEntry& x, const ShortcutEntry& y) { return x.action < y.action; });
    return out + others;
}

QList<ShortcutEntry> collectShortcuts(const QMainWindow* window, const QString& title)
{
    QList<ShortcutEntry> out = collectShortcuts(window);
    for (ShortcutEntry& e : out) e.group = title + QStringLiteral(" ▸ ") + e.group;
    return out;
}

QList<ShortcutEntry> keysWithoutActions()
{
    const QString presenter = ShortcutsDialog::tr("Presenter view (F5)");
    const QString walkthrough = ShortcutsDialog::tr("Walkthrough");
    const QString maps = ShortcutsDialog::tr("Heatmaps");
    const QString model = ShortcutsDialog::tr("Model view");
    const auto key = [](QKeySequence k) { return k.toString(QKeySequence::NativeText); };
    const QString ctrl = key(QKeySequence(Qt::CTRL | Qt::Key_E)).section(QLatin1Char('+'), 0, 0);
    return {
        {presenter, ShortcutsDialog::tr("Leave the presenter view"), QStringLiteral("Esc, F5")},
        {presenter, ShortcutsDialog::tr("No marking tool"), QStringLiteral("N")},
        {presenter, ShortcutsDialog::tr("Pen"), QStringLiteral("P")},
        {presenter, ShortcutsDialog::tr("Highlighter"), QStringLiteral("H")},
        {presenter, ShortcutsDialog::tr("Ring"), QStringLiteral("R")},
        {presenter, ShortcutsDialog::tr("Laser pointer"), QStringLiteral("L")},
        {presenter, ShortcutsDialog::tr("Mark colour 1 to 4"), QStringLiteral("1 … 4")},
        {presenter, ShortcutsDialog::tr("Clear the marks"), QStringLiteral("C")},
        {presenter, ShortcutsDialog::tr("Export the view with its marks"),
         key(QKeySequence(Qt::CTRL | Qt::Key_E))},
        {walkthrough, ShortcutsDialog::tr("Next step"),
         ShortcutsDialog::tr("Right, Page Down, Space")},
        {walkthrough, ShortcutsDialog::tr("Previous step"),
         ShortcutsDialog::tr("Left, Page Up, Backspace")},
        {walkthrough, ShortcutsDialog::tr("First step, last step"),
         ShortcutsDialog::tr("Home, End")},
        {maps, ShortcutsDialog::tr("Move the selected cell"), ShortcutsDialog::tr("Arrow keys")},
        {maps, ShortcutsDialog::tr("Mask or unmask a cell of the weights map"),
         ShortcutsDialog::tr("%1+click").arg(ctrl)},
        {model, ShortcutsDialog::tr("Move between heads and layers"),
         ShortcutsDialog::tr("Arrow keys")},
    };
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent)
    : QDialog(parent), tree_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("ShortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Action"), tr("Shortcut")});
    tree_->setRootIsDecorated(false);
    tree_->setAlternatingRowColors(true);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : entries) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(tree_, {e.group});
            QFont f = group->font(0);
            f.setBold(true);
            group->setFont(0, f);
            group->setFirstColumnSpanned(true);
        }
        new QTreeWidgetItem(group, {e.action, e.keys});
    }
    tree_->expandAll();
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tree_, 1);
    layout->addWidget(buttons);
    QSize size(620, 720);
    if (parent != nullptr)
        if (const QScreen* s = parent->screen())
            size = size.boundedTo(s->availableGeometry().size());
    resize(size);
}

QString GuideDialog::guideText(const QString& language)
{
    const bool chinese = language.startsWith(QLatin1String("zh"));
    QFile f(chinese ? QStringLiteral(":/guide/guide.zh.md")
                    : QStringLiteral(":/guide/guide.en.md"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

GuideDialog::GuideDialog(QWidget* parent) : QDialog(parent), browser_(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("GuideDialog"));
    browser_->setOpenExternalLinks(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addWidget(buttons);
    QSize size(760, 820);
    if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size() * 0.9);
    resize(size);
    retranslate();
}

void GuideDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

// The interface language sets the default locale (ui/window/language.cpp): zh_CN or en_US.
void GuideDialog::retranslate()
{
    setWindowTitle(tr("AttnLab user guide"));
    const QString text = guideText(QLocale().name());
    browser_->setMarkdown(text.isEmpty() ? tr("The guide is missing from this build.")
                                         : withBreaksAroundQuotes(text));
}

void addHelpActions(QMenu* menu, QWidget* window, std::function<QList<ShortcutEntry>()> entries)
{
    QAction* guide = menu->addAction(GuideDialog::tr("&User guide"), window, [window] {
        auto* dialog = new GuideDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    guide->setObjectName(QStringLiteral("HelpGuideAction"));
    guide->setShortcut(QKeySequence::HelpContents);
    QAction* keys = menu->addAction(ShortcutsDialog::tr("&Keyboard shortcuts"), window,
                                    [window, entries = std::move(entries)] {
                                        auto* dialog = new ShortcutsDialog(entries(), window);
                                        dialog->setAttribute(Qt::WA_DeleteOnClose);
                                        dialog->show();
                                    });
    keys->setObjectName(QStringLiteral("HelpShortcutsAction"));
}

}  // namespace attnlab
