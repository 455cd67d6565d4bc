// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the lesson catalogue (lessons.json as parseLessonCatalog reads it) and each
// lesson's layout (dockLayoutFrom, read with the catalogue). The texts a catalogue names are
// read from a fake resource that answers every name, so that the fields are all followed.
#include <cstdint>

#include <QByteArray>
#include <QString>

#include "ui/readers/dock_layout.h"
#include "ui/readers/lesson_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QList<attnlab::Lesson> lessons =
        attnlab::parseLessonCatalog(bytes, QStringLiteral(":/lessons/"),
                                    [](const QString& path) { return path.toUtf8().right(16); });
    for (const attnlab::Lesson& l : lessons) {
        (void)l.title();
        (void)l.summary();
        (void)l.text();
        const attnlab::DockLayout& layout = l.layout;
        (void)layout;
    }
    return 0;
}
