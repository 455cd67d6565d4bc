#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the lesson screenshots in docs/lessons/: every lesson opened in the real window
# under Xvfb, at 1366×768 and at 1920×1080, in English and in Simplified Chinese.
#   scripts/screenshots.sh [OUT_DIR] [LESSON_ID ...]
#   scripts/screenshots.sh --presenter [OUT_DIR] [SIZE]   the presenter views, docs/presenter/
# Each run starts from empty settings (its own HOME), so the default layout is what is shown.
# Look at the pictures afterwards: a test cannot see everything a person sees.
set -euo pipefail
if [[ "${1:-}" == "--presenter" ]]; then
  shift
  exec "$(dirname "${BASH_SOURCE[0]}")/screenshots-presenter.sh" "$@"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/setup.sh"
attnlab_install_missing
for tool in xvfb-run:xvfb xdotool:xdotool import:imagemagick; do
  command -v "${tool%%:*}" >/dev/null || missing="${missing:-} ${tool##*:}"
done
if [[ -n ${missing:-} ]]; then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi
attnlab_build
bin="$ATTNLAB_BUILD_DIR/app/attnlab"
out="${1:-$root/docs/lessons}"
shift || true
mkdir -p "$out"
ids=("$@")
if ((${#ids[@]} == 0)); then
  mapfile -t ids < <(QT_QPA_PLATFORM=offscreen "$bin" lessons | awk 'NF {print $1}')
fi

shoot() {  # shoot SIZE LANG ID FILE
  local size=$1 lang=$2 id=$3 file=$4 home
  home=$(mktemp -d)
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_RUNTIME_DIR="$home" LANG="$lang.UTF-8" \
    LANGUAGE="$lang" xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
      "$0" --lesson "$1" & pid=$!
      wid=$(xdotool search --sync --onlyvisible --name "AttnLab" | head -n 1)
      xdotool windowmove "$wid" 0 0 windowsize --sync "$wid" 100% 100%
      sleep 3   # the maps are drawn from queued replots
      import -window root "$2"
      kill "$pid"' "$bin" "$id" "$file"
  rm -rf "$home"
}

for size in 1366x768 1920x1080; do
  for lang in en_US zh_CN; do
    for id in "${ids[@]}"; do
      file="$out/$id-${size}-${lang%%_*}.png"
      shoot "$size" "$lang" "$id" "$file"
      echo "$file"
    done
  done
done
