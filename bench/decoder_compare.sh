#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/decoder_compare.sh: attn::model on Qwen3-0.6B- and SmolLM2-135M-shaped random checkpoints
# (BF16, as the hub ships them) against plain PyTorch on the same weights, in one run.
#
#   bench/decoder_compare.sh   write the checkpoints if absent, build attnlab_model_bench, run
#                              rounds of (ours, PyTorch) per model, ours once more with --parts,
#                              one long pass, and print the markdown tables (decoder_table.py)
#
# Environment knobs (all optional):
#   CKPT_ROOT=/tmp/attnlab-decoder-bench   where the checkpoints live (1.2 GB + 0.27 GB in BF16;
#                      never commit them): CKPT_ROOT/<shape>, made by make_decoder_checkpoint.py
#   SHAPES="qwen3-0.6b smollm2-135m"
#   DTYPE=bf16         or f32 (then CKPT_ROOT/<shape>-f32)
#   TOKENS=128,512     sequence lengths
#   THREADS=2          OMP_NUM_THREADS for ours; torch.set_num_threads, OMP_NUM_THREADS and
#                      OPENBLAS_NUM_THREADS for PyTorch
#   ROUNDS=3           rounds of (ours, PyTorch) per model; ratios are taken within a round
#   INTERLEAVE=1       a round's passes alternate between the sides (ours, PyTorch, and their
#                      passive runs), one pass at a time, each side a process of its own started
#                      with --serve (bench/serve.sh); 0: each side runs its passes in one go
#   REPS=3             timed forward passes per length per round (after one warm-up)
#   TORCH_PASSIVE=1    also run PyTorch with OMP_WAIT_POLICY=PASSIVE each round; the ratio is
#                      taken against the faster PyTorch
#   OURS_PASSIVE=1     the same for ours (libgomp's spinning barriers cost much on a busy
#                      machine); the ratio takes the faster of ours too, so both sides are judged
#                      alike
#   PARTS=1            ours with --parts once per model, after the rounds (OMP_WAIT_POLICY=PASSIVE,
#                      as the long pass)
#   LONG_SHAPE=smollm2-135m LONG_TOKENS=4096   one forward of ours at that length in a process of
#                      its own (time and peak RSS), its maps pooled as the model window keeps
#                      them from 1,024 tokens on (--pool-above 1024: 512 x 512 cells per head, and
#                      each layer's queries and keys); LONG_TOKENS=0 skips it. It runs under
#                      ulimit -v so that it fails alone rather than starving the machine. The
#                      window's own figure (text to painted model view, every head enlarged) is
#                      attnlab-bench model DIR --long N (docs/PERFORMANCE.md)
#   JOBS=1             build parallelism (the build runs under nice -n 15)
#   BUILD_DIR=...      default <repo>/build-bench
#   QUIET_WAIT=0       seconds to wait (at most) for the 1-minute load average to fall below 0.7
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
CKPT_ROOT="${CKPT_ROOT:-/tmp/attnlab-decoder-bench}"
SHAPES="${SHAPES:-qwen3-0.6b smollm2-135m}"
DTYPE="${DTYPE:-bf16}"
TOKENS="${TOKENS:-128,512}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
REPS="${REPS:-3}"
JOBS="${JOBS:-1}"
LONG_SHAPE="${LONG_SHAPE:-smollm2-135m}"
LONG_TOKENS="${LONG_TOKENS:-4096}"
PY=/usr/bin/python3  # Debian's torch and numpy are installed for this interpreter

log() { printf '== %s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
folder() { if [[ "$DTYPE" == bf16 ]]; then echo "$CKPT_ROOT/$1"; else echo "$CKPT_ROOT/$1-$DTYPE"; fi; }

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

for shape in $SHAPES; do
    dir="$(folder "$shape")"
    if [[ ! -f "$dir/config.json" ]]; then
        log "writing the $shape checkpoint to $dir"
        "$PY" "$ROOT/bench/make_decoder_checkpoint.py" "$dir" --shape "$shape" --dtype "$DTYPE" >&2
    fi
done

log "configure + build attnlab_model_bench (Release) in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON >/dev/null
nice -n 15 cmake --build "$BUILD_DIR" --target attnlab_model_bench -j "$JOBS" >&2
BENCH="$BUILD_DIR/bench/attnlab_model_bench"

waited=0
while ((waited < ${QUIET_WAIT:-0})) && "$PY" -c "import sys; sys.exit(float('$(load)'.split()[0]) < 0.7)"; do
    sleep 10
    waited=$((waited + 10))
done
log "machine: nproc=$(nproc), cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load: $(load)"
log "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"

out_dir="$BUILD_DIR/decoder-compare-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
common=(--tokens "$TOKENS" --reps "$REPS" --warmup 1)
torch_env=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS="$THREADS"
           OPENBLAS_NUM_THREADS="$THREADS")

