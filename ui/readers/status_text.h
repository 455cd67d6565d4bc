// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Translated, user-facing text for core statuses.

#include <QString>

#include "core/status.h"

namespace attnlab {

QString statusMessage(const attn::Status& status);

}  // namespace attnlab
