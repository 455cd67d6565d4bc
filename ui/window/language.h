// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface language: English (the source strings) or Simplified Chinese. A language is
// a pair of QTranslators — AttnLab's own catalogue, embedded at :/i18n/attnlab_<code>.qm,
// and Qt's qtbase_<code>.qm for the standard dialogs. Installing them makes Qt post
// QEvent::LanguageChange to the windows; MainWindow rebuilds its interface on it.

#include <QList>
#include <QString>

class QMenu;

namespace attnlab {

struct LanguageChoice {
    QString code;  // "en", "zh_CN"
    QString name;  // in its own language: "English", "简体中文"
};

// The languages the interface offers.
[[nodiscard]] QList<LanguageChoice> availableLanguages();
// "zh_CN" when the system locale (LANG, LANGUAGE) is Chinese, else "en".
[[nodiscard]] QString systemLanguage();
// The language now installed ("en" or "zh_CN").
[[nodiscard]] QString currentLanguage();
// The saved choice ("" = follow the system).
[[nodiscard]] QString savedLanguage();
// Installs the translators for `code` ("" = the system's language) and removes the previous
// ones; unknown codes fall back to English. No effect when `code` is already current.
void setLanguage(const QString& code);
// Remembers `code` ("" = follow the system) in QSettings and switches to it.
void chooseLanguage(const QString& code);
// At start-up: the saved choice, else the system's language.
void applySavedLanguage();
// Adds "Language" with English / 简体中文 / System default (checkable) to `parent`.
QMenu* addLanguageMenu(QMenu* parent);

}  // namespace attnlab
