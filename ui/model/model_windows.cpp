// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_windows.h"

#include "ui/model/model_window.h"

namespace attnlab {

ModelWindow* ModelWindows::window()
{
    if (!window_) {
        window_ = new ModelWindow;
        window_->setAttribute(Qt::WA_DeleteOnClose);
        Q_EMIT made(window_);
    }
    return window_;
}

}  // namespace attnlab
