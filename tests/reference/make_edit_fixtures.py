#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference for editing one attention head of a real model: the attention and
logits of gpt2_tiny and bert_tiny (fixtures/models/) when a head's query, key or value vector
at one position is scaled, or a head's output is ablated, carried through the rest of the
network. The C++ side (core/model/head_edit.h) is compared against these.

Reads the committed fixtures/models/<name>/{config.json, model.safetensors, expected.json}
(the weights back from the file, float32 -> float64) and runs make_model_fixtures.py's
plain-PyTorch forward passes with its edit hooks; the arithmetic is float64.
Writes fixtures/models/<name>/edits.json. Deterministic.
Run with Debian's interpreter:  /usr/bin/python3 tests/reference/make_edit_fixtures.py

Edits (layer, head, index from 0; Q, K, V are a head's projected n x d_h matrices with bias):
  {"kind":"key"|"query"|"value","layer":L,"head":H,"index":I,"scale":S}: row I of K_h/Q_h/V_h
      times S, before the scores;
  {"kind":"ablate","layer":L,"head":H,"mode":"zero"|"mean"}: the head's output P_h V_h
      (n x d_h, before the heads are merged and the output projection) set to 0, or every row
      replaced by the mean of its rows.
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model_fixtures import OUT, bert_forward, gpt2_forward, rounded, top10  # noqa: E402

# ---------------------------------------------------------------------------------------------
# safetensors reader (F32 and I64 only, which is what gpt2_tiny / bert_tiny hold).


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + size])
    base = 8 + size
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        np_type = {"F32": "<f4", "I64": "<i8"}[info["dtype"]]
        array = np.frombuffer(data[base + begin:base + end], dtype=np_type).reshape(info["shape"])
        if info["dtype"] == "F32":
            out[name] = torch.from_numpy(array.astype(np.float64))
    return out


# ---------------------------------------------------------------------------------------------
# Edits as hooks for gpt2_forward / bert_forward.

VECTOR_KINDS = {"query": 0, "key": 1, "value": 2}


def hooks(edits):
    def edit(layer, q, k, v):
        qkv = [q, k, v]
        for e in edits:
            if e["layer"] == layer and e["kind"] in VECTOR_KINDS:
                slot = VECTOR_KINDS[e["kind"]]
                t = qkv[slot].clone()
                t[e["head"], e["index"], :] *= e["scale"]
                qkv[slot] = t
        return tuple(qkv)

    def edit_output(layer, o):
        for e in edits:
            if e["layer"] == layer and e["kind"] == "ablate":
                o = o.clone()
                h = e["head"]
                if e["mode"] == "zero":
                    o[h] = 0.0
                else:
                    o[h] = o[h].mean(dim=0, keepdim=True).expand_as(o[h])
        return o

    return edit, edit_output


def vector_edit(kind, layer, head, index, scale):
    return {"kind": kind, "layer": layer, "head": head, "index": index, "scale": float(scale)}


def ablation(layer, head, mode):
    return {"kind": "ablate", "layer": layer, "head": head, "mode": mode}


def cases(n, heads):
    h = lambda head: head % heads  # bert_tiny has 3 heads: head 3 of the list becomes head 0
    return [
        [vector_edit("key", 0, h(1), 2, 2.0)],
        [vector_edit("query", 1, h(0), n - 1, 0.5)],
        [vector_edit("value", 0, h(2), 1, 3.0)],
        [ablation(0, h(3), "zero")],
        [ablation(1, h(2), "mean")],
        [vector_edit("key", 0, h(0), 1, 2.0), ablation(1, h(1), "zero")],
        [vector_edit("key", 1, h(3), 0, 10.0)],
    ]


# ---------------------------------------------------------------------------------------------


def run(family, w, cfg, ids, edits=()):
    edit, edit_output = hooks(list(edits))
    forward = gpt2_forward if family == "gpt2" else bert_forward
    return forward(w, cfg, torch.tensor(ids), edit=edit, edit_output=edit_output)


def max_diff(a, b):
    return float((a - b).abs().max())


