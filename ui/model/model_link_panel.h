// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The workbench's Model panel: where the open head came from (a real model's layer and head,
// Session::provenance), whether the model is attached, and what the workbench's changes do to
// the model's prediction: the predictions before and after and the change of every later head's
// attention (the model window's panels, reading the HeadLink). It only reads the link and the
// document; Attach and Detach call the link's named operations.

#include <QWidget>

class QLabel;
class QPushButton;

namespace attnlab {

class Document;
class HeadLink;
class ModelChangePanel;
class PredictionsPanel;

class ModelLinkPanel : public QWidget {
    Q_OBJECT
public:
    ModelLinkPanel(Document* document, HeadLink* link, QWidget* parent = nullptr);

    [[nodiscard]] QLabel* status() const { return status_; }
    [[nodiscard]] QPushButton* attachButton() const { return attach_; }
    [[nodiscard]] PredictionsPanel* predictions() const { return predictions_; }
    [[nodiscard]] ModelChangePanel* changes() const { return changes_; }
    // Room for the predictions' four columns and a 12-head change grid side by side.
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

private:
    void refresh();

    Document* doc_;
    HeadLink* link_;
    QLabel* title_;
    QLabel* status_;
    QPushButton* attach_;
    QPushButton* detach_;
    PredictionsPanel* predictions_;
    ModelChangePanel* changes_;
};

}  // namespace attnlab
