#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/portable_compare.sh: the GPT-2-small forward pass of a package-style build
# (ATTNLAB_NATIVE=OFF, the x86-64 baseline, kernels chosen at run time) against a -march=native
# build, on this machine, interleaved in one run.
#
#   bench/portable_compare.sh   build attnlab_model_bench both ways, run rounds of (native,
#                               portable), print the markdown table
#
# Environment knobs (all optional):
#   CKPT=/tmp/attnlab-gpt2-bench/gpt2-small   checkpoint folder (made by make_gpt2_checkpoint.py
#                      when absent, as in model_compare.sh)
#   TOKENS=128,512     sequence lengths
#   THREADS=2          OMP_NUM_THREADS for both
#   ROUNDS=3           rounds of (native, portable); each ratio is taken within a round
#   REPS=5             timed forward passes per length per round (after one warm-up)
#   PARTS=0            1: also print the time of each stage of the pass (--parts)
#   JOBS=1             build parallelism (the builds run under nice -n 15)
#   BUILD_ROOT=...     default <repo>/build-portable-compare (two build folders inside)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_ROOT="${BUILD_ROOT:-$ROOT/build-portable-compare}"
CKPT="${CKPT:-/tmp/attnlab-gpt2-bench/gpt2-small}"
TOKENS="${TOKENS:-128,512}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
REPS="${REPS:-5}"
JOBS="${JOBS:-1}"
PY=/usr/bin/python3

log() { printf '== %s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

need=()
for pkg in cmake ninja-build g++ libeigen3-dev libbenchmark-dev libgtest-dev nlohmann-json3-dev \
           libonig-dev pkg-config python3-torch python3-numpy; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
    log "installing: ${need[*]}"
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [[ ! -f "$CKPT/model.safetensors" ]]; then
    log "writing the checkpoint to $CKPT"
    "$PY" "$ROOT/bench/make_gpt2_checkpoint.py" "$CKPT" >&2
fi

for kind in native portable; do
    native=ON; [[ $kind == portable ]] && native=OFF
    log "configure + build attnlab_model_bench ($kind, ATTNLAB_NATIVE=$native)"
    cmake -S "$ROOT" -B "$BUILD_ROOT/$kind" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON -DATTNLAB_NATIVE=$native >/dev/null
    nice -n 15 cmake --build "$BUILD_ROOT/$kind" --target attnlab_model_bench -j "$JOBS" >&2
done
log "machine: nproc=$(nproc), cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load: $(load)"

out_dir="$BUILD_ROOT/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
parts=()
[[ "${PARTS:-0}" == 1 ]] && parts=(--parts)
for round in $(seq 1 "$ROUNDS"); do
    dir="$out_dir/round-$round"
    mkdir -p "$dir"
    for kind in native portable; do
        log "round $round of $ROUNDS (load $(load)): $kind"
        OMP_NUM_THREADS="$THREADS" "$BUILD_ROOT/$kind/bench/attnlab_model_bench" "$CKPT" \
            --tokens "$TOKENS" --reps "$REPS" --warmup 1 "${parts[@]}" \
            | tee "$dir/$kind.txt" | grep -v '^RESULT ' >&2
    done
done

"$PY" "$ROOT/bench/portable_table.py" "$out_dir" | tee "$out_dir/table.md"
log "load at the end: $(load)"
log "raw results: $out_dir"
