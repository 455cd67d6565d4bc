// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A panel's own message line, under the controls that caused it: why a change of this panel
// was refused. Hidden when there is nothing to say. Each panel shows only the refusals of
// its own changes (Document::lastError() after a named operation returned false).

#include <QLabel>

namespace attnlab {

class PanelMessage : public QLabel {
    Q_OBJECT
public:
    explicit PanelMessage(QWidget* parent = nullptr) : QLabel(parent)
    {
        setObjectName(QStringLiteral("PanelMessage"));
        setStyleSheet(QStringLiteral("color: #b00020"));
        setWordWrap(true);
        setTextInteractionFlags(Qt::TextSelectableByMouse);
        hide();
    }
    // Shows `text`, or hides the line when it is empty.
    void say(const QString& text)
    {
        setText(text);
        setVisible(!text.isEmpty());
    }
};

}  // namespace attnlab