source "$ROOT/bench/serve.sh"
for round in $(seq 1 "$ROUNDS"); do
    for shape in $SHAPES; do
        ckpt="$(folder "$shape")"
        dir="$out_dir/$shape/round-$round"
        mkdir -p "$dir"
        log "round $round of $ROUNDS, $shape (load $(load))"
        ours=(env OMP_NUM_THREADS="$THREADS")
        peer=(env "${torch_env[@]}")
        sides=(ours "$(printf '%q ' "${ours[@]}" "$BENCH" "$ckpt" "${common[@]}")")
        [[ "${OURS_PASSIVE:-1}" == 1 ]] &&
            sides+=(ours-passive "$(printf '%q ' "${ours[@]}" OMP_WAIT_POLICY=PASSIVE "$BENCH" \
                                    "$ckpt" "${common[@]}")")
        sides+=(torch "$(printf '%q ' "${peer[@]}" "$PY" "$ROOT/bench/torch_decoder_peer.py" \
                         "$ckpt" "${common[@]}" --threads "$THREADS")")
        [[ "${TORCH_PASSIVE:-1}" == 1 ]] &&
            sides+=(torch-passive "$(printf '%q ' "${peer[@]}" OMP_WAIT_POLICY=PASSIVE "$PY" \
                                     "$ROOT/bench/torch_decoder_peer.py" "$ckpt" \
                                     "${common[@]}" --threads "$THREADS")")
        run_round "$dir" "$REPS" "$TOKENS" "${sides[@]}"
    done
done

if [[ "${PARTS:-1}" == 1 ]]; then
    for shape in $SHAPES; do
        log "$shape (load $(load)): ours with --parts"
        OMP_NUM_THREADS="$THREADS" OMP_WAIT_POLICY=PASSIVE "$BENCH" "$(folder "$shape")" \
            "${common[@]}" --parts \
            | grep '^RESULT {"what": "parts"' >"$out_dir/$shape/parts.txt" || true
    done
fi

if [[ "$LONG_TOKENS" != 0 ]]; then
    ckpt="$(folder "$LONG_SHAPE")"
    [[ -f "$ckpt/config.json" ]] || "$PY" "$ROOT/bench/make_decoder_checkpoint.py" "$ckpt" \
        --shape "$LONG_SHAPE" --dtype "$DTYPE" >&2
    # Pooled maps (512 x 512 floats a head), every layer's input and queries and keys, a layer's
    # projections and MLP scratch, and the file's pages.
    need_kb=$("$PY" - "$ckpt" "$LONG_TOKENS" <<'EOF'
import json, os, sys
cfg = json.load(open(os.path.join(sys.argv[1], "config.json")))
n, layers, heads = int(sys.argv[2]), cfg["num_hidden_layers"], cfg["num_attention_heads"]
d, kv = cfg["hidden_size"], cfg.get("num_key_value_heads", heads)
dh = cfg.get("head_dim") or d // heads
size = sum(os.path.getsize(os.path.join(sys.argv[1], f)) for f in os.listdir(sys.argv[1])
           if f.endswith(".safetensors"))
kept = layers * (heads * 512 * 512 + n * (d + (heads + kv) * dh)) * 4
scratch = n * (4 * d + 3 * cfg["intermediate_size"] + 3 * heads * dh) * 4
print(int((kept + scratch + size) / 1024))
EOF
)
    avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
    {
        echo "RESULT {\"what\": \"shape\", \"shape\": \"$LONG_SHAPE\"}"
        if ((avail_kb < need_kb + 2 * 1024 * 1024)); then
            echo "RESULT {\"what\": \"skipped\", \"shape\": \"$LONG_SHAPE\", \"tokens\": $LONG_TOKENS," \
                 "\"why\": \"needs about $((need_kb / 1024)) MiB, $((avail_kb / 1024)) MiB available\"}"
        else
            log "$LONG_SHAPE at $LONG_TOKENS tokens (load $(load)): one forward, needs about $((need_kb / 1024)) MiB"
            if ! (ulimit -v $((avail_kb - 1024 * 1024)) &&
                  OMP_NUM_THREADS="$THREADS" OMP_WAIT_POLICY=PASSIVE "$BENCH" "$ckpt" \
                      --tokens "$LONG_TOKENS" --reps 1 --warmup 0 --pool-above 1024); then
                echo "RESULT {\"what\": \"failed\", \"why\": \"the pass failed under a $(((avail_kb - 1024 * 1024) / 1024)) MiB address-space limit\"}"
            fi
        fi
    } | tee "$out_dir/long.txt" | grep -v '^RESULT ' >&2
fi

"$PY" "$ROOT/bench/decoder_table.py" "$out_dir" | tee "$out_dir/table.md"
log "load at the end: $(load)"
log "raw results: $out_dir"
