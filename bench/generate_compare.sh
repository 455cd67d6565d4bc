#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/generate_compare.sh: greedy generation through attn::model's key/value cache against
# plain PyTorch with a cache of its own (bench/torch_generate_peer.py), same weights, in one run.
#
#   bench/generate_compare.sh   write the checkpoints if absent, build attnlab_generate_bench,
#                               run rounds of (ours, PyTorch) per shape, print the table
#
# Environment knobs (all optional):
#   GPT2_CKPT=/tmp/attnlab-gpt2-bench/gpt2-small   GPT-2-small-shaped, F32 (make_gpt2_checkpoint.py)
#   DECODER_ROOT=/tmp/attnlab-decoder-bench        Llama-family shapes (make_decoder_checkpoint.py)
#   MARIAN_CKPT=/tmp/attnlab-seq2seq-bench/opus-mt  opus-mt-shaped Marian (seq2seq_torch.py --make)
#   SHAPES="gpt2-small qwen3-0.6b opus-mt"
#   PROMPT=128 NEW=128  the prompt's tokens and the tokens written (causal shapes)
#   SOURCE=64 TARGET=64 the source's tokens and the tokens written (opus-mt)
#   THREADS=2          OMP_NUM_THREADS for ours; torch.set_num_threads, OMP_NUM_THREADS and
#                      OPENBLAS_NUM_THREADS for PyTorch
#   ROUNDS=3 REPS=1    rounds of (ours, PyTorch); generations timed per side per round (after one
#                      warm-up); each ratio is taken within its round
#   JOBS=1             build parallelism (the build runs under nice -n 15)
#   BUILD_DIR=...      default <repo>/build-bench
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
GPT2_CKPT="${GPT2_CKPT:-/tmp/attnlab-gpt2-bench/gpt2-small}"
DECODER_ROOT="${DECODER_ROOT:-/tmp/attnlab-decoder-bench}"
MARIAN_CKPT="${MARIAN_CKPT:-/tmp/attnlab-seq2seq-bench/opus-mt}"
SHAPES="${SHAPES:-gpt2-small qwen3-0.6b opus-mt}"
PROMPT="${PROMPT:-128}"
NEW="${NEW:-128}"
SOURCE="${SOURCE:-64}"
TARGET="${TARGET:-64}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
REPS="${REPS:-1}"
JOBS="${JOBS:-1}"
PY=/usr/bin/python3  # Debian's torch and numpy are installed for this interpreter

log() { printf '== %s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
folder() {
    case "$1" in
        gpt2-small) echo "$GPT2_CKPT" ;;
        opus-mt) echo "$MARIAN_CKPT" ;;
        *) echo "$DECODER_ROOT/$1" ;;
    esac
}
# The prompt and the new tokens of a shape: an encoder-decoder's prompt is its source.
lengths() {
    if [[ "$1" == opus-mt ]]; then echo "--prompt $SOURCE --new $TARGET"; else echo "--prompt $PROMPT --new $NEW"; fi
}

# The build's packages (scripts/setup.sh), and the peer's: Debian's torch and numpy with a
# threaded OpenBLAS.
# shellcheck source=../scripts/setup.sh
source "$ROOT/scripts/setup.sh"
attnlab_install_missing python3-torch python3-numpy libopenblas0-pthread

for shape in $SHAPES; do
    dir="$(folder "$shape")"
    [[ -f "$dir/config.json" ]] && continue
    log "writing the $shape checkpoint to $dir"
    if [[ "$shape" == gpt2-small ]]; then
        "$PY" "$ROOT/bench/make_gpt2_checkpoint.py" "$dir" >&2
    elif [[ "$shape" == opus-mt ]]; then
        "$PY" "$ROOT/bench/seq2seq_torch.py" --make "$dir" >&2
    else
        "$PY" "$ROOT/bench/make_decoder_checkpoint.py" "$dir" --shape "$shape" >&2
    fi
done

log "build attnlab_generate_bench (Release) in $BUILD_DIR"
# A build folder already configured (a developer's, with the window) is built as it is.
[[ -f "$BUILD_DIR/CMakeCache.txt" ]] ||
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON >/dev/null
nice -n 15 cmake --build "$BUILD_DIR" --target attnlab_generate_bench -j "$JOBS" >&2
BENCH="$BUILD_DIR/bench/attnlab_generate_bench"
log "machine: nproc=$(nproc), cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load: $(load)"
log "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"

out_dir="$BUILD_DIR/generate-compare-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
common=(--reps "$REPS" --warmup 1)
for round in $(seq 1 "$ROUNDS"); do
    for shape in $SHAPES; do
        ckpt="$(folder "$shape")"
        read -r -a sizes <<<"$(lengths "$shape")"
        dir="$out_dir/$shape/round-$round"
        mkdir -p "$dir"
        log "round $round of $ROUNDS, $shape (load $(load)): ours"
        OMP_NUM_THREADS="$THREADS" "$BENCH" "$ckpt" "${sizes[@]}" "${common[@]}" >"$dir/ours.txt"
        log "round $round, $shape (load $(load)): PyTorch"
        env -u OPENBLAS_CORETYPE OMP_NUM_THREADS="$THREADS" OPENBLAS_NUM_THREADS="$THREADS" \
            "$PY" "$ROOT/bench/torch_generate_peer.py" "$ckpt" "${sizes[@]}" "${common[@]}" \
            --threads "$THREADS" | tee "$dir/torch.txt" | grep -v '^RESULT ' >&2
    done
done
"$PY" "$ROOT/bench/generate_table.py" "$out_dir"
