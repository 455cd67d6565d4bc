#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/compare.sh: the core against numpy, side by side, in one run.
#
#   bench/compare.sh                 build attnlab_bench (Release, build-bench/), run it, run the
#                                    numpy peer, print the table and the goal checks
#
# Environment knobs (all optional):
#   THREADS=2          threads for both sides: OMP_NUM_THREADS for the core,
#                      OPENBLAS_NUM_THREADS for numpy
#   JOBS=2             build parallelism
#   ROUNDS=3           rounds of (core, numpy); each ratio is taken within a round and the
#                      median over rounds is reported, so that the machine getting faster or
#                      slower between the core's run and numpy's does not bias it
#   REPETITIONS=3      Google Benchmark repetitions per round (median and min are reported)
#   NUMPY_REPS=0       timed numpy runs per case per round (0: numpy_peer.py's default)
#   BENCH_FILTER=...   --benchmark_filter for attnlab_bench (default: everything)
#   SIZES=128,...      n values for the numpy peer (default: the core's)
#   NUMPY_CORETYPE=X   OpenBLAS kernel for the second numpy run ("none" to skip it); default:
#                      the best kernel for this CPU's flags, run only when OpenBLAS's own
#                      detection picked another one
#   BUILD_DIR=...      default <repo>/build-bench
#   QUIET_WAIT=0       seconds to wait (at most) for the 1-minute load average to fall below
#                      0.7 before measuring; the machine has 2 cores, and another process on
#                      them stalls the core's OpenMP threads (small n: up to 100x slower)
#
# numpy runs with OpenBLAS (pthreads) and with OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE removed
# from its environment (this workplace sets them on some processors for older OpenBLAS builds;
# they slow a current numpy). The kernel OpenBLAS then chooses is printed (threadpoolctl).
# Debian's OpenBLAS 0.3.21 does not know every recent CPU and may fall back to its generic
# "Prescott" kernel; then numpy is also run with the kernel the CPU's flags support, and both
# columns are shown: the goals are judged against the faster numpy.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
THREADS="${THREADS:-2}"
JOBS="${JOBS:-2}"
ROUNDS="${ROUNDS:-3}"
REPETITIONS="${REPETITIONS:-3}"
NUMPY_REPS="${NUMPY_REPS:-0}"
SIZES="${SIZES:-128,512,1024,2048,4096}"
PY=/usr/bin/python3  # Debian's numpy is installed for this interpreter, not for the PATH one

log() { printf '== %s\n' "$*" >&2; }

# --- packages -------------------------------------------------------------------------------
need=()
for pkg in cmake ninja-build g++ libeigen3-dev libbenchmark-dev libgtest-dev nlohmann-json3-dev \
           libonig-dev pkg-config python3-numpy libopenblas0-pthread python3-threadpoolctl; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
    log "installing: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- machine --------------------------------------------------------------------------------
cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2-) "
log "machine: nproc=$(nproc), cpu: $cpu_model, load: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- build ----------------------------------------------------------------------------------
log "configure + build attnlab_bench (Release) in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=ON >/dev/null
cmake --build "$BUILD_DIR" --target attnlab_bench -j "$JOBS"

load1() { cut -d' ' -f1 /proc/loadavg; }
waited=0
while ((waited < ${QUIET_WAIT:-0})) && "$PY" -c "import sys; sys.exit(float('$(load1)') < 0.7)"; do
    sleep 10
    waited=$((waited + 10))
done
if "$PY" -c "import sys; sys.exit(float('$(load1)') < 1.0)"; then
    log "WARNING: load average $(load1) on $(nproc) cores: the figures will be noisy"
fi

stamp="$(date +%Y%m%d-%H%M%S)"
out_dir="$BUILD_DIR/compare-$stamp"
mkdir -p "$out_dir"

# --- rounds: core, then numpy ---------------------------------------------------------------
run_core() {  # run_core <dir>
    log "core: attnlab_bench, OMP_NUM_THREADS=$THREADS, $REPETITIONS repetitions"
    OMP_NUM_THREADS="$THREADS" "$BUILD_DIR/bench/attnlab_bench" \
        --benchmark_repetitions="$REPETITIONS" \
        --benchmark_report_aggregates_only=true \
        --benchmark_filter="${BENCH_FILTER:-.}" \
        --benchmark_out="$1/core.json" --benchmark_out_format=json
}

run_numpy() {  # run_numpy <dir> <label> <OPENBLAS_CORETYPE or empty>
    local dir="$1" label="$2" coretype="$3"
    local -a envs=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$THREADS")
    [[ -n "$coretype" ]] && envs+=(OPENBLAS_CORETYPE="$coretype")
    log "numpy ($label${coretype:+, OPENBLAS_CORETYPE=$coretype}), OPENBLAS_NUM_THREADS=$THREADS"
    env "${envs[@]}" "$PY" "$ROOT/bench/numpy_peer.py" --sizes "$SIZES" --label "$label" \
        --reps "$NUMPY_REPS" | tee "$dir/numpy-$label.txt" | grep -v '^RESULT ' >&2
}

best=""
has() { [[ "$cpu_flags" == *" $1 "* ]]; }
if has avx512f && has avx512bw && has avx512vl && has avx512dq && has avx512cd; then
    best=SkylakeX
elif has avx2 && has fma; then
    best=Haswell
fi
tuned="${NUMPY_CORETYPE:-$best}"

for round in $(seq 1 "$ROUNDS"); do
    dir="$out_dir/round-$round"
    mkdir -p "$dir"
    log "round $round of $ROUNDS"
    run_core "$dir"
    run_numpy "$dir" auto ""
    auto_arch="$(grep -m1 '^RESULT ' "$dir/numpy-auto.txt" \
                 | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.read()[7:])["blas_arch"])')"
    if ! grep -q '"internal_api": "openblas"' "$dir/numpy-auto.txt"; then
        log "WARNING: numpy is not running OpenBLAS (see the blas line above): figures are not fair"
    fi
    if [[ "$tuned" != none && -n "$tuned" && "$tuned" != "$auto_arch" ]]; then
        log "OpenBLAS chose the '$auto_arch' kernel; this CPU supports '$tuned': running numpy again"
        run_numpy "$dir" tuned "$tuned"
    fi
done

# --- table ----------------------------------------------------------------------------------
"$PY" "$ROOT/bench/compare_table.py" "$out_dir" | tee "$out_dir/table.md"
log "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
log "raw results: $out_dir"
