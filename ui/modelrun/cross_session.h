// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One cross-attention head of an encoder-decoder as a workbench session in cross mode: the
// target's tokens are the queries' rows (X, what the decoder's cross-attention reads), the
// source's tokens the keys and values (Y, the encoder's output), with the head's W_Q, W_K, W_V
// and biases and the model's scaling (core/model/seq2seq_slice.h). The workbench's map of that
// session is the model's cross map of that head; scaling a key there does what the translator's
// "Double the Key of" does in the model.

#include <QString>

#include "ui/modelrun/seq2seq_run.h"
#include "ui/readers/session.h"

namespace attnlab {

// The session of cross head `head` of decoder layer `layer` (from 0) of `run` (its unedited
// run, so the workbench starts from the model's own head). False with a translated `error`
// when the head is outside the model.
bool crossHeadSession(const LoadedSeq2Seq& loaded, const Seq2SeqSnapshot& run, int layer, int head,
                      Session& out, QString& error);

// "Cross-attention, layer 2, head 3 of marian" (1-based, translated), for the undo step.
QString crossHeadTitle(const LoadedSeq2Seq& loaded, int layer, int head);

}  // namespace attnlab
