// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The folder the last file dialog used, kept in QSettings ("files/lastFolder"), so that every
// export and save dialog of the workbench starts where the user last saved, also after a
// restart, instead of in the home folder each time.

#include <QString>

namespace attnlab {

// The folder last used; the Documents folder (or home) when none was used or it is gone.
[[nodiscard]] QString lastFolder();
// Remembers the folder of `path` (a file), or `path` itself when it is a folder.
void rememberFolderOf(const QString& path);
// `fileName` in the folder last used: the suggestion a save dialog starts with.
[[nodiscard]] QString inLastFolder(const QString& fileName);

}  // namespace attnlab
