#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference loss and gradients of a Marian-layout encoder-decoder from PyTorch autograd, for
core/train/marian_*.

Run with Debian's interpreter, which has python3-torch:

    /usr/bin/python3 tests/reference/make_marian_train_reference.py

It writes tests/reference/fixtures/marian_train_reference.json, read by
tests/core/train/marian_reference_test.cpp. The model is written out here in plain torch ops
(float64) as Hugging Face's MarianMTModel defines it, not taken from transformers:
  * x = shared[ids] * sqrt(C) + sinusoids[0..T) (column c < C/2: sin(p / 10000^(2c/C)), column
    C/2 + c: the cosine of the same angle);
  * every sub-layer post-LN: x = LayerNorm(x + f(x)), eps 1e-5;
  * attention as nn.Linear projections (y = x W^T + b, W [out, in]), q scaled by head_dim^-0.5
    after its projection, padded source keys masked, the decoder's self-attention causal; the
    encoder-decoder attention takes its keys and values from the encoder's output;
  * FFN fc2(act(fc1(x))), act SiLU or the tanh GELU;
  * logits = x shared^T + final_logits_bias; loss = mean cross-entropy over the targets that are
    not -1 (ignore_index).
The trainer keeps its dense weights as [in, out] and fuses the projections (qkv_proj [C, 3C],
kv_proj [C, 2C]); this script makes nn.Linear's weights from those tensors by slicing and
transposing, so the fixture checks that convention too.

The parameters are not stored: both sides make them from a formula, in buffer order (that of
attn::marian::makeParameters), each value base + scale * (2u - 1) with u the next uniform of
attn::Rng (splitmix64; u = (z >> 11) * 2^-53, exact in double): LayerNorm weights base 1,
scale 0.25; everything else base 0, scale 0.5.

JSON layout: {"generator", "torch", "seed", "B", "S", "T", "source" [B*S], "sourceLengths" [B],
  "input" [B*T], "targets" [B*T], "variants": [{"config": {...}, "loss", "cross": [B*H*T*S of
  the last decoder layer], "grads": {tensor name: flat list, row-major}}]}.
