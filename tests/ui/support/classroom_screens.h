// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The screens a lesson is projected on, for parameterised window tests: a classroom projector
// (1366×768) and a full-HD screen, each in English and in Chinese.

#include <gtest/gtest.h>
#include <ostream>
#include <string>

class QWidget;

namespace attnlab::testing {

struct Screen {
    int width, height;
    const char* language;  // "en", "zh_CN"
};

inline void PrintTo(const Screen& s, std::ostream* os)
{
    *os << s.width << "x" << s.height << "_" << s.language;
}

inline auto classroomScreens()
{
    return ::testing::Values(Screen{1366, 768, "en"}, Screen{1366, 768, "zh_CN"},
                             Screen{1920, 1080, "en"}, Screen{1920, 1080, "zh_CN"});
}

// "1366x768_zh": the test's name suffix.
inline std::string screenName(const ::testing::TestParamInfo<Screen>& p)
{
    return std::to_string(p.param.width) + "x" + std::to_string(p.param.height) + "_" +
           std::string(p.param.language).substr(0, 2);
}

// A fresh user's settings and the screen's language, before the window is made (set the
// language back to English at the end of the test).
void useScreen(const Screen& screen);
// `window` shown at the screen's size; true once it is exposed.
bool showOnScreen(QWidget& window, const Screen& screen);

}  // namespace attnlab::testing
