#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The markdown table of bench/generate_compare.sh: per shape and round, ours and PyTorch's new
tokens per second (the best generation of the round on each side), their ratio, and ours' time
of the last 16 tokens against the first 16 (the cache keeps a token's cost flat). Whether both
wrote the same greedy ids is said too.

    /usr/bin/python3 bench/generate_table.py OUT_DIR"""
import json
import os
import sys

GOALS = {"gpt2-small": 1.25, "qwen3-0.6b": 1.0, "opus-mt": 1.0}


def results(path):
    with open(path) as f:
        return [json.loads(line[7:]) for line in f if line.startswith("RESULT ")]


def main():
    root = sys.argv[1]
    print("| shape | round | ours, tokens/s | PyTorch, tokens/s | ours / PyTorch | goal | "
          "ours: last 16 / first 16 | same ids |")
    print("|---|---|---|---|---|---|---|---|")
    for shape in sorted(os.listdir(root)):
        rounds = sorted(os.listdir(os.path.join(root, shape)))
        for r in rounds:
            d = os.path.join(root, shape, r)
            ours, torch = results(os.path.join(d, "ours.txt")), results(os.path.join(d, "torch.txt"))
            if not ours or not torch:
                continue
            o = max(ours, key=lambda x: x["tokens_per_s"])
            t = max(torch, key=lambda x: x["tokens_per_s"])
            ratio = o["tokens_per_s"] / t["tokens_per_s"]
            goal = GOALS.get(shape)
            met = "—" if goal is None else (f"≥ {goal}: " + ("met" if ratio >= goal else "not met"))
            flat = o["last16_ms"] / o["first16_ms"]
            same = "yes" if o["ids"] == t["ids"] else "no"
            print(f"| {shape} | {r.split('-')[-1]} | {o['tokens_per_s']:.1f} | "
                  f"{t['tokens_per_s']:.1f} | {ratio:.2f} | {met} | {flat:.2f} "
                  f"({'met' if flat <= 1.5 else 'not met'}) | {same} |")


if __name__ == "__main__":
    main()
