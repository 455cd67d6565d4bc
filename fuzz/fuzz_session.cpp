// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the session reader (parseSessionJson: the list-length pass and the strict
// JSON reader of core/io/json_read.h, the walk over every field, attn::validate). A session that
// reads must also write and read back to the same text (what is written opens again).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <QByteArray>
#include <QString>

#include "ui/readers/session_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    attnlab::SessionFile file;
    attnlab::FileError error;
    if (!attnlab::parseSessionJson(bytes, QStringLiteral("fuzz.attnlab.json"), file, error)) {
        // The message is built as the window shows it.
        (void)error.message();
        return 0;
    }
    const QByteArray written = attnlab::sessionToJson(file);
    attnlab::SessionFile again;
    if (!attnlab::parseSessionJson(written, QStringLiteral("rewritten"), again, error)) {
        std::fprintf(stderr, "a session that read does not read back: %s\n",
                     error.message().toUtf8().constData());
        std::abort();
    }
    if (attnlab::sessionToJson(again) != written) {
        std::fprintf(stderr, "a session written twice differs\n");
        std::abort();
    }
    return 0;
}
