#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Re-extracts the tr() strings of ui/ and app/ into resources/translations/*.ts (the same as
# `cmake --build BUILD --target update_translations`), then lists what still needs a
# translation. Translate those entries (Qt Linguist, or by hand) and rebuild: lrelease runs
# at build time and embeds the .qm files at :/i18n.
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
opts=(-I . -no-obsolete -locations none)
"$LUPDATE" "${opts[@]}" ui app -ts resources/translations/attnlab_zh_CN.ts
# English is the source language: its file holds only the plural forms ("%n edit(s)").
"$LUPDATE" "${opts[@]}" -pluralonly ui app -ts resources/translations/attnlab_en.ts
for ts in resources/translations/*.ts; do
    n=$(grep -c 'type="unfinished"' "$ts" || true)
    echo "$ts: $n unfinished"
done
