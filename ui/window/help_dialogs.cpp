// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/help_dialogs.h"

#include <algorithm>

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
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
#include "ui/window/language.h"

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

ShortcutsDialog::ShortcutsDialog(const QMainWindow* window, QWidget* parent)
    : QDialog(parent), tree_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("ShortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Action"), tr("Shortcut")});
    tree_->setRootIsDecorated(false);
    tree_->setAlternatingRowColors(true);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : collectShortcuts(window)) {
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
    if (const QScreen* s = window->screen()) size = size.boundedTo(s->availableGeometry().size());
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
    setWindowTitle(tr("AttnLab user guide"));
    browser_->setOpenExternalLinks(true);
    const QString text = guideText(currentLanguage());
    browser_->setMarkdown(text.isEmpty() ? tr("The guide is missing from this build.")
                                         : withBreaksAroundQuotes(text));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addWidget(buttons);
    QSize size(760, 820);
    if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size() * 0.9);
    resize(size);
}

}  // namespace attnlab
