#include "ui/window/main_window.h"

#include <QLabel>

namespace attnlab {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("AttnLab"));
    setCentralWidget(new QLabel(tr("AttnLab"), this));
    resize(1280, 800);
}

}  // namespace attnlab
