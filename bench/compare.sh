#!/usr/bin/env bash
# bench/compare.sh: the core against numpy, side by side, in one run.
#
#   bench/compare.sh                 build attnlab_bench (Release, build-bench/), run it, run the
#                                    numpy peer, print the table and the goal checks
#
# Environment knobs (all optional):
#   THREADS=2          threads for both sides: OMP_NUM_THREADS for the core,
#                      OPENBLAS_NUM_THREADS for numpy
#   JOBS=2             build parallelism
#   REPETITIONS=3      Google Benchmark repetitions (the median is used)
#   BENCH_FILTER=...   --benchmark_filter for attnlab_bench (default: everything)
#   SIZES=128,...      n values for the numpy peer (default: the core's)
#   NUMPY_CORETYPE=X   OpenBLAS kernel for the second numpy run ("none" to skip it); default:
#                      the best kernel for this CPU's flags, run only when OpenBLAS's own
#                      detection picked another one
#   BUILD_DIR=...      default <repo>/build-bench
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
REPETITIONS="${REPETITIONS:-3}"
SIZES="${SIZES:-128,512,1024,2048,4096}"
PY=/usr/bin/python3  # Debian's numpy is installed for this interpreter, not for the PATH one

log() { printf '== %s\n' "$*" >&2; }

# --- packages -------------------------------------------------------------------------------
need=()
for pkg in cmake ninja-build g++ libeigen3-dev libbenchmark-dev libgtest-dev \
           python3-numpy libopenblas0-pthread python3-threadpoolctl; do
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

stamp="$(date +%Y%m%d-%H%M%S)"
out_dir="$BUILD_DIR/compare-$stamp"
mkdir -p "$out_dir"

# --- core -----------------------------------------------------------------------------------
log "core: attnlab_bench, OMP_NUM_THREADS=$THREADS, $REPETITIONS repetitions (median)"
OMP_NUM_THREADS="$THREADS" "$BUILD_DIR/bench/attnlab_bench" \
    --benchmark_repetitions="$REPETITIONS" \
    --benchmark_report_aggregates_only=true \
    --benchmark_filter="${BENCH_FILTER:-.}" \
    --benchmark_out="$out_dir/core.json" --benchmark_out_format=json

# --- numpy ----------------------------------------------------------------------------------
run_numpy() {  # run_numpy <label> <OPENBLAS_CORETYPE or empty>
    local label="$1" coretype="$2"
    local -a envs=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$THREADS")
    [[ -n "$coretype" ]] && envs+=(OPENBLAS_CORETYPE="$coretype")
    log "numpy ($label${coretype:+, OPENBLAS_CORETYPE=$coretype}), OPENBLAS_NUM_THREADS=$THREADS"
    env "${envs[@]}" "$PY" "$ROOT/bench/numpy_peer.py" --sizes "$SIZES" --label "$label" \
        | tee "$out_dir/numpy-$label.txt" | grep -v '^RESULT ' >&2
}
run_numpy auto ""
auto_arch="$(grep -m1 '^RESULT ' "$out_dir/numpy-auto.txt" \
             | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.read()[7:])["blas_arch"])')"
if grep -q '"internal_api": "openblas"' "$out_dir/numpy-auto.txt"; then :; else
    log "WARNING: numpy is not running OpenBLAS (see the blas line above): figures are not fair"
fi

best=""
has() { [[ "$cpu_flags" == *" $1 "* ]]; }
if has avx512f && has avx512bw && has avx512vl && has avx512dq && has avx512cd; then
    best=SkylakeX
elif has avx2 && has fma; then
    best=Haswell
fi
tuned="${NUMPY_CORETYPE:-$best}"
if [[ "$tuned" != none && -n "$tuned" && "$tuned" != "$auto_arch" ]]; then
    log "OpenBLAS chose the '$auto_arch' kernel; this CPU supports '$tuned': running numpy again"
    run_numpy tuned "$tuned"
fi

# --- table ----------------------------------------------------------------------------------
"$PY" - "$out_dir" <<'EOF' | tee "$out_dir/table.md"
import glob, json, os, re, sys

out_dir = sys.argv[1]
core = {}
with open(os.path.join(out_dir, "core.json")) as f:
    data = json.load(f)
unit_ms = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
counters = {}
for b in data["benchmarks"]:
    if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
        continue
    if b.get("error_occurred"):
        print(f"core error in {b['name']}: {b.get('error_message')}")
        continue
    m = re.match(r"(\w+)/(\w+)/(\w+)/n:(\d+)", b["run_name"] if "run_name" in b else b["name"])
    if not m:
        continue
    key = (m.group(1), m.group(2), m.group(3), int(m.group(4)))
    core[key] = b["real_time"] * unit_ms[b["time_unit"]]
    counters[key] = b

