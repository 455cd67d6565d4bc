// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/workbench_opener.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>

namespace attnlab {

namespace {

class WorkbenchOpenerTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::WorkbenchOpener)
};

struct Registration {
    QPointer<QObject> owner;
    WorkbenchOpener open;
};

Registration& registration()
{
    static Registration r;
    return r;
}

}  // namespace

void setWorkbenchOpener(QObject* owner, WorkbenchOpener open)
{
    registration() = {owner, std::move(open)};
}

bool canOpenInWorkbench()
{
    const Registration& r = registration();
    return r.owner && r.open;
}

bool openInWorkbench(const HeadRequest& request, QString& error)
{
    if (!canOpenInWorkbench()) {
        error = WorkbenchOpenerTr::tr("There is no workbench window to open the head in.");
        return false;
    }
    return registration().open(request, error);
}

}  // namespace attnlab
