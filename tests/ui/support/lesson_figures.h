// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a lesson's figure tests share: the lesson's text as the program embeds it, and the check
// that a figure measured in a test stands in both languages' texts.

#include <QString>

namespace attnlab::testing {

// resources/lessons/ID.LANGUAGE.md as the program reads it (":/lessons/..."); empty, with a
// failure, when it is missing.
QString lessonMarkdown(const QString& id, const char* language);

// The figure stands in the lesson's English and Chinese texts (a failure names the language).
void expectInBothTexts(const QString& id, const QString& figure);

// `value` with `decimals` decimals, as the texts write their figures.
QString decimals(double value, int decimals);

}  // namespace attnlab::testing
