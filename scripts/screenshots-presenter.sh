#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Retakes the presenter-view screenshots in docs/presenter/: every view that F5 presents, at
# 1366×768 (a classroom projector) in English and in Simplified Chinese, in the real program
# under Xvfb (attnlab --present VIEW). The workbench views show the coreference lesson, the
# trainer the learning lesson, the model window's figures a trained model: the built-in
# induction model in English, the built-in Tang poem model in Chinese (MODEL_DIR, a
# checkpoint folder or builtin:NAME, replaces both). Random-weight checkpoints stay in the
# tests and benchmarks: a picture of one teaches nothing about attention.
#   [MODEL_DIR=DIR] [LANGS="en_US zh_CN"] scripts/screenshots-presenter.sh [OUT_DIR] [SIZE]
# Each shot starts from empty settings (its own HOME). Look at the pictures afterwards.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/setup.sh"
attnlab_install_missing xvfb xdotool imagemagick
attnlab_build
bin="$ATTNLAB_BUILD_DIR/app/attnlab"
out="${1:-$root/docs/presenter}"
size="${2:-1366x768}"
mkdir -p "$out"

shoot() {  # shoot LANG FILE ARGS...
  local lang=$1 file=$2 home
  shift 2
  home=$(mktemp -d)
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_RUNTIME_DIR="$home" LANG="$lang.UTF-8" \
    LANGUAGE="$lang" xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
      file=$1; shift
      "$@" & pid=$!
      # Two top-level windows, titled by language: wait for the second (the presenter) to map.
      for _ in $(seq 40); do
        (($(xdotool search --onlyvisible --name "AttnLab" 2>/dev/null | wc -l) >= 2)) && break
        sleep 0.5
      done
      sleep 3   # the maps are drawn from queued replots
      import -window root "$file"
      kill "$pid"' _ "$file" "$bin" "$@"
  rm -rf "$home"
}

for lang in ${LANGS:-en_US zh_CN}; do
  l=${lang%%_*}
  for view in weights difference pipeline heads walkthrough:1 walkthrough:2 walkthrough:3 \
    walkthrough:4 walkthrough:5; do
    file="$out/${view/:/-}-$size-$l.png"
    shoot "$lang" "$file" --lesson coreference-tired --present "$view"
    echo "$file"
  done
  file="$out/trainer-$size-$l.png"
  shoot "$lang" "$file" --lesson learning --present trainer
  echo "$file"
  model="builtin:induction"
  [[ $l == zh ]] && model="builtin:tang"
  model="${MODEL_DIR:-$model}"
  for view in focus grid head-view; do
    file="$out/model-$view-$size-$l.png"
    shoot "$lang" "$file" "$model" --present "$view"
    echo "$file"
  done
done
