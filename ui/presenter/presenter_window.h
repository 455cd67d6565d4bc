#pragma once
// The presenter view for the lecture hall: the walkthrough alone, full screen, every text
// twice as large. Esc (or F5 again) leaves; the arrow keys and presentation clickers
// (Page Up / Page Down) step.

#include <QWidget>

namespace attnlab {

class Document;
class WalkthroughPanel;

class PresenterWindow : public QWidget {
    Q_OBJECT
public:
    static constexpr double FontScale = 2.0;

    // A top-level window (parented for lifetime only), deleted when closed.
    explicit PresenterWindow(Document* document, QWidget* parent = nullptr);

    [[nodiscard]] WalkthroughPanel* panel() const { return panel_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    WalkthroughPanel* panel_;
};

}  // namespace attnlab
