// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The real program killed with SIGKILL while it holds unsaved work, and started again.
// How the work becomes unsaved without a person: the test plants the recovery file of an
// earlier crash and starts attnlab --recover (a real option: restore without asking). The
// restored session is modified, so the running program autosaves it under its own pid.

#include <gtest/gtest.h>

#include <QString>

namespace attnlab::testing {

// The attnlab program the tests run: the one this build made (ATTNLAB_BINARY; ui_tests depends
// on the attnlab target, so building the tests builds it), or $ATTNLAB_BINARY where set.
[[nodiscard]] QString attnlabBinary();
// Success when attnlabBinary() is an executable; else a failure that names the path. A test
// that runs the program asserts it, so a missing program fails rather than skips.
[[nodiscard]] ::testing::AssertionResult attnlabBuilt();

// Polls until the file exists (present) or is gone (!present); false when `ms` ran out.
bool waitForFile(const QString& path, int ms, bool present = true);

struct KillRestart {
    QString failure;     // what went wrong, empty when both programs did as they should
    QString firstFile;   // the killed program's recovery file
    QString secondFile;  // the second program's, holding the session it restored
};

// With `planted` an orphan in `recovery`: starts attnlab --recover, waits (up to `ms` each)
// for it to autosave under its own pid and drop the orphan, kills it with SIGKILL, checks
// that its file is now the one orphan, starts attnlab --recover again and waits for the
// second program to take that file over, then kills the second one too. Settings and data
// go under `home`.
[[nodiscard]] KillRestart killAndRestart(const QString& recovery, const QString& planted,
                                         const QString& home, int ms);

}  // namespace attnlab::testing
