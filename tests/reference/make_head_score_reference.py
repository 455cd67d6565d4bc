#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The head detectors' scores (core/head_scores.h) computed with PyTorch, in float64, on the
tiny GPT-2 and BERT checkpoints of make_model_fixtures.py, written beside each as heads.json:
{"m", "sequences": [[2m ids]], "layers": [{"heads": [{"previous_token", "duplicate_token",
"induction", "first_token"}]}]}. tests/core/model/head_detect_test.cpp compares attn::model's.

    /usr/bin/python3 tests/reference/make_head_score_reference.py

Each sequence is m ids drawn at random (numpy, fixed seed) followed by the same m ids. Per head,
over the sequences: previous-token = mean P[i, i-1] (i >= 1), duplicate-token = mean P[i, i-m]
(i >= m), induction = mean P[i, i-m+1] (i >= m), first-token = mean P[i, 0] (i >= 1).
Deterministic: running it again must leave `git diff` empty.
"""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_edit_fixtures import read_safetensors  # noqa: E402
from make_model_fixtures import OUT, bert_forward, gpt2_forward  # noqa: E402

CASES = [("gpt2_tiny", "gpt2", 8, 6, 11), ("bert_tiny", "bert", 8, 6, 12)]


def scores(attention, m):
    """attention: per layer, heads x 2m x 2m. Returns per layer, per head, the four scores."""
    out = []
    for layer in attention:
        heads = []
        for p in layer:
            i = torch.arange(1, 2 * m)
            j = torch.arange(m, 2 * m)
            heads.append({"previous_token": float(p[i, i - 1].mean()),
                          "duplicate_token": float(p[j, j - m].mean()),
                          "induction": float(p[j, j - m + 1].mean()),
                          "first_token": float(p[i, 0].mean())})
        out.append(heads)
    return out


def main():
    torch.set_grad_enabled(False)
    for name, family, m, count, seed in CASES:
        folder = os.path.join(OUT, name)
        with open(os.path.join(folder, "config.json")) as f:
            cfg = json.load(f)
        w = read_safetensors(os.path.join(folder, "model.safetensors"))
        rng = np.random.default_rng(seed)
        forward = gpt2_forward if family == "gpt2" else bert_forward
        sequences, total = [], None
        for _ in range(count):
            half = [int(v) for v in rng.integers(0, cfg["vocab_size"], m)]
            ids = half + half
            sequences.append(ids)
            attention, _ = forward(w, cfg, torch.tensor(ids))
            one = scores(attention, m)
            if total is None:
                total = one
            else:
                for l, layer in enumerate(one):
                    for h, s in enumerate(layer):
                        for k in s:
                            total[l][h][k] += s[k]
        layers = [{"heads": [{k: round(v / count, 12) for k, v in s.items()} for s in layer]}
                  for layer in total]
        doc = {"generator": "tests/reference/make_head_score_reference.py, torch " + torch.__version__,
               "m": m, "sequences": sequences, "layers": layers}
        with open(os.path.join(folder, "heads.json"), "w") as f:
            json.dump(doc, f, indent=None, separators=(",", ":"))
            f.write("\n")
        print("wrote", os.path.join(folder, "heads.json"))


if __name__ == "__main__":
    main()
