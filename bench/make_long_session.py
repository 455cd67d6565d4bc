# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a session of N random tokens (one head; d_model 32 and d_k 16 unless given) for the
# long-map measures:
#   /usr/bin/python3 bench/make_long_session.py N OUT.attnlab.json [self|causal] [D_K [D_MODEL]]
import json, random, sys
n = int(sys.argv[1]); out = sys.argv[2]; mode = sys.argv[3] if len(sys.argv) > 3 else "causal"
dk = int(sys.argv[4]) if len(sys.argv) > 4 else 16
d = int(sys.argv[5]) if len(sys.argv) > 5 else 32
rng = random.Random(5)
g = lambda: round(rng.gauss(0, 1), 4)
W = lambda rows, cols, s=1.0: [[round(rng.gauss(0, s), 4) for _ in range(cols)] for _ in range(rows)]
s = {"format": "attnlab-session", "version": 1, "seed": 5, "d_model": d,
     "target": {"tokens": ["t%d" % i for i in range(n)], "embeddings": W(n, d)},
     "projections": {"heads": 1, "d_k": dk, "d_v": dk, "W_Q": [W(d, dk, 0.5)], "W_K": [W(d, dk, 0.5)],
                     "W_V": [W(d, dk, 0.2)], "W_O": [], "additive": {"d_a": 0, "W_a": [[]], "U_a": [[]], "v": [[]]}},
     "options": {"mode": mode, "scaling": "sqrt_dk", "temperature": 1.0, "score": "dot", "shared_projections": False},
     "edits": []}
json.dump(s, open(out, "w"))
