// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab model`'s edits of a real model's heads: --edit ROLE,layer=L,head=H,index=I,scale=S
// (ROLE key, query or value; the projected vector of that position scaled) and
// --ablate layer=L,head=H[,mean] (the head's output set to zero, or to its mean over
// positions). Layers, heads and positions count from 1, as the window shows them.

#include <vector>

#include <QString>
#include <QStringList>

#include "core/model/head_edit.h"

namespace attnlab::cli {

// Parses every --edit and --ablate value (edits first, in order); false with a message naming
// the argument on the first bad one. Ranges are checked later, against the model and the text.
bool parseModelEdits(const QStringList& edits, const QStringList& ablations,
                     std::vector<attn::model::HeadEdit>& out, QString& error);

// An edit the core refused or that made the run overflow, in the words of the command line:
// the option as it was typed (`edits` then `ablations`, as parseModelEdits() read them), and
// what is wrong with it.
QString editRefusal(const attn::Status& s, const QStringList& edits, const QStringList& ablations);

}  // namespace attnlab::cli
