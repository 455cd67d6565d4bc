#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference loss and gradients of a whole GPT-2 from PyTorch autograd, for core/train/gpt2_*.

Run with Debian's interpreter, which has python3-torch:

    /usr/bin/python3 tests/reference/make_gpt2_grad_reference.py

It writes tests/reference/fixtures/gpt2_grad_reference.json, read by
tests/core/train/gpt2_reference_test.cpp. The model is written out here in plain torch ops
(float64), not taken from transformers, in GPT-2's conventions:
  * x = wte[tokens] + wpe[0..T);
  * per block: x += c_proj(attention(ln_1(x))), then (unless attention-only)
    x += mlp.c_proj(gelu_tanh(mlp.c_fc(ln_2(x)))); a dense layer is x @ W + b, W [in, out];
  * attention: [q | k | v] = ln_1(x) @ c_attn.weight + c_attn.bias, heads side by side in
    each third; softmax(q k^T / sqrt(head size)) under the causal mask, times v;
  * logits = ln_f(x) @ wte^T; loss = mean cross-entropy against the next-token targets.
LayerNorm: eps 1e-5, biased variance.

The parameters are not stored: both sides make them from a formula, in buffer order (the
order of attn::gpt2::makeParameters), each value base + scale * (2u - 1) with u the next
uniform of attn::Rng (splitmix64; u = (z >> 11) * 2^-53, exact in double): LayerNorm weights
base 1, scale 0.25; everything else base 0, scale 0.5.

JSON layout: {"generator", "torch", "config": {vocab, maxT, layers, heads, channels},
  "seed", "B", "T", "tokens" [B*T], "targets" [B*T],
  "variants": [{"attentionOnly", "loss", "grads": {tensor name: flat list, row-major}}]}.
Floats are written with Python's shortest round-trip repr: the output is deterministic.
"""

import json
import math
import os

import torch
import torch.nn.functional as F

DTYPE = torch.float64
MASK = (1 << 64) - 1
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                   "gpt2_grad_reference.json")

CONFIG = {"vocab": 11, "maxT": 8, "layers": 2, "heads": 2, "channels": 8}
SEED = 20250101
B, T = 2, 6
TOKENS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]
TARGETS = [1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]


class Rng:
    """attn::Rng's uniform(): splitmix64, the top 53 bits."""

    def __init__(self, seed):
        self.state = seed & MASK

    def uniform(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        return (z >> 11) * 2.0 ** -53


def layout(attention_only):
    """(name, shape) in the buffer order of attn::gpt2::makeParameters."""
    V, P, L, C = CONFIG["vocab"], CONFIG["maxT"], CONFIG["layers"], CONFIG["channels"]
    out = [("wte.weight", [V, C]), ("wpe.weight", [P, C])]
    for l in range(L):
        h = f"h.{l}."
        out += [(h + "ln_1.weight", [C]), (h + "ln_1.bias", [C]),
                (h + "attn.c_attn.weight", [C, 3 * C]), (h + "attn.c_attn.bias", [3 * C]),
                (h + "attn.c_proj.weight", [C, C]), (h + "attn.c_proj.bias", [C])]
        if not attention_only:
            out += [(h + "ln_2.weight", [C]), (h + "ln_2.bias", [C]),
                    (h + "mlp.c_fc.weight", [C, 4 * C]), (h + "mlp.c_fc.bias", [4 * C]),
                    (h + "mlp.c_proj.weight", [4 * C, C]), (h + "mlp.c_proj.bias", [C])]
    out += [("ln_f.weight", [C]), ("ln_f.bias", [C])]
    return out


def parameters(attention_only):
    rng = Rng(SEED)
    params = {}
    for name, shape in layout(attention_only):
        ln_weight = "ln_" in name and len(shape) == 1 and name.endswith(".weight")
        base, scale = (1.0, 0.25) if ln_weight else (0.0, 0.5)
        count = math.prod(shape)
        values = [base + scale * (2.0 * rng.uniform() - 1.0) for _ in range(count)]
        params[name] = torch.tensor(values, dtype=DTYPE).reshape(shape).requires_grad_(True)
    return params


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, eps=1e-5)


def attention(x, p, h):
    C, H = CONFIG["channels"], CONFIG["heads"]
    hs = C // H
    qkv = x @ p[h + "attn.c_attn.weight"] + p[h + "attn.c_attn.bias"]
    q, k, v = qkv.split(C, dim=-1)
    q, k, v = (t.view(B, T, H, hs).transpose(1, 2) for t in (q, k, v))  # B, H, T, hs
    scores = q @ k.transpose(-2, -1) / math.sqrt(hs)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
    y = (weights @ v).transpose(1, 2).reshape(B, T, C)
    return y @ p[h + "attn.c_proj.weight"] + p[h + "attn.c_proj.bias"]


def mlp(x, p, h):
    inner = F.gelu(x @ p[h + "mlp.c_fc.weight"] + p[h + "mlp.c_fc.bias"], approximate="tanh")
    return inner @ p[h + "mlp.c_proj.weight"] + p[h + "mlp.c_proj.bias"]


def loss_of(p, attention_only):
    tokens = torch.tensor(TOKENS).view(B, T)
    targets = torch.tensor(TARGETS).view(B, T)
    x = p["wte.weight"][tokens] + p["wpe.weight"][:T]
    for l in range(CONFIG["layers"]):
        h = f"h.{l}."
        x = x + attention(layer_norm(x, p[h + "ln_1.weight"], p[h + "ln_1.bias"]), p, h)
        if not attention_only:
            x = x + mlp(layer_norm(x, p[h + "ln_2.weight"], p[h + "ln_2.bias"]), p, h)
    x = layer_norm(x, p["ln_f.weight"], p["ln_f.bias"])
    logits = x @ p["wte.weight"].T
    return F.cross_entropy(logits.reshape(B * T, -1), targets.reshape(-1))


def variant(attention_only):
    p = parameters(attention_only)
    loss = loss_of(p, attention_only)
    loss.backward()
    grads = {name: p[name].grad.reshape(-1).tolist() for name, _ in layout(attention_only)}
    return {"attentionOnly": attention_only, "loss": loss.item(), "grads": grads}


def main():
    data = {
        "generator": "tests/reference/make_gpt2_grad_reference.py",
        "torch": torch.__version__,
        "config": CONFIG,
        "seed": SEED,
        "B": B,
        "T": T,
        "tokens": TOKENS,
        "targets": TARGETS,
        "variants": [variant(False), variant(True)],
    }
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
