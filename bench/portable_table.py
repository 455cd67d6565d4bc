#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The markdown table of a bench/portable_compare.sh run: portable_table.py OUT_DIR.

OUT_DIR/round-*/native.txt and portable.txt hold "RESULT {json}" lines from attnlab_model_bench.
Each round's figure is the portable build's speed relative to the native build's, from each
side's fastest pass in that round (native min / portable min): on a shared machine a neighbour
only ever adds time to a pass, so the fastest pass is the one least disturbed. The ratio of the
medians is printed beside it. The goal is at least 0.9 in every round.
"""
import glob
import json
import os
import statistics
import sys

GOAL = 0.9


def results(path):
    with open(path) as f:
        return [json.loads(line[7:]) for line in f if line.startswith("RESULT ")]


def main():
    rounds = sorted(glob.glob(os.path.join(sys.argv[1], "round-*")))
    times, speeds, by_median, parts = {}, {}, {}, {}
    for d in rounds:
        runs = {k: results(os.path.join(d, k + ".txt")) for k in ("native", "portable")}
        fwd = {k: {r["tokens"]: r for r in rows if r["what"] == "forward"} for k, rows in runs.items()}
        for k, rows in runs.items():
            for r in rows:
                if r["what"] == "parts":
                    parts.setdefault((k, r["tokens"]), []).append(r)
        for n in fwd["native"]:
            for k in ("native", "portable"):
                times.setdefault((k, n), []).extend(fwd[k][n]["times_ms"])
            best = {k: min(fwd[k][n]["times_ms"]) for k in ("native", "portable")}
            speeds.setdefault(n, []).append(best["native"] / best["portable"])
            by_median.setdefault(n, []).append(fwd["native"][n]["median_ms"] / fwd["portable"][n]["median_ms"])

    fmt = lambda t: f"{statistics.median(t):.0f} ({min(t):.0f})"
    print(f"GPT-2-small forward pass, {len(rounds)} rounds; ms: median (min) over every timed pass")
    print()
    print("| tokens | native | portable | portable speed / native, fastest passes (every round) "
          "| the same from medians | goal ≥ 0.9 in every round |")
    print("|---|---|---|---|---|---|")
    for n in sorted(speeds):
        s = speeds[n]
        print(f"| {n} | {fmt(times[('native', n)])} | {fmt(times[('portable', n)])} | "
              f"{', '.join(f'{x:.2f}' for x in s)} | {', '.join(f'{x:.2f}' for x in by_median[n])} "
              f"| {'met' if min(s) >= GOAL else 'missed'} |")
    if parts:
        names = sorted({key[:-3] for rows in parts.values() for r in rows for key in r if key.endswith("_ms") and key != "sum_ms"})
        print()
        print("Stages (median over rounds of each round's median, ms):")
        print()
        print("| build | tokens | kernel | " + " | ".join(names) + " | sum |")
        print("|---|---|---|" + "---|" * (len(names) + 1))
        for (k, n), rows in sorted(parts.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            med = lambda key: statistics.median(r[key] for r in rows)
            print(f"| {k} | {n} | {rows[0]['gemm_path']} | " +
                  " | ".join(f"{med(x + '_ms'):.1f}" for x in names) + f" | {med('sum_ms'):.1f} |")


if __name__ == "__main__":
    main()
