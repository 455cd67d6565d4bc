// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/snapshot_document.h"

namespace attnlab {

namespace {
class SnapshotDocumentTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SnapshotDocument)
};
}  // namespace

QString busyMessage()
{
    return SnapshotDocumentTr::tr(
        "A computation is still running: wait for it or cancel it first.");
}

}  // namespace attnlab
