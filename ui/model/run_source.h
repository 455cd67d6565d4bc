// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the predictions and change panels read: a published model run (ModelSnapshot) and the
// model it came from. The model window's ModelDocument is one; the workbench's HeadLink, which
// carries a real head's edits through its model, is the other.

#include <memory>

#include <QString>

#include "ui/document/document_base.h"

namespace attnlab {

struct ModelSnapshot;

class RunSource : public DocumentBase {
    Q_OBJECT
public:
    using DocumentBase::DocumentBase;

    [[nodiscard]] virtual std::shared_ptr<const ModelSnapshot> snapshot() const = 0;
    [[nodiscard]] virtual bool hasModel() const = 0;
    [[nodiscard]] virtual QString modelType() const = 0;  // "gpt2", "bert"; empty without one

Q_SIGNALS:
    void modelChanged();
    void snapshotChanged();
};

}  // namespace attnlab