numpy = {}  # label -> {(mode, dtype, n): ms}
arch = {}
for path in sorted(glob.glob(os.path.join(out_dir, "numpy-*.txt"))):
    with open(path) as f:
        for line in f:
            if line.startswith("RESULT "):
                r = json.loads(line[7:])
                ctype = {"float32": "float", "float64": "double"}[r["dtype"]]
                numpy.setdefault(r["label"], {})[(r["mode"], ctype, r["n"])] = r["median_ms"]
                arch[r["label"]] = r["blas_arch"]
labels = [l for l in ("auto", "tuned") if l in numpy]

def fmt(x):
    return "—" if x is None else (f"{x:.3f}" if x < 10 else f"{x:.1f}")

head = "| mode | dtype | n | core ms |"
rule = "| --- | --- | ---: | ---: |"
for l in labels:
    head += f" numpy ms ({arch[l]}) | core/numpy ({arch[l]}) |"
    rule += " ---: | ---: |"
print("### Full attention, every stage kept (median wall time)\n")
print(head)
print(rule)
modes = ("self", "causal")
sizes = sorted({k[3] for k in core if k[0] == "compute"})
for mode in modes:
    for dt in ("float", "double"):
        for n in sizes:
            c = core.get(("compute", mode, dt, n))
            row = f"| {mode} | {dt} | {n} | {fmt(c)} |"
            for l in labels:
                p = numpy[l].get((mode, dt, n))
                ratio = f"{c / p:.2f}" if c and p else "—"
                row += f" {fmt(p)} | {ratio} |"
            print(row)

print("\n### Single key edit (key n/2, scale alternating 2 and 3) vs full recompute (setInput)\n")
print("| mode | dtype | n | full ms | edit ms | speed-up | rows recomputed per edit |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
edit_sizes = sorted({k[3] for k in core if k[0] == "key_edit"})
for mode in modes:
    for dt in ("float", "double"):
        for n in edit_sizes:
            full = core.get(("full", mode, dt, n))
            edit = core.get(("key_edit", mode, dt, n))
            if full is None or edit is None:
                continue
            rows = counters[("key_edit", mode, dt, n)].get("rows_recomputed", float("nan"))
            print(f"| {mode} | {dt} | {n} | {fmt(full)} | {fmt(edit)} | "
                  f"{full / edit:.1f}× | {rows:.0f} |")

print("\n### Goals\n")
ref = "tuned" if "tuned" in labels else (labels[0] if labels else None)
if ref:
    worst = None
    for (what, mode, dt, n), c in core.items():
        p = numpy[ref].get((mode, dt, n))
        if what == "compute" and n >= 512 and p:
            r = c / p
            if worst is None or r > worst[0]:
                worst = (r, mode, dt, n)
    if worst:
        ok = "HOLDS" if worst[0] <= 0.7 else "MISSED"
        print(f"- core/numpy ≤ 0.7 at every n ≥ 512 (numpy {arch[ref]}): {ok} — worst "
              f"{worst[0]:.2f} ({worst[1]}, {worst[2]}, n={worst[3]})")
    for l in labels:
        if l == ref:
            continue
        rs = [(c / numpy[l][(m, d, n)], m, d, n) for (w, m, d, n), c in core.items()
              if w == "compute" and n >= 512 and (m, d, n) in numpy[l]]
        if rs:
            w = max(rs)
            print(f"- (against numpy {arch[l]}: worst core/numpy {w[0]:.2f}, {w[1]}, {w[2]}, "
                  f"n={w[3]})")
slower = []
for dt in ("float", "double"):
    for n in sizes:
        s, c = core.get(("compute", "self", dt, n)), core.get(("compute", "causal", dt, n))
        if s and c and c > s:
            slower.append(f"{dt} n={n}: causal/self {c / s:.2f}")
print("- causal no slower than self: " + ("HOLDS" if not slower else
      "MISSED (" + "; ".join(slower) + ")"))
for dt in ("float", "double"):
    full, edit = core.get(("full", "self", dt, 4096)), core.get(("key_edit", "self", dt, 4096))
    if full and edit:
        ok = "HOLDS" if full / edit >= 10 else "MISSED"
        print(f"- key edit at n=4096 ≥ 10× faster than full recompute ({dt}, self): {ok} — "
              f"{full / edit:.1f}×")
EOF
log "raw results: $out_dir"
