// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --edit ROLE,head=H,index=I,scale=S[,component=C,value=X] for `attnlab render` and
// `attnlab compute`: the vector edits of the Keys / Queries / Values panels without the
// window (the textbook's exercise, "double one key", as one command). Heads, positions and
// components count from 1, as the window shows them.

#include <QString>
#include <QStringList>

#include "core/attention_input.h"

namespace attnlab::cli {

// One --edit as given: 0-based numbers, not yet checked against a session.
struct CommandLineEdit {
    QString text;  // as typed, for messages
    attn::VectorEdit edit;
    bool hasScale = false;
};

// Parses every --edit value; false with a message naming the argument on the first bad one
// (syntax, a number out of its kind's range, the same vector twice).
bool parseEdits(const QStringList& values, std::vector<CommandLineEdit>& edits, QString& error);

// Applies the edits on top of the input's own: the scale multiplies the scale the session
// already has for that vector, a component value replaces that component's (before the
// scale, as in the panels). False with a message naming the argument when an edit does not
// fit the session (no such head, position or component).
bool applyEdits(const std::vector<CommandLineEdit>& edits, attn::AttentionInput& input,
                QString& error);

}  // namespace attnlab::cli
