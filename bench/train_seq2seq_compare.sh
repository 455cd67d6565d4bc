#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/train_seq2seq_compare.sh: training steps per second of `attnlab train-model --task
# dates` against a plain-PyTorch peer (bench/torch_seq2seq_train_peer.py, float32) on the same
# model, task, batch and steps, in one run, in rounds of (ours, PyTorch).
#
# Environment knobs (all optional):
#   BUILD_DIR=<repo>/build   where attnlab is built (built here if absent)
#   SHAPES="2,2,4,64 3,3,4,256"   encoder layers,decoder layers,heads,d_model per model; the
#                            first is the default translator, the second the large one
#   BATCH=32  STEPS=200 (per round; both sides run STEPS / 5 on the large model)
#   THREADS=2 (PyTorch: torch.set_num_threads, OMP and OpenBLAS threads)
#   OURS_THREADS=1 (--threads of train-model: on two shared cores one thread is faster)
#   ROUNDS=3
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHAPES="${SHAPES:-2,2,4,64 3,3,4,256}"
BATCH="${BATCH:-32}"
STEPS="${STEPS:-200}"
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
  IFS=, read -r LE LD H C <<<"$shape"
  name="$LE + $LD layers, H$H d$C"
  steps=$STEPS
  if (( C >= 256 )); then steps=$(( STEPS / 5 )); fi
  for r in $(seq 1 "$ROUNDS"); do
    rm -rf "$OUT/m"
    "$BIN" train-model --task dates --layers "$LE" --decoder-layers "$LD" --heads "$H" \
      --d-model "$C" --batch "$BATCH" --steps "$steps" --threads "$OURS_THREADS" \
      --measure-every 0 --stop-after "$steps" -o "$OUT/m" >/dev/null 2>&1
    ours=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['steps_done']/j['step_seconds'])" "$OUT/m/training.json")
    peer=$(OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS $PY "$ROOT/bench/torch_seq2seq_train_peer.py" \
      --layers "$LE" --decoder-layers "$LD" --heads "$H" --d-model "$C" --batch "$BATCH" \
      --steps "$steps" --threads "$THREADS" | sed -n 's/^RESULT //p' |
      $PY -c "import json,sys; print(json.load(sys.stdin)['steps_per_second'])")
    $PY -c "import sys; o,p=map(float,sys.argv[1:3]); print(f'| {sys.argv[3]} | {sys.argv[4]} | {o:.1f} | {p:.1f} | {o/p:.2f} |')" \
      "$ours" "$peer" "$name" "$r"
  done
done
