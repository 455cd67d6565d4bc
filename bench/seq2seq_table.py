#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The markdown table of bench/seq2seq_compare.sh's results: per round our median, PyTorch's,
the ratio (goal <= 0.8) and our peak RSS against the checkpoint file plus the result's
matrices (goal <= 1.2). Usage: seq2seq_table.py OUT_DIR"""
import glob
import json
import os
import sys


def results(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("RESULT "):
                r = json.loads(line[7:])
                out[r["what"]] = r
    return out


def main():
    folder = sys.argv[1]
    rounds = sorted(glob.glob(os.path.join(folder, "ours-*.txt")))
    print("| round | source × target | ours (median ms) | PyTorch (median ms) | ratio (goal ≤ 0.8) "
          "| our peak RSS / (file + result) (goal ≤ 1.2) | same top-5 |")
    print("|---|---|---|---|---|---|---|")
    worst_ratio, worst_memory = 0.0, 0.0
    for path in rounds:
        n = path.rsplit("-", 1)[1].split(".")[0]
        ours = results(path)
        peer = results(os.path.join(folder, f"torch-{n}.txt"))
        ratio = ours["forward"]["median_ms"] / peer["forward"]["median_ms"]
        mem = ours["memory"]
        memory = mem["peak_rss_kb"] * 1024 / (mem["weights_bytes"] + mem["result_bytes"])
        worst_ratio, worst_memory = max(worst_ratio, ratio), max(worst_memory, memory)
        same = ours["check"]["top5"] == peer["check"]["top5"]
        print(f"| {n} | {ours['forward']['source']} × {ours['forward']['target']} | "
              f"{ours['forward']['median_ms']:.1f} | {peer['forward']['median_ms']:.1f} | "
              f"{ratio:.2f} | {mem['peak_rss_kb'] / 1024:.0f} MiB / "
              f"{(mem['weights_bytes'] + mem['result_bytes']) / 2**20:.0f} MiB = {memory:.2f} | "
              f"{'yes' if same else 'NO'} |")
    print(f"\nWorst ratio {worst_ratio:.2f} ({'met' if worst_ratio <= 0.8 else 'NOT met'}); "
          f"worst memory {worst_memory:.2f} ({'met' if worst_memory <= 1.2 else 'NOT met'}).")


if __name__ == "__main__":
    sys.exit(main())
