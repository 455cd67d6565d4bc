#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/seq2seq_compare.sh: attn::model's encoder-decoder pass on a Helsinki-NLP/opus-mt-shaped
# random checkpoint (Marian: d_model 512, 6 + 6 layers, 8 heads, FFN 2,048, vocabulary 65,001,
# F32) against plain PyTorch on the same weights, in one run.
#
#   bench/seq2seq_compare.sh   write the checkpoint if absent, build attnlab_seq2seq_bench, run
#                              ROUNDS rounds of (ours, PyTorch), print the table (seq2seq_table.py)
#
# The pass: teacher-forced, SOURCE source and TARGET target tokens, every encoder, decoder and
# cross map kept, logits for every target position (what the model window and attnlab model
# need). The goals: ours <= 0.8x PyTorch's median time in every round; our peak RSS <= 1.2x the
# checkpoint file plus the result's matrices.
#
# Environment knobs (all optional):
#   CKPT=/tmp/attnlab-seq2seq-bench/opus-mt   the checkpoint folder (305 MB; never commit it)
#   SOURCE=128 TARGET=128   THREADS=2 (OMP_NUM_THREADS for ours; torch.set_num_threads,
#   OMP_NUM_THREADS and OPENBLAS_NUM_THREADS for PyTorch)   ROUNDS=3   REPS=5 (after 1 warm-up)
#   JOBS=1 (build parallelism)   BUILD_DIR=<repo>/build-bench
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
CKPT="${CKPT:-/tmp/attnlab-seq2seq-bench/opus-mt}"
SOURCE="${SOURCE:-128}"
TARGET="${TARGET:-128}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
REPS="${REPS:-5}"
JOBS="${JOBS:-1}"
PY=/usr/bin/python3  # Debian's torch and numpy are installed for this interpreter

log() { printf '== %s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

need=()
for pkg in cmake ninja-build g++ libeigen3-dev libgtest-dev nlohmann-json3-dev libonig-dev \
           libsentencepiece-dev pkg-config python3-torch python3-numpy libopenblas0-pthread; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
    log "installing: ${need[*]}"
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [[ ! -f "$CKPT/config.json" ]]; then
    log "writing the opus-mt-shaped checkpoint to $CKPT"
    "$PY" "$ROOT/bench/seq2seq_torch.py" --make "$CKPT" >&2
fi

log "configure + build attnlab_seq2seq_bench (Release) in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON >/dev/null
nice -n 15 cmake --build "$BUILD_DIR" --target attnlab_seq2seq_bench -j "$JOBS" >&2
BENCH="$BUILD_DIR/bench/attnlab_seq2seq_bench"

log "machine: nproc=$(nproc), cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load: $(load)"
log "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
out_dir="$BUILD_DIR/seq2seq-compare-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
common=(--source "$SOURCE" --target "$TARGET" --reps "$REPS" --warmup 1)
for round in $(seq 1 "$ROUNDS"); do
    log "round $round of $ROUNDS (load $(load)): ours"
    OMP_NUM_THREADS="$THREADS" "$BENCH" "$CKPT" "${common[@]}" | tee "$out_dir/ours-$round.txt" >&2
    log "round $round of $ROUNDS (load $(load)): PyTorch"
    env -u OPENBLAS_CORETYPE OMP_NUM_THREADS="$THREADS" OPENBLAS_NUM_THREADS="$THREADS" \
        "$PY" "$ROOT/bench/seq2seq_torch.py" "$CKPT" "${common[@]}" --threads "$THREADS" \
        | tee "$out_dir/torch-$round.txt" >&2
done
"$PY" "$ROOT/bench/seq2seq_table.py" "$out_dir" | tee "$out_dir/table.md"
log "load at the end: $(load)"
log "raw results: $out_dir"
