#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The markdown tables of a bench/decoder_compare.sh run: decoder_table.py OUT_DIR.

OUT_DIR/<shape>/round-*/ours.txt, torch.txt and (optionally) ours-passive.txt and
torch-passive.txt hold the "RESULT {json}" lines of attnlab_model_bench and
torch_decoder_peer.py (the -passive ones ran with OMP_WAIT_POLICY=PASSIVE);
OUT_DIR/<shape>/parts.txt ours with --parts; OUT_DIR/long.txt (optional) one long forward pass of
ours, or a line saying why it was skipped. As in model_table.py, each round's ratio is our
fastest pass over PyTorch's fastest pass in that round, each side in the faster of its two
configurations: a neighbour on a shared machine only ever adds time, and both sides are judged
alike.

Goals (issue #26): forward <= 0.8 x PyTorch's time at every length, in every round; opening
(Model::load and the tokenizer) <= 1 s; peak resident memory <= 1.15 x the checkpoint's size on disk + the activations, i.e. the
floats a forward result keeps at the longest length (every head's map of every layer, every
layer's input, the final states, the logits). The long line: the window's goal for a first
model view at 4,096 tokens is 30 s and 3 GiB.
"""
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_table import results  # noqa: E402

FORWARD_GOAL = 0.8
OPEN_GOAL_MS = 1000.0
RSS_FACTOR = 1.15
LONG_GOAL_S, LONG_GOAL_GIB = 30.0, 3.0
PEERS = ("torch.txt", "torch-passive.txt")
OURS = ("ours.txt", "ours-passive.txt")
PART_ORDER = ("qkv_proj", "rope", "attention", "o_proj", "mlp_proj", "swiglu", "rmsnorm",
              "copies", "logits")


def first(rows, what):
    return next((r for r in rows if r["what"] == what), None)


def of(rows, what):
    return [r for r in rows if r["what"] == what]


def fmt(values, digits=0):
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f})"


def mib(kb_or_bytes, unit="kb"):
    return kb_or_bytes / 1024 if unit == "kb" else kb_or_bytes / 2**20


def main():
    out = sys.argv[1]
    shapes = sorted(d for d in os.listdir(out) if glob.glob(os.path.join(out, d, "round-*")))
    forward_rows, open_rows, check_rows, part_rows = [], [], [], []
    for shape in shapes:
        rounds = sorted(glob.glob(os.path.join(out, shape, "round-*")))
        mine_all = [results(os.path.join(d, OURS[0])) for d in rounds]
        mine_passive = [results(os.path.join(d, OURS[1])) for d in rounds]
        peers_all = [[results(os.path.join(d, f)) for f in PEERS] for d in rounds]
        info = first(mine_all[0], "open")
        name = f"{shape} ({info['model_type']}, {info['layers']} × {info['heads']} heads)"
        tokens = sorted({r["tokens"] for r in of(mine_all[0], "forward")})
        for n in tokens:
            ours, ours_passive, torch, passive, ratios = [], [], [], [], []
            for mine, mine_p, peers in zip(mine_all, mine_passive, peers_all):
                mine_n = [[r for r in of(m, "forward") if r["tokens"] == n] for m in (mine, mine_p)]
                peer_n = [[r for r in of(p, "forward") if r["tokens"] == n] for p in peers]
                if not any(mine_n) or not any(peer_n):
                    continue
                if mine_n[0]:
                    ours += mine_n[0][0]["times_ms"]
                if mine_n[1]:
                    ours_passive += mine_n[1][0]["times_ms"]
                if peer_n[0]:
                    torch += peer_n[0][0]["times_ms"]
                if peer_n[1]:
                    passive += peer_n[1][0]["times_ms"]
                fastest = min(min(p[0]["times_ms"]) for p in peer_n if p)
                ratios.append(min(min(m[0]["times_ms"]) for m in mine_n if m) / fastest)
            if not ratios:
                continue
            verdict = "met" if max(ratios) <= FORWARD_GOAL else \
                f"not met ({sum(r <= FORWARD_GOAL for r in ratios)} of {len(ratios)})"
            forward_rows.append(
                f"| {name} | {n} | {fmt(ours) if ours else '-'} "
                f"| {fmt(ours_passive) if ours_passive else '-'} | {fmt(torch) if torch else '-'} "
                f"| {fmt(passive) if passive else '-'} | **{statistics.median(ratios):.2f}** "
                f"| {', '.join(f'{r:.2f}' for r in ratios)} | {verdict} |")

        # Opening and memory: every process of ours.
        every = mine_all + [m for m in mine_passive if m]
        mems = [first(m, "memory") for m in every if first(m, "memory")]
        # Opening as the window opens a folder: the weights, then the tokenizer.
        load_ms = [first(m, "open")["load_ms"] + (first(m, "tokenizer") or {}).get("load_ms", 0.0)
                   for m in every]
        file_mib = mib(info["file_bytes"], "bytes")
        act_mib = mib(mems[0]["result_bytes"], "bytes")
        budget = RSS_FACTOR * file_mib + act_mib
        peaks = [mib(m["peak_rss_kb"]) for m in mems]
        torch_peaks = [mib(first(p, "memory")["peak_rss_kb"]) for ps in peers_all for p in ps
                       if p and first(p, "memory")]
        open_rows.append(
            f"| {shape} | {file_mib:,.0f} MiB, {info['shards']} file(s); "
            f"{mib(info['copied_bytes'], 'bytes'):,.0f} MiB converted at open "
            f"| {fmt(load_ms)} ms | {'met' if max(load_ms) <= OPEN_GOAL_MS else 'not met'} "
            f"| {mib(info['after_rss_kb']):,.0f} MiB ({mib(info['after_rss_file_kb']):,.0f} file, "
            f"{mib(info['after_rss_anon_kb']):,.0f} anonymous) "
            f"| {fmt(peaks)} MiB at {mems[0]['tokens']} tokens "
            f"| {budget:,.0f} MiB = 1.15 × {file_mib:,.0f} + {act_mib:,.0f} "
            f"| {'met' if max(peaks) <= budget else 'not met'} "
            f"| {fmt(torch_peaks) + ' MiB' if torch_peaks else '-'} |")

        # Same weights, same pass: the last position's logits agree up to float rounding.
        for n in tokens:
            a = next((r for r in of(mine_all[0], "check") if r["tokens"] == n), None)
            b = next((r for r in of(peers_all[0][0], "check") if r["tokens"] == n), None)
            if a and b:
                diff = max(abs(x - y) for x, y in zip(a["logits_head"], b["logits_head"]))
                check_rows.append(f"| {shape} | {n} | {'same' if a['top5'] == b['top5'] else 'differ'}"
                                  f" ({a['top5']} / {b['top5']}) | {diff:.1e} |")

        parts_file = os.path.join(out, shape, "parts.txt")
        for p in of(results(parts_file), "parts"):
            cells = " | ".join(f"{p.get(k + '_ms', 0):,.1f}" for k in PART_ORDER)
            part_rows.append(f"| {shape} | {p['tokens']} | {cells} | {p['sum_ms']:,.1f} |")

    print("Forward pass (every head's map kept, logits of the last position); ms: median (min) "
          "over every timed pass")
    print()
    print("| model | tokens | ours | ours, OMP_WAIT_POLICY=PASSIVE | PyTorch | PyTorch, PASSIVE "
          "| ours / PyTorch (median of rounds) | rounds, fastest passes | goal ≤ 0.8 every round |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    print("\n".join(forward_rows))
    print()
    print("Opening and memory (ours; over every process of the rounds)")
    print()
    print("| model | checkpoint | opening (Model::load + tokenizer.json), ms: median (min) "
          "| goal ≤ 1 s | VmRSS after the open "
          "| peak RSS (ru_maxrss), median (min) | 1.15 × file + activations | goal "
          "| PyTorch's peak RSS |")
    print("|---|---|---:|---|---|---:|---:|---|---:|")
    print("\n".join(open_rows))
    if check_rows:
        print()
        print("| model | tokens | top 5 of the last position, ours / PyTorch | largest difference "
              "of its first 8 logits |")
        print("|---|---:|---|---:|")
        print("\n".join(check_rows))
    if part_rows:
        print()
        print("Where our time goes (--parts, OMP_WAIT_POLICY=PASSIVE, a separate process after the "
              "rounds; ms, median)")
        print()
        print("| model | tokens | " + " | ".join(PART_ORDER) + " | sum |")
        print("|---|---:|" + "---:|" * (len(PART_ORDER) + 1))
        print("\n".join(part_rows))

    long_file = os.path.join(out, "long.txt")
    if os.path.exists(long_file):
        rows = results(long_file)
        skipped = first(rows, "skipped")
        fwd, mem, opened = first(rows, "forward"), first(rows, "memory"), first(rows, "open")
        print()
        if skipped:
            print(f"Long: {skipped['shape']} at {skipped['tokens']} tokens not run: "
                  f"{skipped['why']}")
        elif fwd and mem:
            seconds = fwd["times_ms"][0] / 1e3 if fwd["times_ms"] else fwd["warmup_ms"][0] / 1e3
            peak_gib = mem["peak_rss_kb"] / 2**20
            print("| long run | one forward (the process's first) | peak RSS | the result's floats "
                  f"({'maps pooled' if mem.get('pooled') else 'every map whole'}) "
                  "| window goal: first view ≤ 30 s, ≤ 3 GiB |")
            print("|---|---:|---:|---:|---|")
            print(f"| {first(rows, 'shape')['shape'] if first(rows, 'shape') else ''} "
                  f"{fwd['tokens']} tokens, open {opened['load_ms']:,.0f} ms "
                  f"| {seconds:,.1f} s | {peak_gib:,.2f} GiB "
                  f"| {mem['result_bytes'] / 2**30:,.2f} GiB "
                  f"| time {'met' if seconds <= LONG_GOAL_S else 'not met'}, memory "
                  f"{'met' if peak_gib <= LONG_GOAL_GIB else 'not met'} |")
        else:
            failed = first(rows, "failed")
            print(f"Long run failed: {failed['why'] if failed else 'no result (see long.txt)'}")


if __name__ == "__main__":
    main()
