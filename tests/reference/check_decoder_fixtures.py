#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the decoder fixtures of make_decoder_fixtures.py and the reference forward pass that
made them, in ways that do not trust that pass:

  files     every case folder is read back as a C++ reader would: config.json, the safetensors
            files (BF16 widened by shifting the bits, F16 and F32 by numpy), the shard index
            (every tensor mapped to the file that holds it, total_size = the tensors' bytes);
            the tensor names and shapes are exactly those the config calls for (no lm_head when
            tied, no o_proj bias in Qwen2, q_norm/k_norm only in Qwen3, ...); the forward pass
            on the read-back weights gives expected.json again; every attention row sums to 1
            and is exactly 0 where, and only where, the causal mask or the layer's window masks.
  GQA       a grouped-query model equals the multi-head model whose k/v projections (and
            biases) repeat each kv head for its group of query heads (transformers' repeat_kv).
  RoPE      the score of a query at m and a key at n depends on m - n only (for each case's
            frequencies, scaling included); the rotate-half form equals turning the complex
            numbers x_j + i x_(j + d/2) by p f_j; the llama3 case has all three bands (kept,
            blended, divided) and each band's frequencies are what its rule says.

Run with Debian's interpreter:  /usr/bin/python3 tests/reference/check_decoder_fixtures.py
Prints one line per check and exits non-zero on the first failure.
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_decoder_fixtures import (  # noqa: E402
    CASES, OUT, apply_rope, biases_of, decoder_forward, head_dim_of, kv_heads_of, layer_windows,
    rope_bands, rope_inverse_frequencies, top_ids)

BYTES = {"F32": 4, "F16": 2, "BF16": 2}


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}")
        sys.exit(1)


# ---------------------------------------------------------------------------------------------
# Reading the files back.

def read_safetensors(path):
    """{name: (dtype, float64 tensor)}."""
    with open(path, "rb") as f:
        data = f.read()
    (size,) = struct.unpack("<Q", data[:8])
    check(size % 8 == 0, f"{path}: header length {size} not a multiple of 8")
    header = json.loads(data[8:8 + size])
    base = 8 + size
    out, end_of_data = {}, 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        raw = data[base + begin:base + end]
        count = int(np.prod(info["shape"]))
        check(len(raw) == count * BYTES[info["dtype"]], f"{path}: {name}: byte count")
        if info["dtype"] == "BF16":
            bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            values = bits.view(np.float32)
        else:
            values = np.frombuffer(raw, dtype={"F32": "<f4", "F16": "<f2"}[info["dtype"]])
        values = torch.from_numpy(values.astype(np.float64)).reshape(info["shape"])
        out[name] = (info["dtype"], values)
        end_of_data = max(end_of_data, end)
    check(base + end_of_data == len(data), f"{path}: trailing or missing bytes")
    return out


def read_checkpoint(folder):
    index_path = os.path.join(folder, "model.safetensors.index.json")
    if not os.path.exists(index_path):
        return read_safetensors(os.path.join(folder, "model.safetensors")), None
    with open(index_path) as f:
        index = json.load(f)
    tensors = {}
    for file in sorted(set(index["weight_map"].values())):
        part = read_safetensors(os.path.join(folder, file))
        for name in part:
            check(index["weight_map"].get(name) == file, f"{folder}: {name} not mapped to {file}")
            check(name not in tensors, f"{folder}: {name} in two shards")
        tensors.update(part)
    check(set(tensors) == set(index["weight_map"]), f"{folder}: index and shards disagree")
    total = sum(t.numel() * BYTES[dtype] for dtype, t in tensors.values())
    check(index["metadata"]["total_size"] == total, f"{folder}: total_size {total}")
    return tensors, index


def expected_shapes(cfg):
    d, inner, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    heads, kv_heads, dim = cfg["num_attention_heads"], kv_heads_of(cfg), head_dim_of(cfg)
    biases = biases_of(cfg)
    out = {"model.embed_tokens.weight": [vocab, d], "model.norm.weight": [d]}
    if not cfg["tie_word_embeddings"]:
        out["lm_head.weight"] = [vocab, d]
    projections = {"self_attn.q_proj": ("q", heads * dim, d),
                   "self_attn.k_proj": ("k", kv_heads * dim, d),
                   "self_attn.v_proj": ("v", kv_heads * dim, d),
                   "self_attn.o_proj": ("o", d, heads * dim),
                   "mlp.gate_proj": ("gate", inner, d), "mlp.up_proj": ("up", inner, d),
                   "mlp.down_proj": ("down", d, inner)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out[p + "input_layernorm.weight"] = [d]
        out[p + "post_attention_layernorm.weight"] = [d]
        for name, (kind, rows, cols) in projections.items():
            out[p + name + ".weight"] = [rows, cols]
            if kind in biases:
                out[p + name + ".bias"] = [rows]
        if cfg["model_type"] == "qwen3":
            out[p + "self_attn.q_norm.weight"] = [dim]
            out[p + "self_attn.k_norm.weight"] = [dim]
    return out


def check_files(case):
    folder = os.path.join(OUT, case["name"])
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    tensors, index = read_checkpoint(folder)
    check((index is not None) == (case["shards"] > 1), f"{case['name']}: sharding")
    shapes = expected_shapes(cfg)
    check(set(tensors) == set(shapes), f"{case['name']}: names {sorted(set(tensors) ^ set(shapes))}")
    for name, (dtype, t) in tensors.items():
        check(list(t.shape) == shapes[name], f"{case['name']}: {name} shape {list(t.shape)}")
        check(dtype == expected["dtype"], f"{case['name']}: {name} dtype {dtype}")
    w = {name: t for name, (_, t) in tensors.items()}
    ids = expected["ids"]
    n = len(ids)
    attentions, logits = decoder_forward(w, cfg, ids)
    windows = layer_windows(cfg)
    check(expected["windows"] == windows, f"{case['name']}: windows")
    diff = 0.0
    for layer, (att, ref) in enumerate(zip(attentions, expected["attention"])):
        ref = torch.tensor(ref, dtype=torch.float64)
        check(ref.shape == (cfg["num_attention_heads"], n, n), f"{case['name']}: attention shape")
        diff = max(diff, float((att - ref).abs().max()))
        check(float((ref.sum(-1) - 1).abs().max()) < 1e-14, f"{case['name']}: rows sum to 1")
        i = torch.arange(n)[:, None]
        j = torch.arange(n)[None, :]
        allowed = j <= i
        if windows[layer] is not None:
            allowed = allowed & (i - j < windows[layer])
        check(bool((ref[:, ~allowed] == 0).all()) and bool((ref[:, allowed] > 0).all()),
              f"{case['name']}: layer {layer} zero pattern")
    ref_logits = torch.tensor(expected["logits"], dtype=torch.float64)
    check(ref_logits.shape == (n, cfg["vocab_size"]), f"{case['name']}: logits shape")
    diff = max(diff, float((logits - ref_logits).abs().max()))
    check(diff < 1e-12, f"{case['name']}: forward on read-back weights differs by {diff}")
    check(expected["top10"] == [top_ids(row, 10) for row in ref_logits], f"{case['name']}: top10")
    masked = sum(int(w_ is not None and w_ < n) for w_ in windows)
    print(f"files  {case['name']}: {len(tensors)} tensors, read back to {diff:.1e}, "
          f"{masked} layer(s) with a window that masks")
    return cfg, w, ids, attentions, logits


# ---------------------------------------------------------------------------------------------
# GQA against repeated kv heads.

def repeat_kv_heads(cfg, w):
    heads, kv_heads, dim = cfg["num_attention_heads"], kv_heads_of(cfg), head_dim_of(cfg)
    group = heads // kv_heads
    cfg_full = dict(cfg, num_key_value_heads=heads)
    w_full = dict(w)
    for name, t in w.items():
        if ".k_proj." in name or ".v_proj." in name:
            per_head = t.reshape(kv_heads, dim, *t.shape[1:])
            w_full[name] = per_head.repeat_interleave(group, dim=0).reshape(heads * dim, *t.shape[1:])
    return cfg_full, w_full


def check_gqa(name, cfg, w, ids, attentions, logits):
    if kv_heads_of(cfg) == cfg["num_attention_heads"]:
        print(f"GQA    {name}: multi-head already (kv heads = heads), skipped")
        return
    cfg_full, w_full = repeat_kv_heads(cfg, w)
    att_full, logits_full = decoder_forward(w_full, cfg_full, ids)
    diff = max(float((a - b).abs().max()) for a, b in zip(attentions, att_full))
    diff = max(diff, float((logits - logits_full).abs().max()))
    check(diff < 1e-13, f"{name}: GQA vs repeated kv heads differ by {diff}")
    print(f"GQA    {name}: {cfg['num_attention_heads']} heads on {kv_heads_of(cfg)} kv heads "
          f"= repeated multi-head model to {diff:.1e}")


# ---------------------------------------------------------------------------------------------
# RoPE.

def check_rope(name, cfg):
    dim = head_dim_of(cfg)
    inv = rope_inverse_frequencies(cfg)
    gen = torch.Generator().manual_seed(7)
    q = torch.randn(dim, generator=gen, dtype=torch.float64)
    k = torch.randn(dim, generator=gen, dtype=torch.float64)
    positions = torch.arange(64, dtype=torch.float64)
    q_rot = apply_rope(q.expand(64, dim), inv, positions)
    k_rot = apply_rope(k.expand(64, dim), inv, positions)
    scores = q_rot @ k_rot.T  # [m, n]
    spread, by_offset = 0.0, []
    for delta in range(-20, 21):
        values = torch.diagonal(scores, offset=-delta)  # entries with m - n = delta
        spread = max(spread, float(values.max() - values.min()))
        by_offset.append(float(values[0]))
    check(spread < 1e-12, f"{name}: RoPE score depends on more than m - n ({spread})")
    check(max(by_offset) - min(by_offset) > 0.1, f"{name}: RoPE score does not vary with m - n")
    # The complex form: z_j = x_j + i x_(j + d/2) turned by angle p f_j.
    half = dim // 2
    z = torch.complex(q[:half], q[half:])[None, :] * torch.exp(1j * positions[:, None] * inv[None, :])
    diff = float((torch.cat((z.real, z.imag), dim=-1) - q_rot).abs().max())
    check(diff < 1e-12, f"{name}: rotate-half differs from the complex rotation by {diff}")
    print(f"RoPE   {name}: score(m, n) a function of m - n to {spread:.1e} (m, n < 64); "
          f"rotate-half = complex rotation to {diff:.1e}")


def check_llama3_bands(name, cfg):
    scaling = cfg["rope_scaling"]
    bands = rope_bands(cfg)
    check({"high", "medium", "low"} <= set(bands), f"{name}: llama3 bands {bands}")
    dim, theta, factor = head_dim_of(cfg), cfg["rope_theta"], scaling["factor"]
    plain = [theta ** (-2.0 * j / dim) for j in range(dim // 2)]
    scaled = rope_inverse_frequencies(cfg).tolist()
    for j, band in enumerate(bands):
        if band == "high":
            check(scaled[j] == plain[j], f"{name}: frequency {j} should be kept")
        elif band == "low":
            check(abs(scaled[j] - plain[j] / factor) <= 1e-15 * plain[j],
                  f"{name}: frequency {j} / factor")
        else:
            check(plain[j] / factor < scaled[j] < plain[j], f"{name}: frequency {j} blended")
    print(f"RoPE   {name}: llama3 bands per frequency {' '.join(bands)}")


def main():
    torch.set_grad_enabled(False)
    for case in CASES:
        cfg, w, ids, attentions, logits = check_files(case)
        check_gqa(case["name"], cfg, w, ids, attentions, logits)
        check_rope(case["name"], cfg)
        scaling = cfg.get("rope_scaling")
        if scaling and scaling.get("rope_type") == "llama3":
            check_llama3_bands(case["name"], cfg)
    print("all checks passed")


if __name__ == "__main__":
    sys.exit(main())
