// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The application's model window, made when first asked for and deleted when closed. The
// workbench window holds the one instance and hands it to what opens models (its file and
// lesson actions, the start-up of the program); each window is announced (made()) so that
// the holder wires it where it is made, rather than anyone looking it up. Translator windows
// (encoder-decoders), one per folder opened, are made and announced here too.

#include <QObject>
#include <QPointer>

namespace attnlab {

class ModelWindow;
class Seq2SeqWindow;

class ModelWindows : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // The model window, made (and announced) if there is none.
    ModelWindow* window();
    // The model window if one is open, else nullptr.
    [[nodiscard]] ModelWindow* existing() const { return window_; }
    // A new translator window (deleted when closed), announced (translatorMade), not shown.
    Seq2SeqWindow* newTranslator();
    // A new translator window on `folder`, shown and raised; nullptr with a translated `error`
    // (naming the file) when the folder cannot be opened.
    Seq2SeqWindow* openTranslator(const QString& folder, QString& error);

Q_SIGNALS:
    void made(attnlab::ModelWindow* window);
    void translatorMade(attnlab::Seq2SeqWindow* window);

private:
    QPointer<ModelWindow> window_;
};

}  // namespace attnlab
