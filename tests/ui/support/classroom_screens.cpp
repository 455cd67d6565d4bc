// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/classroom_screens.h"

#include <QCoreApplication>
#include <QTest>
#include <QWidget>

#include "support/session_test_support.h"
#include "ui/window/language.h"

namespace attnlab::testing {

void useScreen(const Screen& screen)
{
    isolateSettings();
    setLanguage(QString::fromLatin1(screen.language));
    QCoreApplication::sendPostedEvents();
}

bool showOnScreen(QWidget& window, const Screen& screen)
{
    window.resize(screen.width, screen.height);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

}  // namespace attnlab::testing
