#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of attnlab_model_bench: the same GPT-2 forward on the same weights.

    /usr/bin/python3 bench/torch_peer.py FOLDER [--tokens 128,512] [--reps 5] [--warmup 1]
                                                 [--all-logits] [--threads 2] [--serve]

Reads FOLDER/config.json and FOLDER/model.safetensors (F32, bare GPT-2 names, as
make_gpt2_checkpoint.py writes them) into float32 tensors, then times the plain-PyTorch
forward of tests/reference/make_model_fixtures.py (gpt2_forward: eager ops, every layer's
attention probabilities materialised and returned, as attn::model keeps them) on the ids
(i * 7919) mod V. Logits: the last position only, as attn::model::forward computes by default,
unless --all-logits (then every position, on both sides).

Prints "RESULT {json}" lines for each token count (median, min and every time in ms); lines
starting with "#" are information. Run with OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set to
--threads (bench/model_compare.sh does): Debian's torch calls OpenBLAS (pthreads) for addmm and
sizes its own OpenMP pool with torch.set_num_threads. --serve: the passes are asked for one at
a time on stdin (serve_passes.py), to be interleaved with ours (bench/serve.sh).
"""
import argparse
import ctypes
import json
import os
import statistics
import struct
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
import make_model_fixtures as fx  # noqa: E402
from serve_passes import in_turn, serve  # noqa: E402


def read_safetensors(path):
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", f"{name}: {info['dtype']} (only F32 here)"
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype="<f4").reshape(info["shape"])
        out[name] = torch.from_numpy(array.copy())
    return out


def openblas_core():
    for line in open("/proc/self/maps", encoding="ascii", errors="replace"):
        path = line.split()[-1]
        if "libopenblas" in path:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib.openblas_get_corename().decode(), lib.openblas_get_num_threads()
    return None, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--tokens", default="128,512")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--all-logits", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--serve", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.set_grad_enabled(False)
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    w = read_safetensors(os.path.join(args.folder, "model.safetensors"))
    w = {k[len("transformer."):] if k.startswith("transformer.") else k: v for k, v in w.items()}
    torch.ones(64, 64) @ torch.ones(64, 64)  # loads the BLAS before asking it
    core, blas_threads = openblas_core()
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, OpenBLAS kernel {core}, "
          f"OpenBLAS threads {blas_threads}")
    counts = [int(t) for t in args.tokens.split(",")]

    def one_pass(n):
        ids = torch.tensor([(i * 7919) % cfg["vocab_size"] for i in range(n)])
        start = time.perf_counter()
        result = fx.gpt2_forward(w, cfg, ids, last_logits_only=not args.all_logits)
        elapsed = (time.perf_counter() - start) * 1e3
        del result
        return elapsed, None

    times, _ = (serve(counts, args.warmup, one_pass) if args.serve
                else in_turn(counts, args.warmup, args.reps, one_pass))
    for n in counts:
        print("RESULT " + json.dumps({"what": "forward", "tokens": n, "all_logits": args.all_logits,
                                      "median_ms": statistics.median(times[n]),
                                      "min_ms": min(times[n]), "times_ms": times[n],
                                      "blas_core": core}), flush=True)


if __name__ == "__main__":
    main()
