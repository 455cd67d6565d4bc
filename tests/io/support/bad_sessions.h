// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every kind of bad session file, as bytes, with the field and the problem its refusal must
// name. io_tests give each to the reader alone (under the sanitizers too); ui_tests open each
// through the window, which must also keep the open session and never write the bad file.

#include <functional>
#include <ostream>
#include <vector>

#include <QByteArray>

namespace attnlab::testing {

struct BadSessionFile {
    const char* name;
    std::function<QByteArray()> bytes;
    const char* field;    // must appear in the message ("" = none)
    const char* problem;  // must appear in the message
};

// How ctest names and gtest prints a case: by its name, not as raw bytes.
void PrintTo(const BadSessionFile& file, std::ostream* os);

const std::vector<BadSessionFile>& badSessionFiles();

}  // namespace attnlab::testing
