// SPDX-License-Identifier: GPL-3.0-or-later
// The command line's access to the built-in lessons (ui/lessons/lesson_catalog.h).
#include "app/cli.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/readers/session.h"

namespace attnlab {

bool findLesson(const QString& id, Session& session)
{
    ViewState view;
    FileError error;
    return loadLesson(id, session, view, error);
}

QStringList lessonIds()
{
    QStringList ids;
    for (const Lesson& l : lessons()) ids << l.id;
    return ids;
}

QString lessonTitle(const QString& id)
{
    const Lesson* l = findLessonById(id);
    return l ? l->numberedTitle() : QString();
}

}  // namespace attnlab