"""

import json
import math
import os

import torch
import torch.nn.functional as F

DTYPE = torch.float64
MASK = (1 << 64) - 1
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                   "marian_train_reference.json")

SEED = 20261206
B, S, T = 3, 6, 5
SOURCE = [3, 4, 5, 6, 7, 1, 8, 9, 2, 1, 0, 0, 5, 1, 0, 0, 0, 0]
LENGTHS = [6, 4, 2]
INPUT = [0, 2, 3, 4, 5, 0, 6, 7, 8, 0, 0, 9, 0, 0, 0]
TARGETS = [2, 3, 4, 5, 1, 6, 7, 8, 1, -1, 9, 1, -1, -1, -1]
BASE = {"vocab": 11, "maxT": 8, "heads": 2, "channels": 8, "ffn": 12, "padId": 0, "eosId": 1}
VARIANTS = [dict(BASE, encoderLayers=2, decoderLayers=2, activation="silu"),
            dict(BASE, encoderLayers=1, decoderLayers=2, activation="gelu")]


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


def layout(c):
    """(name, shape) in the buffer order of attn::marian::makeParameters."""
    V, C, Fd = c["vocab"], c["channels"], c["ffn"]

    def norm(name):
        return [(name + ".weight", [C]), (name + ".bias", [C])]

    def self_attn(p):
        return [(p + "self_attn.qkv_proj.weight", [C, 3 * C]), (p + "self_attn.qkv_proj.bias", [3 * C]),
                (p + "self_attn.out_proj.weight", [C, C]), (p + "self_attn.out_proj.bias", [C])
                ] + norm(p + "self_attn_layer_norm")

    def cross_attn(p):
        a = p + "encoder_attn."
        return [(a + "q_proj.weight", [C, C]), (a + "q_proj.bias", [C]),
                (a + "kv_proj.weight", [C, 2 * C]), (a + "kv_proj.bias", [2 * C]),
                (a + "out_proj.weight", [C, C]), (a + "out_proj.bias", [C])
                ] + norm(p + "encoder_attn_layer_norm")

    def ffn(p):
        return [(p + "fc1.weight", [C, Fd]), (p + "fc1.bias", [Fd]), (p + "fc2.weight", [Fd, C]),
                (p + "fc2.bias", [C])] + norm(p + "final_layer_norm")

    out = [("model.shared.weight", [V, C])]
    for l in range(c["encoderLayers"]):
        p = f"model.encoder.layers.{l}."
        out += self_attn(p) + ffn(p)
    for l in range(c["decoderLayers"]):
        p = f"model.decoder.layers.{l}."
        out += self_attn(p) + cross_attn(p) + ffn(p)
    out.append(("final_logits_bias", [V]))
    return out


def parameters(c):
    rng = Rng(SEED)
    params = {}
    for name, shape in layout(c):
        ln_weight = "layer_norm" in name and name.endswith(".weight")
        base, scale = (1.0, 0.25) if ln_weight else (0.0, 0.5)
        values = [base + scale * (2.0 * rng.uniform() - 1.0) for _ in range(math.prod(shape))]
        params[name] = torch.tensor(values, dtype=DTYPE).reshape(shape).requires_grad_(True)
    return params


def sinusoids(n, dim):
    half = (dim + 1) // 2
    out = torch.zeros(n, dim, dtype=DTYPE)
    for p in range(n):
        for j in range(half):
            angle = p / math.pow(10000.0, 2 * j / dim)
            out[p, j] = math.sin(angle)
            if half + j < dim:
                out[p, half + j] = math.cos(angle)
    return out


def linear(x, w, b):
    """nn.Linear: w [out, in]."""
    return x @ w.T + b


def attention(c, x, memory, key_lengths, causal, wq, bq, wk, bk, wv, bv, wo, bo):
    C, H = c["channels"], c["heads"]
    hs = C // H
    tq, tk = x.shape[1], memory.shape[1]
    q = linear(x, wq, bq) * hs ** -0.5
    k, v = linear(memory, wk, bk), linear(memory, wv, bv)
    q, k, v = (t.view(B, -1, H, hs).transpose(1, 2) for t in (q, k, v))
    scores = q @ k.transpose(-2, -1)
    allowed = torch.arange(tk).view(1, 1, 1, tk) < torch.tensor(key_lengths).view(B, 1, 1, 1)
    if causal:
        allowed = allowed & torch.tril(torch.ones(tq, tk, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    y = (weights @ v).transpose(1, 2).reshape(B, tq, C)
    return linear(y, wo, bo), weights


def self_attention(c, p, name, x, key_lengths, causal):
    C = c["channels"]
    w, b = p[name + ".qkv_proj.weight"], p[name + ".qkv_proj.bias"]
    return attention(c, x, x, key_lengths, causal, w[:, :C].T, b[:C], w[:, C:2 * C].T,
                     b[C:2 * C], w[:, 2 * C:].T, b[2 * C:], p[name + ".out_proj.weight"].T,
                     p[name + ".out_proj.bias"])


def cross_attention(c, p, name, x, memory):
    C = c["channels"]
    kv, kvb = p[name + ".kv_proj.weight"], p[name + ".kv_proj.bias"]
    return attention(c, x, memory, LENGTHS, False, p[name + ".q_proj.weight"].T,
                     p[name + ".q_proj.bias"], kv[:, :C].T, kvb[:C], kv[:, C:].T, kvb[C:],
                     p[name + ".out_proj.weight"].T, p[name + ".out_proj.bias"])


def post_ln(p, name, x, y):
    return F.layer_norm(x + y, (x.shape[-1],), p[name + ".weight"], p[name + ".bias"], eps=1e-5)


def ffn(c, p, prefix, x):
    inner = linear(x, p[prefix + "fc1.weight"].T, p[prefix + "fc1.bias"])
    inner = F.silu(inner) if c["activation"] == "silu" else F.gelu(inner, approximate="tanh")
    y = linear(inner, p[prefix + "fc2.weight"].T, p[prefix + "fc2.bias"])
    return post_ln(p, prefix + "final_layer_norm", x, y)


def loss_of(c, p):
    C = c["channels"]
    table = sinusoids(c["maxT"], C)
    shared = p["model.shared.weight"]
    x = shared[torch.tensor(SOURCE).view(B, S)] * math.sqrt(C) + table[:S]
    for l in range(c["encoderLayers"]):
        pre = f"model.encoder.layers.{l}."
        y, _ = self_attention(c, p, pre + "self_attn", x, LENGTHS, False)
        x = ffn(c, p, pre, post_ln(p, pre + "self_attn_layer_norm", x, y))
    memory = x
    x = shared[torch.tensor(INPUT).view(B, T)] * math.sqrt(C) + table[:T]
    cross = None
    for l in range(c["decoderLayers"]):
        pre = f"model.decoder.layers.{l}."
        y, _ = self_attention(c, p, pre + "self_attn", x, [T] * B, True)
        x = post_ln(p, pre + "self_attn_layer_norm", x, y)
        y, cross = cross_attention(c, p, pre + "encoder_attn", x, memory)
        x = ffn(c, p, pre, post_ln(p, pre + "encoder_attn_layer_norm", x, y))
    logits = x @ shared.T + p["final_logits_bias"]
    loss = F.cross_entropy(logits.reshape(B * T, -1), torch.tensor(TARGETS), ignore_index=-1)
    return loss, cross


def variant(c):
    p = parameters(c)
    loss, cross = loss_of(c, p)
    loss.backward()
    grads = {name: p[name].grad.reshape(-1).tolist() for name, _ in layout(c)}
    return {"config": c, "loss": loss.item(), "cross": cross.detach().reshape(-1).tolist(),
            "grads": grads}


def main():
    data = {
        "generator": "tests/reference/make_marian_train_reference.py",
        "torch": torch.__version__,
        "seed": SEED, "B": B, "S": S, "T": T,
        "source": SOURCE, "sourceLengths": LENGTHS, "input": INPUT, "targets": TARGETS,
        "variants": [variant(c) for c in VARIANTS],
    }
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
