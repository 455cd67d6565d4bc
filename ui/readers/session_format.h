// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Names and helpers shared by the session-file reader and writer (docs/session-format.md).

#include <optional>

#include <QByteArray>
#include <QString>

#include "core/attention_input.h"

namespace attnlab {

inline constexpr char kSessionFormatTag[] = "attnlab-session";
// Seeds up to 2^53 are written as JSON numbers; larger ones as decimal strings.
inline constexpr quint64 kMaxExactSeed = quint64{1} << 53;

QString modeName(attn::Mode mode);
QString scalingName(attn::Scaling scaling);
QString scoreName(attn::ScoreFunction score);
QString roleName(attn::Role role);
std::optional<attn::Mode> modeFromName(const QString& name);
std::optional<attn::Scaling> scalingFromName(const QString& name);
std::optional<attn::ScoreFunction> scoreFromName(const QString& name);
std::optional<attn::Role> roleFromName(const QString& name);
std::optional<attn::RopeScaling> ropeScalingFromName(const QString& name);

// Shortest text that reads back to the same double; always with '.' or an exponent.
QByteArray jsonNumber(double value);
// A JSON string literal (UTF-8, escaped).
QByteArray jsonString(const QString& text);

// The file path of the field a status of attn::validate names, its lists counted from 1
// (W_K of the first head -> "projections.W_K[1]").
QString fileFieldOf(const attn::Status& status);

}  // namespace attnlab
