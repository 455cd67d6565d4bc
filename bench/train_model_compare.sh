#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/train_model_compare.sh: training steps per second of `attnlab train-model` against a
# plain-PyTorch peer (bench/torch_train_peer.py, float32) on the same model, batch and steps, in
# one run, in rounds of (ours, PyTorch).
#
# Environment knobs (all optional):
#   BUILD_DIR=<repo>/build   where attnlab is built (built here if absent)
#   SHAPES="2,4,64,64,1 4,4,256,256,0"   layers,heads,d_model,context,attention-only per model;
#                            the first is the default induction model, the second the large one
#   BATCH=32  STEPS=100 (ours, per round; PyTorch runs STEPS / 5 on the large model)
#   THREADS=2 (PyTorch: torch.set_num_threads, OMP and OpenBLAS threads)
#   OURS_THREADS=1 (--threads of train-model: on two shared cores one thread is faster)
#   ROUNDS=3
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHAPES="${SHAPES:-2,4,64,64,1 4,4,256,256,0}"
BATCH="${BATCH:-32}"
STEPS="${STEPS:-100}"
THREADS="${THREADS:-2}"
OURS_THREADS="${OURS_THREADS:-1}"
ROUNDS="${ROUNDS:-3}"
PY=/usr/bin/python3
BIN="$BUILD_DIR/app/attnlab"
if [[ ! -x "$BIN" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  nice -n 15 cmake --build "$BUILD_DIR" --target attnlab
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
printf '| model | round | ours steps/s | PyTorch steps/s | ratio (ours / PyTorch) |\n|---|---|---|---|---|\n'
for shape in $SHAPES; do
  IFS=, read -r L H C T AO <<<"$shape"
  flag=()
  name="L$L H$H d$C T$T"
  if [[ "$AO" == 1 ]]; then flag=(--attention-only); name="$name attention-only"; fi
  steps=$STEPS
  if (( C >= 256 )); then steps=$(( STEPS / 5 )); fi
  for r in $(seq 1 "$ROUNDS"); do
    "$BIN" train-model --task induction --layers "$L" --heads "$H" --d-model "$C" --context "$T" \
      "${flag[@]}" --batch "$BATCH" --steps "$steps" --threads "$OURS_THREADS" --measure-every 0 \
      -o "$OUT/m" >/dev/null 2>&1
    ours=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['steps_done']/j['step_seconds'])" "$OUT/m/training.json")
    peer=$(OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS $PY "$ROOT/bench/torch_train_peer.py" \
      --layers "$L" --heads "$H" --d-model "$C" --context "$T" "${flag[@]}" --batch "$BATCH" \
      --steps "$steps" --threads "$THREADS" | sed -n 's/^RESULT //p' |
      $PY -c "import json,sys; print(json.load(sys.stdin)['steps_per_second'])")
    $PY -c "import sys; o,p=map(float,sys.argv[1:3]); print(f'| {sys.argv[3]} | {sys.argv[4]} | {o:.1f} | {p:.1f} | {o/p:.2f} |')" \
      "$ours" "$peer" "$name" "$r"
  done
done
