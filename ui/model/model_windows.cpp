// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_windows.h"

#include "ui/model/model_window.h"
#include "ui/model/seq2seq_window.h"

namespace attnlab {

ModelWindow* ModelWindows::window()
{
    if (!window_) {
        window_ = new ModelWindow;
        window_->setAttribute(Qt::WA_DeleteOnClose);
        window_->translatorOpener = [this](const QString& folder, QString& error) {
            return openTranslator(folder, error) != nullptr;
        };
        Q_EMIT made(window_);
    }
    return window_;
}

Seq2SeqWindow* ModelWindows::newTranslator()
{
    auto* window = new Seq2SeqWindow();
    window->setAttribute(Qt::WA_DeleteOnClose);
    Q_EMIT translatorMade(window);
    return window;
}

Seq2SeqWindow* ModelWindows::openTranslator(const QString& folder, QString& error)
{
    return attnlab::openTranslator(folder, error, newTranslator());
}

}  // namespace attnlab
