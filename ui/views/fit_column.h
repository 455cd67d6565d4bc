// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A column of controls in a scroll area (the trainers' settings and buttons), kept as wide and as
// high as its words need: they wrap and grow as a run goes on and change with the language, and
// a column fixed at its first size clipped them or scrolled its buttons out of view.

class QScrollArea;

namespace attnlab {

// Sets the scroll area's minimum size from its widget's: call after the words change and when
// the viewport is resized (a new width wraps them anew).
void fitScrollColumn(QScrollArea* scroll);

}  // namespace attnlab
