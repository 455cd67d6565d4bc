#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of attnlab_model_bench on a Llama-family checkpoint (llama, mistral, qwen2,
qwen3): the same forward on the same weights.

    /usr/bin/python3 bench/torch_decoder_peer.py FOLDER [--tokens 128,512] [--reps 5]
                                                        [--warmup 1] [--threads 2] [--serve]

Reads FOLDER/config.json and FOLDER/model.safetensors (or the shards that
model.safetensors.index.json names) into float32 tensors: BF16 and F16 are widened once, at
load, as PyTorch runs a half-precision checkpoint on the CPU in float32. Then times
tests/reference/make_decoder_fixtures.py's decoder_forward in float32 under
torch.inference_mode(): eager attention, every layer's softmax weights materialised per query
head and returned (what transformers' eager path computes with output_attentions=True, and what
bertviz-style views need; attn::model keeps every map the same way), grouped-query keys and
values repeated per query head (transformers' repeat_kv), and the logits of the last position
only (as attn::model::forward computes by default). Ids are (i * 7919) mod V, as in
attnlab_model_bench.

Prints "RESULT {json}" lines (lines starting with "#" are information):
  open     the load's wall time and bytes of float32 weights
  forward  per token count: median, min and every time in ms (after `warmup` passes)
  check    per token count: the last position's 5 most likely ids and its first 8 logits, to
           compare with attnlab_model_bench's (the same weights, so the same up to rounding)
  memory   the process's peak resident memory (getrusage ru_maxrss) and its VmRSS at the end
Run with OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set to --threads (bench/decoder_compare.sh
does): Debian's torch calls OpenBLAS for the products and sizes its own OpenMP pool with
torch.set_num_threads. --serve: the passes are asked for one at a time on stdin
(serve_passes.py), to be interleaved with ours (bench/serve.sh).
"""
import argparse
import json
import os
import resource
import statistics
import struct
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
import make_decoder_fixtures as dfx  # noqa: E402
from serve_passes import in_turn, serve  # noqa: E402
from torch_peer import openblas_core  # noqa: E402


def widened(raw, dtype):
    """float32 numpy values of a tensor's little-endian bytes."""
    if dtype == "F32":
        return np.frombuffer(raw, dtype="<f4").copy()
    if dtype == "BF16":
        return (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
    if dtype == "F16":
        return np.frombuffer(raw, dtype="<f2").astype(np.float32)
    raise ValueError(f"dtype {dtype} is not read here")


def read_file(path, out):
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        values = widened(data[begin:end], info["dtype"]).reshape(info["shape"])
        out[name] = torch.from_numpy(values)
    del data


def read_checkpoint(folder):
    out = {}
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
    else:
        files = ["model.safetensors"]
    for file in files:
        read_file(os.path.join(folder, file), out)
    return out


def resident_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--tokens", default="128,512")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--serve", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    start = time.perf_counter()
    w = read_checkpoint(args.folder)
    load_ms = (time.perf_counter() - start) * 1e3
    torch.ones(64, 64) @ torch.ones(64, 64)  # loads the BLAS before asking it
    core, blas_threads = openblas_core()
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, OpenBLAS kernel {core}, "
          f"OpenBLAS threads {blas_threads}; {cfg['model_type']}, {cfg['num_hidden_layers']} layers")
    weight_bytes = sum(t.numel() * t.element_size() for t in w.values())
    print("RESULT " + json.dumps({"what": "open", "load_ms": load_ms,
                                  "float32_bytes": weight_bytes}), flush=True)
    counts = [int(t) for t in args.tokens.split(",")]

    def one_pass(n):
        ids = [(i * 7919) % cfg["vocab_size"] for i in range(n)]
        started = time.perf_counter()
        attentions, logits = dfx.decoder_forward(w, cfg, ids, last_logits_only=True)
        elapsed = (time.perf_counter() - started) * 1e3
        last = logits[-1]
        check = {"top5": torch.topk(last, 5).indices.tolist(), "logits_head": last[:8].tolist()}
        del attentions, logits, last
        return elapsed, check

    with torch.inference_mode():
        times, checks = (serve(counts, args.warmup, one_pass) if args.serve
                         else in_turn(counts, args.warmup, args.reps, one_pass))
    for n in counts:
        print("RESULT " + json.dumps({
            "what": "forward", "tokens": n, "all_logits": False,
            "median_ms": statistics.median(times[n]), "min_ms": min(times[n]), "times_ms": times[n],
            "blas_core": core}), flush=True)
        print("RESULT " + json.dumps({"what": "check", "tokens": n, **checks[n]}), flush=True)
    print("RESULT " + json.dumps({
        "what": "memory", "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "end_rss_kb": resident_kb()}), flush=True)


if __name__ == "__main__":
    main()
