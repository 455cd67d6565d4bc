// The command line's access to the built-in lessons. The lessons themselves come in
// a later change; until then there are none, and every id is unknown.
#include "app/cli.h"
#include "ui/document/session.h"

namespace attnlab {

bool findLesson(const QString& id, Session& session)
{
    Q_UNUSED(id);
    Q_UNUSED(session);
    return false;
}

QStringList lessonIds()
{
    return {};
}

}  // namespace attnlab
