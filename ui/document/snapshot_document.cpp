// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/snapshot_document.h"

namespace attnlab {

namespace {
class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SnapshotDocument)
};
}  // namespace

QString busyMessage()
{
    return Tr::tr("A computation is still running: wait for it or cancel it first.");
}

}  // namespace attnlab
