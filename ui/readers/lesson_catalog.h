// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The built-in lessons: session files and texts compiled in from resources/lessons/
// (see scripts/make_lessons.py). Each lesson is a session plus a short text in
// Simplified Chinese and English; the text is shown in the lesson language, which
// follows the application's locale unless set explicitly.

#include <functional>

#include <QByteArray>
#include <QList>
#include <QString>

#include "ui/readers/dock_layout.h"
#include "ui/readers/session_file.h"

namespace attnlab {

struct Lesson {
    QString id;
    QString titleEn, titleZh;
    QString summaryEn, summaryZh;
    QString textEn, textZh;  // Markdown
    QString sessionPath;     // a resource path, ":/lessons/ID.attnlab.json"
    // Its place in the teaching order, from 1 (the start page, the menu and the user's guide
    // number the lessons so that a teacher can say "lesson 6").
    int number = 0;
    // Its layout as lessons.json gives it: the central tab and the docks shown in each area.
    DockLayout layout;

    // The title, summary and text in the current lesson language.
    [[nodiscard]] QString title() const;
    [[nodiscard]] QString summary() const;
    [[nodiscard]] QString text() const;
    // "Lesson 1 — The hand exercise: …" / "第 1 课 — 动手练习：…", in the lesson language.
    [[nodiscard]] QString numberedTitle() const;
};

// Every lesson, in teaching order. Empty when the resource is missing (a build problem).
const QList<Lesson>& lessons();
// The lessons a lessons.json text lists (what lessons() reads from the resources): entries
// without an id are left out, missing fields read as empty. Texts and sessions are named
// relative to `dir`; `read` returns a text's bytes (empty if absent).
QList<Lesson> parseLessonCatalog(const QByteArray& json, const QString& dir,
                                 const std::function<QByteArray(const QString&)>& read);
// The lesson with this id, or nullptr.
const Lesson* findLessonById(const QString& id);
// Loads and validates the lesson's session. False and `error` set for an unknown id.
bool loadLesson(const QString& id, Session& session, ViewState& view, FileError& error);

// Chinese text with a line-break opportunity (U+200B) before each opening “ and after each
// closing ” that touch Chinese text. Qt's line breaker gives the curly quotes the class QU,
// which forbids a break on either side, so a run such as 地点、“累”、“宽”、代 could only wrap
// as a whole and lines ended early ("有生命、地" / "点、…"). Other text is returned as it is.
QString withBreaksAroundQuotes(const QString& text);

// The lesson language: "zh" or "en". Without an explicit choice it is "zh" when
// QLocale().language() is Chinese, else "en".
QString lessonLanguage();
// Sets the lesson language ("zh" or "en"; empty = follow the locale again). Panels that
// show lesson text refresh on the next QEvent::LanguageChange or when asked.
void setLessonLanguage(const QString& code);

}  // namespace attnlab
