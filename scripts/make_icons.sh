#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the hicolor PNG icons from the hand-drawn SVG:
#   resources/icons/io.github.attnlab.AttnLab.svg -> resources/icons/hicolor/NxN/apps/*.png
# The PNGs are committed (the build does not need librsvg); run this after changing the SVG.
# Needs rsvg-convert (Debian: librsvg2-bin); installs it when missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
id=io.github.attnlab.AttnLab
svg="$root/resources/icons/$id.svg"
if ! command -v rsvg-convert >/dev/null; then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends librsvg2-bin
fi
for size in 16 24 32 48 64 128 256 512; do
  dir="$root/resources/icons/hicolor/${size}x${size}/apps"
  mkdir -p "$dir"
  rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio --format png \
    --output "$dir/$id.png" "$svg"
  echo "$dir/$id.png"
done
