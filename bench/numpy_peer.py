#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""numpy peer of attnlab_bench: the same single-head attention problems in numpy.

Run with /usr/bin/python3 (Debian's numpy); see bench/compare.sh.

For each case: X (n x d_model), W_Q, W_K, W_V (d_model x d_k), float32 or float64, then
    Q = X W_Q, K = X W_K, V = X W_V
    S = Q K^T                      (n x n, kept)
    scaled = S / sqrt(d_k)         (kept)
    P = row softmax(scaled)        (kept; causal: the upper triangle is exactly 0)
    O = P V                        (kept)
Every stage is a separate array, as the core keeps every stage.

Causal is the usual numpy formulation: the full S is computed, the future cells are set to
-inf through a precomputed lower-triangular boolean mask (np.where), then the same softmax;
exp(-inf) is exactly 0 in numpy.

Timing: time.perf_counter around the whole computation, warm-up runs first, then the median
(and minimum) of --reps runs. One JSON object per case on stdout, prefixed with "RESULT ";
information lines start with "#".
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np


def blas_info():
    """Which BLAS numpy really calls, with its kernel (architecture) and thread count."""
    try:
        import threadpoolctl  # Debian: python3-threadpoolctl

        return threadpoolctl.threadpool_info()
    except ImportError:
        pass
    # Fallback: the BLAS libraries mapped into this process (Debian's numpy links
    # libblas.so.3, which the alternatives system points at OpenBLAS or reference BLAS).
    libs = set()
    try:
        with open("/proc/self/maps", encoding="ascii", errors="replace") as maps:
            for line in maps:
                path = line.split()[-1]
                if "blas" in path or "lapack" in path:
                    libs.add(os.path.realpath(path))
    except OSError:
        pass
    return [{"filepath": p, "note": "threadpoolctl not installed"} for p in sorted(libs)]


def make_problem(n, d_model, d_k, dtype, seed):
    # Same distributions as attn::randomInput: X ~ N(0,1), W ~ N(0, 1/d_model).
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d_model)).astype(dtype)
    sd = 1.0 / math.sqrt(d_model)
    W_Q, W_K, W_V = (
        (rng.standard_normal((d_model, d_k)) * sd).astype(dtype) for _ in range(3)
    )
    return X, W_Q, W_K, W_V


def attention_self(X, W_Q, W_K, W_V, inv_sqrt_dk):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    S = Q @ K.T
    scaled = S * inv_sqrt_dk
    P = scaled - scaled.max(axis=1, keepdims=True)
    np.exp(P, out=P)
    P /= P.sum(axis=1, keepdims=True)
    O = P @ V
    return Q, K, V, S, scaled, P, O


def attention_causal(X, W_Q, W_K, W_V, inv_sqrt_dk, allowed):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    S = Q @ K.T
    scaled = S * inv_sqrt_dk
    P = np.where(allowed, scaled, -np.inf)  # future cells -> -inf (exp gives exact 0)
    P -= P.max(axis=1, keepdims=True)       # the diagonal is always allowed: max is finite
    np.exp(P, out=P)
    P /= P.sum(axis=1, keepdims=True)
    O = P @ V
    return Q, K, V, S, scaled, P, O


def time_case(mode, dtype, n, d, reps, warmup, seed):
    X, W_Q, W_K, W_V = make_problem(n, d, d, dtype, seed)
    inv_sqrt_dk = dtype(1.0 / math.sqrt(d))  # keep float32 arithmetic in float32
    if mode == "self":
        def run():
            return attention_self(X, W_Q, W_K, W_V, inv_sqrt_dk)
    else:
        # The mask is an input (like a model's registered causal-mask buffer): built once.
        allowed = np.tril(np.ones((n, n), dtype=bool))

        def run():
            return attention_causal(X, W_Q, W_K, W_V, inv_sqrt_dk, allowed)

    out = None
    for _ in range(warmup):
        out = run()
    times = []
    for _ in range(reps):
        out = None  # free the previous stages first, as a fresh computation would
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
    P, O = out[5], out[6]
    assert P.dtype == dtype and O.dtype == dtype, (P.dtype, O.dtype)
    row_sum_err = float(np.abs(P.sum(axis=1, dtype=np.float64) - 1.0).max())
    if mode == "causal":
        assert not np.triu(P, 1).any(), "causal weights must be exactly 0 above the diagonal"
    return {
        "mode": mode,
        "dtype": np.dtype(dtype).name,
        "n": n,
        "d": d,
        "median_ms": statistics.median(times) * 1e3,
        "min_ms": min(times) * 1e3,
        "reps": reps,
        "row_sum_err": row_sum_err,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="128,512,1024,2048,4096")
    ap.add_argument("--modes", default="self,causal")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--d", type=int, default=64, help="d_model = d_k = d_v")
    ap.add_argument("--reps", type=int, default=0,
                    help="timed runs per case (default: 15 for n <= 1024, else 9)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--label", default="", help="copied into every RESULT line")
    args = ap.parse_args()

    print(f"# python {platform.python_version()} ({sys.executable}), numpy {np.__version__}")
    for key in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS",
                "OMP_NUM_THREADS"):
        print(f"# {key}={os.environ.get(key, '(unset)')}")
    info = blas_info()
    for lib in info:
        print("# blas: " + json.dumps(lib, sort_keys=True))
    arch = ";".join(str(lib.get("architecture", "?")) for lib in info) or "?"

    sizes = [int(s) for s in args.sizes.split(",") if s]
    for mode in [m for m in args.modes.split(",") if m]:
        if mode not in ("self", "causal"):
            ap.error(f"unknown mode {mode}")
        for dname in [t for t in args.dtypes.split(",") if t]:
            dtype = {"float32": np.float32, "float64": np.float64}[dname]
            for n in sizes:
                reps = args.reps or (15 if n <= 1024 else 9)
                res = time_case(mode, dtype, n, args.d, reps, args.warmup, args.seed)
                res["label"] = args.label
                res["blas_arch"] = arch
                print("RESULT " + json.dumps(res, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
