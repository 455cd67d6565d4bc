#include "ui/window/presenter_window.h"

#include <QKeyEvent>
#include <QVBoxLayout>

#include "ui/panels/walkthrough_panel.h"

namespace attnlab {

PresenterWindow::PresenterWindow(Document* document, QWidget* parent)
    : QWidget(parent, Qt::Window), panel_(new WalkthroughPanel(document, this))
{
    setObjectName(QStringLiteral("PresenterWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("AttnLab — presenter view"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 16, 24, 16);
    layout->addWidget(panel_);
    panel_->setPresenterButtonVisible(false);
    panel_->setFontScale(FontScale);
    setFocusProxy(panel_);
}

void PresenterWindow::keyPressEvent(QKeyEvent* event)
{
    // The panel handles the step keys and passes the others up to here.
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_F5) {
        close();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace attnlab
