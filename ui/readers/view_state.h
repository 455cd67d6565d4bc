// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the window shows, as opposed to what is computed: the selection, how weights are
// coloured, the walkthrough step and the open lesson. Not on the undo stack; saved in session
// files (head, row, column, colours); kept by the Document, so it survives a language switch
// (which rebuilds every panel).

#include <QString>

namespace attnlab {

// How the weights map turns weights into colours.
enum class WeightColors {
    Fixed,      // [0, 1] for every map: maps compare with each other
    DataRange,  // the map's own smallest to largest weight
    PerRow,     // each row divided by its own largest weight: long rows stay visible
    Log,        // log10 of the weight on [-4, 0]: small weights stay visible
};

struct ViewState {
    int head = 0;
    int row = 0;
    int column = 0;
    WeightColors colors = WeightColors::Fixed;
    int walkthroughStep = 1;
    QString lesson{};  // the id of the open lesson, or empty
};

// The file format's names: "fixed", "data", "row", "log".
QString colorsKey(WeightColors colors);
// False when `key` names no colouring.
bool colorsFromKey(const QString& key, WeightColors& colors);

}  // namespace attnlab
