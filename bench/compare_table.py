#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Side-by-side table for bench/compare.sh.

Usage: compare_table.py OUT_DIR
OUT_DIR holds one directory per round, round-1, round-2, ... (or, from older runs, the files
themselves), each with core.json (attnlab_bench --benchmark_out, with repetitions: median and
min aggregates) and numpy-<label>.txt files (bench/numpy_peer.py output, RESULT lines).
Prints Markdown: the full-attention table, the key-edit table and the goal checks.
Times are "median (min)" in milliseconds: the median over rounds of each round's median, and
the smallest time of any round. A ratio is taken within each round (core and numpy measured
minutes apart, on the same machine state) and the median over rounds is shown, with the
range over rounds beside it; this pairing keeps a drift of the machine's speed between the
core's run and numpy's out of the ratio.
"""

import glob
import json
import math
import statistics
import os
import re
import sys

UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
NAME = re.compile(r"(\w+)/(\w+)/(\w+)/n:(\d+)")
DTYPE = {"float32": "float", "float64": "double"}
MODES = ("self", "causal")
DTYPES = ("float", "double")


def load_core(path):
    """{(what, mode, dtype, n): {"median": ms, "min": ms, "rows": rows recomputed}}"""
    with open(path) as f:
        data = json.load(f)
    core = {}
    for b in data["benchmarks"]:
        m = NAME.match(b.get("run_name", b["name"]))
        if not m:
            continue
        key = (m.group(1), m.group(2), m.group(3), int(m.group(4)))
        if b.get("error_occurred"):
            print(f"core error in {b['name']}: {b.get('error_message')}")
            continue
        entry = core.setdefault(key, {})
        stat = b.get("aggregate_name") if b.get("run_type") == "aggregate" else "median"
        if stat not in ("median", "min"):
            continue
        entry[stat] = b["real_time"] * UNIT_MS[b["time_unit"]]
        if stat == "median" and "rows_recomputed" in b:
            entry["rows"] = b["rows_recomputed"]
    for entry in core.values():
        entry.setdefault("min", entry.get("median"))
    return core


def load_numpy(out_dir):
    """{label: {(mode, dtype, n): {"median": ms, "min": ms}}}, {label: blas kernel}"""
    numpy, arch = {}, {}
    for path in sorted(glob.glob(os.path.join(out_dir, "numpy-*.txt"))):
        with open(path) as f:
            for line in f:
                if not line.startswith("RESULT "):
                    continue
                r = json.loads(line[len("RESULT "):])
                key = (r["mode"], DTYPE[r["dtype"]], r["n"])
                numpy.setdefault(r["label"], {})[key] = {"median": r["median_ms"],
                                                         "min": r["min_ms"]}
                arch[r["label"]] = r["blas_arch"]
    return numpy, arch


def combine(rounds):
    """One {key: {"median", "min", ...}} from several: median of medians, min of mins."""
    out = {}
    for key in set().union(*rounds):
        entries = [r[key] for r in rounds if key in r]
        e = dict(entries[0])
        e["median"] = statistics.median(x["median"] for x in entries)
        e["min"] = min(x["min"] for x in entries)
        out[key] = e
    return out


def round_dirs(out_dir):
    dirs = sorted(glob.glob(os.path.join(out_dir, "round-*")),
                  key=lambda d: int(d.rsplit("-", 1)[1]))
    return dirs or [out_dir]


def ms(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 1 else (f"{x:.2f}" if x < 10 else f"{x:.1f}")


def pair(e):
    return "—" if e is None else f"{ms(e.get('median'))} ({ms(e.get('min'))})"


def ratio(a, b, fmt="{:.2f}"):
    if a is None or b is None:
        return "—"
    return (fmt.format(a["median"] / b["median"]) + " ("
            + fmt.format(a["min"] / b["min"]) + ")")


class Ratios:
    """core/numpy per round for one numpy label: median over rounds, range, min-based."""

    def __init__(self, cores, numpys, label):
        self.cores, self.numpys, self.label = cores, numpys, label

    def per_round(self, key):
        mode, dt, n = key
        rs = []
        for c, p in zip(self.cores, self.numpys):
            ce, pe = c.get(("compute", mode, dt, n)), p.get(self.label, {}).get(key)
            if ce and pe:
                rs.append(ce["median"] / pe["median"])
        return rs

    def median(self, key):
        rs = self.per_round(key)
        return statistics.median(rs) if rs else None

    def cell(self, key, core, numpy):
        rs = self.per_round(key)
        if not rs or core is None or numpy is None:
            return "—"
        by_min = core["min"] / numpy["min"]
        spread = f" [{min(rs):.2f}–{max(rs):.2f}]" if len(rs) > 1 else ""
        return f"{statistics.median(rs):.2f} ({by_min:.2f}){spread}"


def main():
    out_dir = sys.argv[1]
    dirs = round_dirs(out_dir)
    cores = [load_core(os.path.join(d, "core.json")) for d in dirs]
    loaded = [load_numpy(d) for d in dirs]
    numpys = [n for n, _ in loaded]
    arch = {}
    for _, a in loaded:
        arch.update(a)
    core = combine(cores)
    numpy = {l: combine([n[l] for n in numpys if l in n]) for l in arch}
    # The reference peer: the tuned run when there is one (the faster numpy), else auto.
    labels = [l for l in ("tuned", "auto") if l in numpy]
    ref = labels[0] if labels else None
    ratios = {l: Ratios(cores, numpys, l) for l in labels}
    print(f"{len(dirs)} round(s).\n")

    print("### Full attention, every stage kept — ms: median (min)\n")
    print("Ratios: median over rounds of each round's core/numpy (by min), [range over "
          "rounds].\n")
    head = "| mode | dtype | n | core |"
    rule = "| --- | --- | ---: | ---: |"
    for l in labels:
        head += f" numpy, OpenBLAS {arch[l]} | core/numpy ({arch[l]}) |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    sizes = sorted({k[3] for k in core if k[0] == "compute"})
    for mode in MODES:
        for dt in DTYPES:
            for n in sizes:
                c = core.get(("compute", mode, dt, n))
                row = f"| {mode} | {dt} | {n} | {pair(c)} |"
                for l in labels:
                    p = numpy[l].get((mode, dt, n))
                    row += f" {pair(p)} | {ratios[l].cell((mode, dt, n), c, p)} |"
                print(row)

    print("\n### Single key edit vs full recompute — ms: median (min)\n")
    print("setEdit on key n/2, scale alternating 2 and 3; full = setInput at the same n.\n")
    print("| mode | dtype | n | full | key edit | speed-up | rows recomputed per edit |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    edit_sizes = sorted({k[3] for k in core if k[0] == "key_edit"})
    for mode in MODES:
        for dt in DTYPES:
            for n in edit_sizes:
                full = core.get(("full", mode, dt, n))
                edit = core.get(("key_edit", mode, dt, n))
                if full is None or edit is None:
                    continue
                rows = edit.get("rows", math.nan)
                print(f"| {mode} | {dt} | {n} | {pair(full)} | {pair(edit)} | "
                      f"{ratio(full, edit, '{:.1f}×')} | {rows:.1f} |")

    print("\n### Goals (judged on medians; the min-based verdict in brackets)\n")
    if ref:
        for l in labels:
            keys = [(m, d, n) for (w, m, d, n) in core
                    if w == "compute" and n >= 512 and (m, d, n) in numpy[l]]
            medians = [(ratios[l].median(k), *k) for k in keys]
            by_median = [r for r in medians if r[0] is not None]
            by_min = [(core[("compute", *k)]["min"] / numpy[l][k]["min"], *k) for k in keys]
            if not by_median:
                continue
            w, wm = max(by_median), max(by_min)
            verdict = "HOLDS" if w[0] <= 0.7 else "MISSED"
            vmin = "holds" if wm[0] <= 0.7 else "missed"
            tag = "" if l == ref else " (secondary peer)"
            print(f"- core/numpy ≤ 0.7 at every n ≥ 512, numpy with OpenBLAS {arch[l]}{tag}: "
                  f"{verdict} [{vmin}] — worst median ratio {w[0]:.2f} "
                  f"({w[1]}, {w[2]}, n={w[3]}); by min: worst {wm[0]:.2f}")
    slower, worst = [], None
    for dt in DTYPES:
        for n in sizes:
            rs = [c[("compute", "causal", dt, n)]["median"] / c[("compute", "self", dt, n)]["median"]
                  for c in cores
                  if ("compute", "causal", dt, n) in c and ("compute", "self", dt, n) in c]
            if not rs:
                continue
            r = statistics.median(rs)
            worst = max(worst or (r, dt, n), (r, dt, n))
            if r > 1:
                slower.append(f"{dt} n={n}: {r:.2f}")
    if worst:
        verdict = "HOLDS" if not slower else "MISSED (" + "; ".join(slower) + ")"
        print(f"- causal no slower than self (median over rounds of causal/self): {verdict} — "
              f"worst {worst[0]:.2f} ({worst[1]}, n={worst[2]})")
    for dt in DTYPES:
        full, edit = core.get(("full", "self", dt, 4096)), core.get(("key_edit", "self", dt, 4096))
        if full and edit:
            med = full["median"] / edit["median"]
            mn = full["min"] / edit["min"]
            verdict = "HOLDS" if med >= 10 else "MISSED"
            print(f"- key edit at n = 4096 ≥ 10× faster than a full recompute ({dt}, self): "
                  f"{verdict} [{'holds' if mn >= 10 else 'missed'}] — {med:.1f}× (min {mn:.1f}×)")


if __name__ == "__main__":
    main()
