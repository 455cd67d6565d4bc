// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One head of a real model as a workbench session (session format version 2): the tokens as
// the window labels them, the layer's attention input as X, the head's W_Q, W_K, W_V and their
// biases (core/model/head_slice.h), the model's mask and scaling, and where it came from
// (ModelProvenance). The workbench's map of that session is the model's map of that head.

#include <QString>
#include <QStringList>

#include "core/model/forward.h"
#include "ui/readers/session.h"

namespace attnlab {

struct HeadSource {
    const attn::model::Model* model = nullptr;
    const attn::model::ForwardResult* run = nullptr;  // an unedited forward() of `text`
    QStringList labels;                               // one per token, as the window shows them
    QString text;
    QString folder;  // the model folder
    QString sha256;  // of its model.safetensors
};

// The session of head `head` of layer `layer` (from 0). False with a translated `error` when the
// head is outside the model or the run has no cached input for its layer.
bool headSession(const HeadSource& source, int layer, int head, Session& out, QString& error);

// Completes a session of one real head (input set): its model width, seed 1, and an additive
// scorer drawn from that seed (a real model has none; one drawn lets the switch be tried).
void drawAdditive(Session& session);

// "Layer 3, head 5 of gpt2" (1-based, translated), for undo labels and the model panel.
QString headTitle(const ModelProvenance& provenance);

}  // namespace attnlab