def sanity(name, family, w, cfg, ids, expected):
    """The checks of the brief; raises on failure, prints the measured numbers."""
    heads = len(expected["attention"][0])
    n = len(ids)
    # (a) identity edits (scale 1 of every kind at every layer/head, not ablations) reproduce
    # expected.json (which is rounded to 8 significant digits).
    identity = [vector_edit(kind, layer, head, index, 1.0)
                for kind in ("query", "key", "value")
                for layer in range(len(expected["attention"])) for head in range(heads)
                for index in (0, n - 1)]
    att, logits = run(family, w, cfg, ids, identity)
    ref_att = torch.tensor(expected["attention"], dtype=torch.float64)
    att_diff = max_diff(torch.stack([a.reshape(heads, n * n) for a in att]), ref_att)
    logit_diff = max_diff(logits, torch.tensor(expected["logits"], dtype=torch.float64))
    assert att_diff < 1e-6 and logit_diff < 1e-6, (att_diff, logit_diff)
    plain_att, plain_logits = run(family, w, cfg, ids)
    exact = all(torch.equal(a, b) for a, b in zip(att, plain_att)) and torch.equal(logits, plain_logits)
    print(f"{name}: (a) identity edits vs expected.json: attention {att_diff:.1e}, "
          f"logits {logit_diff:.1e}; bitwise equal to the unedited run: {exact}")

    # (b) a key edit in layer 1 leaves layer 0 exactly; one in layer 0 changes layer 1.
    att1, _ = run(family, w, cfg, ids, [vector_edit("key", 1, 0, 2, 2.0)])
    assert torch.equal(att1[0], plain_att[0]) and not torch.equal(att1[1], plain_att[1])
    att0, _ = run(family, w, cfg, ids, [vector_edit("key", 0, 0, 2, 2.0)])
    change = max_diff(att0[1], plain_att[1])
    assert change > 1e-3, change
    print(f"{name}: (b) key edit in layer 1: layer 0 bitwise unchanged; key edit in layer 0: "
          f"layer 1 changes by up to {change:.3g}")

    # (c) causal: a key edit at index i leaves rows < i of that head's map as they were (and
    # the other heads of the layer); rows >= i change.
    if family == "gpt2":
        for i in range(n):
            a, _ = run(family, w, cfg, ids, [vector_edit("key", 0, 1, i, 2.0)])
            assert torch.equal(a[0][1, :i], plain_att[0][1, :i]), i
            assert all(torch.equal(a[0][h], plain_att[0][h]) for h in range(heads) if h != 1)
            assert (a[0][1, i:] - plain_att[0][1, i:]).abs().amax(dim=1).min() > 0 or i == 0
        print(f"{name}: (c) key edit at every index i (layer 0 head 1): rows < i bitwise "
              f"unchanged, other heads bitwise unchanged, every row >= i changes (i > 0)")

    # Cross-check of zero ablation: the same as zeroing the head's slice of the output projection.
    layer, head = 1, 1
    dh = cfg["n_embd" if family == "gpt2" else "hidden_size"] // heads
    w2 = dict(w)
    if family == "gpt2":
        key = f"h.{layer}.attn.c_proj.weight"  # Conv1D: o @ W, rows follow o's columns
        w2[key] = w[key].clone()
        w2[key][head * dh:(head + 1) * dh, :] = 0
    else:
        key = f"encoder.layer.{layer}.attention.output.dense.weight"  # o @ W.T
        w2[key] = w[key].clone()
        w2[key][:, head * dh:(head + 1) * dh] = 0
    _, l_ablate = run(family, w, cfg, ids, [ablation(layer, head, "zero")])
    _, l_weights = run(family, w2, cfg, ids)
    diff = max_diff(l_ablate, l_weights)
    assert diff < 1e-12, diff
    print(f"{name}: zero ablation of layer {layer} head {head} == zeroed output-projection "
          f"slice: logits {diff:.1e}")


def make(name):
    folder = os.path.join(OUT, name)
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    family = expected["family"]
    w = read_safetensors(os.path.join(folder, "model.safetensors"))
    ids = expected["ids"]
    n = len(ids)
    layers, heads = expected["layers"], expected["heads"]
    predict = [p["position"] for p in expected["predictions"]]

    sanity(name, family, w, cfg, ids, expected)

    out_cases = []
    for edits in cases(n, heads):
        for e in edits:
            assert 0 <= e["layer"] < layers and 0 <= e["head"] < heads
        att, logits = run(family, w, cfg, ids, edits)
        out_cases.append({
            "edits": edits,
            "attention": [[rounded(h.flatten().tolist()) for h in layer] for layer in att],
            "logits": [rounded(row.tolist()) for row in logits],
            "predictions": [{"position": p, "top": top10(logits[p])} for p in predict],
        })
    result = {
        "generator": f"make_edit_fixtures.py, torch {torch.__version__}, float64",
        "family": family, "ids": ids, "mask_token_id": expected["mask_token_id"],
        "layers": layers, "heads": heads, "cases": out_cases,
    }
    path = os.path.join(folder, "edits.json")
    with open(path, "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    print(f"{name}: wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes, {len(out_cases)} cases)")


def main():
    torch.set_grad_enabled(False)
    make("gpt2_tiny")
    make("bert_tiny")


if __name__ == "__main__":
    sys.exit(main())
