#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/model_compare.sh: attn::model on a GPT-2-small-shaped checkpoint against PyTorch on the
# same weights, in one run.
#
#   bench/model_compare.sh     generate the checkpoint if absent, build attnlab_model_bench,
#                              run rounds of (ours, PyTorch), print the markdown table
#
# Environment knobs (all optional):
#   CKPT=/tmp/attnlab-gpt2-bench/gpt2-small   checkpoint folder (~500 MB; never commit it); made by
#                      make_gpt2_checkpoint.py when absent, with GPT-2's vocab.json/merges.txt
#                      from tests/reference/tokenizers/gpt2 copied beside it
#   TOKENS=128,512     sequence lengths
#   THREADS=2          OMP_NUM_THREADS for ours; torch.set_num_threads, OMP_NUM_THREADS and
#                      OPENBLAS_NUM_THREADS for PyTorch
#   ROUNDS=3           rounds of (ours, PyTorch); each ratio is taken within a round and the median
#                      over rounds is reported
#   INTERLEAVE=1       a round's passes alternate between the sides, one pass at a time, each side
#                      a process of its own started with --serve (bench/serve.sh); 0: each side
#                      runs its passes in one go, one after the other
#   REPS=5             timed forward passes per length per round (after one warm-up)
#   ALL_LOGITS=0       1: logits for every position on both sides (default: the last only, as
#                      attn::model::forward computes by default)
#   TORCH_PASSIVE=1    also run PyTorch with OMP_WAIT_POLICY=PASSIVE each round (its OpenMP pool
#                      and OpenBLAS's threads otherwise spin against each other); the ratio is
#                      taken against the faster PyTorch
#   AVX2=0             1: both sides on their AVX2 kernels, as on a machine without AVX-512: ours
#                      with ATTNLAB_KERNELS=avx2, PyTorch with ATEN_CPU_CAPABILITY=avx2 and
#                      OpenBLAS with OPENBLAS_CORETYPE=Haswell
#   JOBS=1             build parallelism (the build runs under nice -n 15)
#   BUILD_DIR=...      default <repo>/build-bench
#   QUIET_WAIT=0       seconds to wait (at most) for the 1-minute load average to fall below 0.7
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
CKPT="${CKPT:-/tmp/attnlab-gpt2-bench/gpt2-small}"
TOKENS="${TOKENS:-128,512}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
REPS="${REPS:-5}"
JOBS="${JOBS:-1}"
PY=/usr/bin/python3  # Debian's torch and numpy are installed for this interpreter

log() { printf '== %s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# The peer and the checkpoint writer need Debian's torch and numpy (with a threaded OpenBLAS,
# else numpy falls back to the reference BLAS); the build needs the usual tools.
need=()
for pkg in cmake ninja-build g++ libeigen3-dev libbenchmark-dev libgtest-dev nlohmann-json3-dev \
           libonig-dev pkg-config python3-torch python3-numpy libopenblas0-pthread; do
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
for f in vocab.json merges.txt; do
    [[ -f "$CKPT/$f" ]] || cp "$ROOT/tests/reference/tokenizers/gpt2/$f" "$CKPT/"
done

log "configure + build attnlab_model_bench (Release) in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON >/dev/null
nice -n 15 cmake --build "$BUILD_DIR" --target attnlab_model_bench -j "$JOBS" >&2

waited=0
while ((waited < ${QUIET_WAIT:-0})) && "$PY" -c "import sys; sys.exit(float('$(load)'.split()[0]) < 0.7)"; do
    sleep 10
    waited=$((waited + 10))
done
log "machine: nproc=$(nproc), cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load: $(load)"

out_dir="$BUILD_DIR/model-compare-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
logits=()
[[ "${ALL_LOGITS:-0}" == 1 ]] && logits=(--all-logits)
common=(--tokens "$TOKENS" --reps "$REPS" --warmup 1 "${logits[@]}")
torch_env=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS="$THREADS"
           OPENBLAS_NUM_THREADS="$THREADS")
ours_env=(OMP_NUM_THREADS="$THREADS")
if [[ "${AVX2:-0}" == 1 ]]; then
    torch_env+=(ATEN_CPU_CAPABILITY=avx2 OPENBLAS_CORETYPE=Haswell)
    ours_env+=(ATTNLAB_KERNELS=avx2)
fi

source "$ROOT/bench/serve.sh"
for round in $(seq 1 "$ROUNDS"); do
    dir="$out_dir/round-$round"
    mkdir -p "$dir"
    log "round $round of $ROUNDS (load $(load))"
    sides=(ours "$(printf '%q ' env "${ours_env[@]}" \
                   "$BUILD_DIR/bench/attnlab_model_bench" "$CKPT" "${common[@]}")")
    sides+=(torch "$(printf '%q ' env "${torch_env[@]}" "$PY" "$ROOT/bench/torch_peer.py" \
                     "$CKPT" "${common[@]}" --threads "$THREADS")")
    [[ "${TORCH_PASSIVE:-1}" == 1 ]] &&
        sides+=(torch-passive "$(printf '%q ' env "${torch_env[@]}" OMP_WAIT_POLICY=PASSIVE \
                                 "$PY" "$ROOT/bench/torch_peer.py" "$CKPT" "${common[@]}" \
                                 --threads "$THREADS")")
    run_round "$dir" "$REPS" "$TOKENS" "${sides[@]}"
done

"$PY" "$ROOT/bench/model_table.py" "$out_dir" | tee "$out_dir/table.md"
log "load at the end: $(load)"
log "raw results: $out_dir"
