#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference losses and gradients from PyTorch autograd for core/train.

Run with Debian's interpreter, which has python3-torch (1.13):

    /usr/bin/python3 tests/reference/make_grad_reference.py

It writes tests/reference/fixtures/grad_reference.json: a few small sessions (inputs), the
training targets, and what torch (float64, fixed seed) computes for them: the losses of
core/train/loss.h and the gradient of the total loss with respect to every parameter and to
the embeddings. tests/core/train/grad_reference_test.cpp compares attn::evaluateLoss and
attn::backward with them. The output is deterministic (floats are written by json with
Python's shortest round-trip repr).

Conventions are the core's (core/attention.h, core/naive_reference.cpp):
  * q = x W_Q + b_Q (W_Q is d_model x d_k), likewise k and v from X or, in cross mode, Y;
    shared projections use W_Q and b_Q for every role;
  * a vector edit first replaces the listed components by constants, then scales the vector;
  * scores Q K^T or v^T tanh(W_a q_i + U_a k_j), divided by 1, sqrt(d_k) or the temperature;
  * the row softmax runs over the allowed cells only; a fully masked row is all zeros;
  * final output = concat(heads) W_O, or the concatenation without W_O.
Losses (core/train/loss.h):
  * cross-entropy: each target row is normalised over its allowed cells; rows with no allowed
    target mass (and fully masked rows) are skipped; -sum_j t_ij log P_ij with log P from
    log_softmax of the scaled scores; mean over the (pattern, row) pairs that have a target;
  * MSE: mean of squared differences over the entries of rows that are not fully masked;
  * total = cross-entropy + outputWeight * MSE.

JSON layout: {"generator", "torch", "cases": [case...]}; a case is
  {"name", "description", "mode": "self"|"causal"|"cross", "scaling": "none"|"sqrt_dk"|
   "temperature", "temperature", "score": "dot"|"additive", "shared": bool,
   "X", "Y" (cross only), "mask" (n x m booleans, or absent), "W_O" (or absent),
   "heads": [{"W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "W_a", "U_a", "v"} (absent = none)],
   "edits": [{"role": "query"|"key"|"value", "head", "index", "scale",
              "overrides": [[component, value], ...]}],
   "target": {"patterns": [{"head", "pattern"}], "output", "outputWeight"},
   "expected": {"total", "crossEntropy", "mse", "patternRows",
                "grads": {"heads": [{same names as the head's parameters}], "W_O", "X", "Y"}}}
Matrices are lists of rows, vectors lists of numbers.
"""

import json
import math
import os

import torch

SEED = 20240614
DTYPE = torch.float64
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "grad_reference.json")


def randn(*shape, std=1.0):
    return torch.randn(*shape, dtype=DTYPE) * std


def pattern(n, m):
    p = torch.rand(n, m, dtype=DTYPE)
    return torch.where(p < 0.25, torch.zeros_like(p), p)


def effective_mask(case, n, m):
    mask = torch.ones(n, m, dtype=torch.bool)
    if case["mode"] == "causal":
        mask = torch.tril(mask)
    if "mask" in case:
        mask = mask & torch.tensor(case["mask"], dtype=torch.bool)
    return mask


def apply_edits(case, mat, role, head):
    edits = [e for e in case["edits"] if e["role"] == role and e["head"] == head]
    if not edits:
        return mat
    rows = list(mat.unbind(0))
    for e in edits:
        r = rows[e["index"]].clone()
        for comp, value in e["overrides"]:
            r[comp] = value  # a constant: no gradient reaches the replaced component
        rows[e["index"]] = r * e["scale"]
    return torch.stack(rows)


def forward(case, t):
    """Final output and, per head, (scaled scores, weights). t holds the leaf tensors."""
    cross = case["mode"] == "cross"
    X = t["X"]
    src = t["Y"] if cross else X
    n, m = X.shape[0], src.shape[0]
    mask = effective_mask(case, n, m)
    any_row = mask.any(dim=1)
    heads = []
    outs = []
    for h, p in enumerate(t["heads"]):
        def proj(source, role, W, b):
            if case["shared"]:
                W, b = p["W_Q"], p.get("b_Q")
            out = source @ W
            if b is not None:
                out = out + b
            return apply_edits(case, out, role, h)

        Q = proj(X, "query", p["W_Q"], p.get("b_Q"))
        K = proj(src, "key", p.get("W_K"), p.get("b_K"))
        V = proj(src, "value", p.get("W_V"), p.get("b_V"))
        d_k = Q.shape[1]
        if case["score"] == "dot":
            S = Q @ K.T
        else:
            pre = (Q @ p["W_a"].T)[:, None, :] + (K @ p["U_a"].T)[None, :, :]
            S = torch.tanh(pre) @ p["v"]
        divisor = {"none": 1.0, "sqrt_dk": math.sqrt(d_k), "temperature": case["temperature"]}[
            case["scaling"]]
        Z = S / divisor
        # Softmax over the allowed cells; fully masked rows get zeros (the row of zeros fed to
        # softmax keeps autograd free of NaN, and the mask product zeroes it).
        filled = torch.where(mask, Z, torch.full_like(Z, -math.inf))
        filled = torch.where(any_row[:, None], filled, torch.zeros_like(Z))
        P = torch.softmax(filled, dim=1) * mask.to(DTYPE)
        heads.append((Z, P))
        outs.append(P @ V)
    concat = torch.cat(outs, dim=1)
    F = concat @ t["W_O"] if "W_O" in t else concat
    return F, heads, mask


def losses(case, F, heads, mask):
    target = case["target"]
    ce_sum = torch.zeros((), dtype=DTYPE)
    rows = 0
    for pt in target["patterns"]:
        Z, _ = heads[pt["head"]]
        T = torch.tensor(pt["pattern"], dtype=DTYPE) * mask.to(DTYPE)
        mass = T.sum(dim=1)
        sel = mass > 0
        if not bool(sel.any()):
            continue
        Mr = mask[sel]
        t = T[sel] / mass[sel][:, None]
        logP = torch.log_softmax(torch.where(Mr, Z[sel], torch.full_like(Z[sel], -math.inf)), 1)
        logP = torch.where(Mr, logP, torch.zeros_like(logP))
        ce_sum = ce_sum - (t * logP).sum()
        rows += int(sel.sum())
    ce = ce_sum / rows if rows > 0 else ce_sum
    mse = torch.zeros((), dtype=DTYPE)
    if "output" in target:
        keep = mask.any(dim=1)
        diff = F[keep] - torch.tensor(target["output"], dtype=DTYPE)[keep]
        if diff.numel() > 0:
            mse = (diff ** 2).sum() / diff.numel()
    total = ce + target["outputWeight"] * mse
    return total, ce, mse, rows


def tolist(x):
    return x.detach().tolist()


def make_case(name, description, mode, scaling, score, n, m, d_model, d_k, d_v, heads,
              biases=False, shared=False, temperature=1.0, d_a=4, w_o=False, mask=None,
              edits=(), output_weight=0.5):
    cross = mode == "cross"
    m = m if cross else n
    case = {"name": name, "description": description, "mode": mode, "scaling": scaling,
            "temperature": temperature, "score": score, "shared": shared, "edits": list(edits)}
    std = 1.0 / math.sqrt(d_model)
    t = {"X": randn(n, d_model), "heads": []}
    if cross:
        t["Y"] = randn(m, d_model)
    for _ in range(heads):
        p = {"W_Q": randn(d_model, d_k, std=std)}
        if not shared:
            p["W_K"] = randn(d_model, d_k, std=std)
            p["W_V"] = randn(d_model, d_v, std=std)
        if biases:
            p["b_Q"] = randn(d_k, std=0.5)
            if not shared:
                p["b_K"] = randn(d_k, std=0.5)
                p["b_V"] = randn(d_v, std=0.5)
        if score == "additive":
            p["W_a"] = randn(d_a, d_k, std=1 / math.sqrt(d_k))
            p["U_a"] = randn(d_a, d_k, std=1 / math.sqrt(d_k))
            p["v"] = randn(d_a, std=1 / math.sqrt(d_k))
        t["heads"].append(p)
    if w_o:
        t["W_O"] = randn(heads * d_v, d_model, std=1 / math.sqrt(heads * d_v))
    if mask is not None:
        case["mask"] = mask
    case["target"] = {"patterns": [{"head": h, "pattern": tolist(pattern(n, m))}
                                   for h in range(heads)],
                      "outputWeight": output_weight}
    out_cols = d_model if w_o else heads * d_v
    case["target"]["output"] = tolist(randn(n, out_cols))

    leaves = [t["X"]] + ([t["Y"]] if cross else []) + ([t["W_O"]] if w_o else [])
    for p in t["heads"]:
        leaves += list(p.values())
    for x in leaves:
        x.requires_grad_(True)
    F, head_stages, mask_t = forward(case, t)
    total, ce, mse, rows = losses(case, F, head_stages, mask_t)
    total.backward()

    case["X"] = tolist(t["X"])
    if cross:
        case["Y"] = tolist(t["Y"])
    if w_o:
        case["W_O"] = tolist(t["W_O"])
    case["heads"] = [{k: tolist(v) for k, v in p.items()} for p in t["heads"]]
    grads = {"X": tolist(t["X"].grad), "heads": []}
    if cross:
        grads["Y"] = tolist(t["Y"].grad)
    if w_o:
        grads["W_O"] = tolist(t["W_O"].grad)
    for p in t["heads"]:
        grads["heads"].append({k: tolist(v.grad) for k, v in p.items()})
    case["expected"] = {"total": total.item(), "crossEntropy": ce.item(), "mse": mse.item(),
                        "patternRows": rows, "grads": grads}
    return case


def main():
    # Note: with dot scores the gradient of b_K is exactly 0 in exact arithmetic (q_i . b_K
    # shifts a whole row of scores, which softmax ignores); the fixture holds round-off there.
    torch.manual_seed(SEED)
    cases = [
        make_case("causal_dot_biases_sqrt",
                  "causal self attention, dot scores / sqrt(d_k), biases b_Q, b_K, b_V",
                  "causal", "sqrt_dk", "dot", n=5, m=5, d_model=4, d_k=3, d_v=3, heads=1,
                  biases=True),
        make_case("cross_additive_temperature_edits",
                  "cross attention (4 queries, 6 keys), additive scores / tau = 0.7, "
                  "a query and a key edit with overrides",
                  "cross", "temperature", "additive", n=4, m=6, d_model=4, d_k=3, d_v=2,
                  heads=1, temperature=0.7,
                  edits=[{"role": "query", "head": 0, "index": 1, "scale": -0.5,
                          "overrides": []},
                         {"role": "key", "head": 0, "index": 2, "scale": 1.5,
                          "overrides": [[0, 0.3]]}]),
        make_case("self_mask_full_row_two_heads_w_o",
                  "self attention, custom mask with row 2 fully masked and row 3 one key, "
                  "two heads, W_O, / sqrt(d_k)",
                  "self", "sqrt_dk", "dot", n=5, m=5, d_model=4, d_k=2, d_v=2, heads=2,
                  w_o=True,
                  mask=[[True, True, False, True, False],
                        [False, True, True, False, True],
                        [False, False, False, False, False],
                        [True, False, False, False, False],
                        [True, True, True, True, False]]),
        make_case("shared_projections_bias_value_edit",
                  "self attention with one shared projection W_Q and bias b_Q, no scaling, "
                  "a value edit (override and scale)",
                  "self", "none", "dot", n=4, m=4, d_model=3, d_k=3, d_v=3, heads=1,
                  biases=True, shared=True,
                  edits=[{"role": "value", "head": 0, "index": 0, "scale": 2.0,
                          "overrides": [[2, 1.1]]}]),
    ]
    doc = {"generator": "tests/reference/make_grad_reference.py", "torch": torch.__version__,
           "cases": cases}
    with open(OUT, "w", encoding="ascii") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
