#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Attention rollout (Abnar & Zuidema 2020) and the layer averages computed with PyTorch from
the attention that make_model_fixtures.py stored in each model fixture's expected.json, written
beside it as aggregates.json: {"averages": [L][n*n], "rollout": [L][n*n]} (float64, row-major).

    /usr/bin/python3 tests/reference/make_rollout_reference.py

Rollout: A_l = mean over heads; Â_l = 0.5 A_l + 0.5 I, rows renormalised; R_0 = Â_0,
R_l = Â_l @ R_{l-1}. Deterministic: running it again must leave `git diff` empty.
"""
import json
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = ["gpt2_tiny", "bert_tiny"]


def aggregates(expected):
    n = len(expected["ids"])
    averages, rollout = [], []
    for layer in expected["attention"]:
        heads = torch.tensor(layer, dtype=torch.float64).reshape(len(layer), n, n)
        mean = heads.mean(dim=0)
        a = 0.5 * mean + 0.5 * torch.eye(n, dtype=torch.float64)
        a = a / a.sum(dim=-1, keepdim=True)
        rollout.append(a if not rollout else a @ rollout[-1])
        averages.append(mean)
    flat = lambda ms: [[round(float(v), 12) for v in m.reshape(-1)] for m in ms]
    return {"generator": "tests/reference/make_rollout_reference.py, torch " + torch.__version__,
            "averages": flat(averages), "rollout": flat(rollout)}


def main():
    for name in FIXTURES:
        folder = os.path.join(HERE, "fixtures", "models", name)
        with open(os.path.join(folder, "expected.json")) as f:
            expected = json.load(f)
        with open(os.path.join(folder, "aggregates.json"), "w") as f:
            json.dump(aggregates(expected), f, indent=None, separators=(",", ":"))
            f.write("\n")
        print("wrote", os.path.join(folder, "aggregates.json"))


if __name__ == "__main__":
    main()
