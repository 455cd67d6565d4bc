// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/language.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

namespace attnlab {

namespace {

const QString kEnglish = QStringLiteral("en");
const QString kChinese = QStringLiteral("zh_CN");
const QString kSettingsKey = QStringLiteral("ui/language");

struct Installed {
    QString code = QStringLiteral("en");
    QList<QPointer<QTranslator>> translators;
};

Installed& installed()
{
    static Installed state;
    return state;
}

// Loads `file` from `dir` and installs it; false (and nothing installed) when it is missing.
bool install(const QString& file, const QString& dir)
{
    auto* translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(file, dir)) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    installed().translators.append(translator);
    return true;
}

QString normalised(const QString& code)
{
    if (code.isEmpty()) return systemLanguage();
    if (code.startsWith(QLatin1String("zh"))) return kChinese;
    return kEnglish;
}

}  // namespace

QList<LanguageChoice> availableLanguages()
{
    return {{kEnglish, QStringLiteral("English")}, {kChinese, QStringLiteral("简体中文")}};
}

QString systemLanguage()
{
    // uiLanguages() follows LANGUAGE, then LC_ALL / LC_MESSAGES / LANG.
    for (const QString& lang : QLocale::system().uiLanguages()) {
        if (lang.startsWith(QLatin1String("zh"))) return kChinese;
        if (lang.startsWith(QLatin1String("en"))) return kEnglish;
    }
    return kEnglish;
}

QString currentLanguage()
{
    return installed().code;
}

QString savedLanguage()
{
    return QSettings().value(kSettingsKey).toString();
}

void setLanguage(const QString& code)
{
    const QString target = normalised(code);
    Installed& state = installed();
    if (target == state.code && !state.translators.isEmpty()) return;
    for (const QPointer<QTranslator>& t : std::as_const(state.translators)) {
        if (!t) continue;
        QCoreApplication::removeTranslator(t);
        delete t.data();
    }
    state.translators.clear();
    // English needs only the plural forms of attnlab_en.qm; Chinese needs both catalogues.
    if (!install(QStringLiteral("attnlab_") + target, QStringLiteral(":/i18n")))
        qWarning("attnlab: no translation for %s", qPrintable(target));
    if (target != kEnglish && !install(QStringLiteral("qtbase_") + target,
                                       QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        qWarning("attnlab: Qt's own translation qtbase_%s.qm is missing", qPrintable(target));
    QLocale::setDefault(QLocale(target == kEnglish ? QStringLiteral("en_US") : target));
    state.code = target;
}

void chooseLanguage(const QString& code)
{
    QSettings().setValue(kSettingsKey, code);
    setLanguage(code);
}

void applySavedLanguage()
{
    setLanguage(savedLanguage());
}

QMenu* addLanguageMenu(QMenu* parent)
{
    QMenu* menu = parent->addMenu(QCoreApplication::translate("attnlab::Language", "&Language"));
    auto* group = new QActionGroup(menu);
    const QString saved = savedLanguage();
    auto add = [&](const QString& code, const QString& name) {
        QAction* a = menu->addAction(name);
        a->setCheckable(true);
        a->setChecked(saved == code);
        a->setData(code);
        group->addAction(a);
        // Queued: the switch rebuilds the menus, so not while this menu is still emitting.
        QObject::connect(
            a, &QAction::triggered, menu, [code] { chooseLanguage(code); }, Qt::QueuedConnection);
    };
    add(QString(), QCoreApplication::translate("attnlab::Language", "&System default"));
    menu->addSeparator();
    for (const LanguageChoice& l : availableLanguages()) add(l.code, l.name);
    return menu;
}

}  // namespace attnlab
