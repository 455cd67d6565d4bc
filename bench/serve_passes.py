# SPDX-License-Identifier: GPL-3.0-or-later
"""How the peers run their passes, given one_pass(n) -> (ms, check): one timed pass of n
tokens, and what its check line holds. Both return the timed passes' times and the last pass's
check of each token count.

in_turn: `warmup` then `reps` passes of each token count in turn.
serve: the --serve mode, as attnlab_model_bench --serve: passes asked for one at a time, so that
bench/serve.sh can interleave them with ours. After `warmup` passes of every token count, prints
"READY"; then each line read from stdin names a token count, whose pass is timed and answered
with "SERVED N MS", until the end of stdin.
"""
import sys


def in_turn(counts, warmup, reps, one_pass):
    times, checks = {}, {}
    for n in counts:
        runs = [one_pass(n) for _ in range(warmup + reps)]
        times[n] = [ms for ms, _ in runs[warmup:]]
        checks[n] = runs[-1][1]
    return times, checks


def serve(counts, warmup, one_pass):
    times = {n: [] for n in counts}
    checks = {}
    for n in counts:
        for _ in range(warmup):
            _, checks[n] = one_pass(n)
    print("READY", flush=True)
    for line in sys.stdin:
        n = int(line)
        if n not in times:
            sys.exit(f"asked for {n} tokens, not one of --tokens")
        ms, checks[n] = one_pass(n)
        times[n].append(ms)
        print(f"SERVED {n} {ms:.3f}", flush=True)
    return times, checks
