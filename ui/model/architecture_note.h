// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A line under the model window's text that explains, in a sentence each, what a Llama-family
// model does differently from GPT-2: grouped-query heads and rotary positions. Hidden for
// GPT-2 and BERT, whose maps need no such note.

#include <QLabel>

#include "core/model/config.h"

namespace attnlab {

class ModelDocument;

// The sentences for a model with this configuration (empty for GPT-2 and BERT).
QString architectureNote(const attn::model::ModelConfig& config);

class ArchitectureNote : public QLabel {
    Q_OBJECT
public:
    ArchitectureNote(ModelDocument* document, QWidget* parent = nullptr);

private:
    void update();
    ModelDocument* document_;
};

}  // namespace attnlab
