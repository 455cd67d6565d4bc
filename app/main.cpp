// attnlab: starts the workbench window. Kept small: the window lives in ui/.
#include <QApplication>

#include "ui/window/main_window.h"

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNLAB_VERSION));
    attnlab::MainWindow window;
    window.show();
    return QApplication::exec();
}
