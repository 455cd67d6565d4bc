#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tiny random Llama, Mistral, Qwen2 and Qwen3 checkpoints in the Hugging Face layout, with the
attention of every layer and query head and the logits of a fixed token sequence, computed by
the plain-PyTorch forward pass below. transformers is not installed here; the pass is written
after its modeling_llama.py / modeling_mistral.py / modeling_qwen2.py / modeling_qwen3.py and
modeling_rope_utils.py. The C++ decoder forward pass is compared against these fixtures.

Writes tests/reference/fixtures/decoders/<case>/:
  config.json       as the hub ships such a model (sorted keys, indent 2, as save_pretrained)
  model.safetensors, or model-0000{1,2}-of-00002.safetensors + model.safetensors.index.json
                    ({"metadata": {"total_size": bytes of all tensors}, "weight_map": {name: file}})
  expected.json     see EXPECTED below
Run with Debian's interpreter:  /usr/bin/python3 tests/reference/make_decoder_fixtures.py
The output is deterministic (fixed seeds, float32 weights rounded to the stored dtype, float64
reference arithmetic). check_decoder_fixtures.py reads the files back and checks them.

The forward pass (float64, from the stored weights widened to float64), per layer i:
  h = RMSNorm(x) = w * x / sqrt(mean(x^2) + eps)                        input_layernorm
  q, k, v = h W^T (+ b)        heads of head_dim = config head_dim, else hidden / heads
  Qwen3 only: q and k of every head RMSNorm'ed over head_dim (q_norm, k_norm), before RoPE
  RoPE, rotate-half: f_j = theta^(-2j/head_dim) (float64; HF computes these in float32),
      scaled by rope_scaling ("rope_type", or the old key "type"): linear f_j / factor; llama3
      (Llama 3.1): wavelength 2 pi / f_j > original / low_freq_factor: f_j / factor; below
      original / high_freq_factor: kept; between: (1 - s) f_j / factor + s f_j with
      s = (original / wavelength - low) / (high - low).
      angle(p, j) = p f_j; x * cos(cat(a, a)) + rotate_half(x) * sin(cat(a, a)),
      rotate_half(x) = cat(-x[d/2:], x[:d/2])
  grouped-query attention: query head j reads kv head j // (heads / kv_heads)
  P = softmax(q k^T / sqrt(head_dim)), causal; a sliding window W lets query i see key j only
      when 0 <= i - j < W (masking_utils.sliding_window_overlay: kv_idx > q_idx - W)
  x = x + (P v, heads concatenated) W_o^T (+ b_o)
  x = x + down(silu(gate(h)) * up(h)),  h = post_attention_layernorm(x)
then model.norm and logits = x lm_head^T (embed_tokens when tie_word_embeddings).

Biases: Llama: q, k, v and o_proj when attention_bias, gate/up/down_proj when mlp_bias;
Qwen2: q, k, v_proj always, never o_proj (no config key); Qwen3: all four when attention_bias;
Mistral: none.

Sliding window, as current transformers decides it (configuration_qwen2.py / _qwen3.py build
config.layer_types; modeling_*.py pick the mask per layer):
  Llama: never. Mistral: every layer when sliding_window is not null.
  Qwen2 / Qwen3: sliding_window is set to None unless use_sliding_window is true; then layer i
  slides iff i >= max_window_layers (the first max_window_layers layers attend fully).
  transformers 4.4x built one mask for the eager and sdpa paths and applied the window to every
  layer; only its flash-attention path honoured max_window_layers. We follow the current rule.

EXPECTED (expected.json, one JSON object):
  "generator"  script, torch version, "float64"
  "case", "family" (model_type), "dtype" (stored: F32, F16, BF16), "seed" (the seed used)
  "ids"        n token ids
  "layers", "heads", "kv_heads", "head_dim"
  "windows"    per layer the sliding window in force, or null
  "attention"  [layer][query head][query row i][key column j]: n x n, rows sum to 1, exact 0.0
               where masked
  "logits"     [position][vocab id]: n x V, every position
  "top10"      [position][rank]: the 10 ids of the largest logits, descending, equal logits by
               the lower id (the seed is chosen so that no two of a row's top 11 logits are
               within 1e-3)
Floats are written in full precision (Python's repr: they read back to the same double).
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model_fixtures import stored_value, write_safetensors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "decoders")
TORCH_DTYPE = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}
BYTES = {"F32": 4, "F16": 2, "BF16": 2}
MIN_TOP_GAP = 1e-3  # smallest allowed distance between two of a row's 11 largest logits


# ---------------------------------------------------------------------------------------------
# What a config means (shared with check_decoder_fixtures.py).

def head_dim_of(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def kv_heads_of(cfg):
    return cfg.get("num_key_value_heads") or cfg["num_attention_heads"]


def biases_of(cfg):
    """The projections that carry a bias: a set of 'q' 'k' 'v' 'o' 'gate' 'up' 'down'."""
    family = cfg["model_type"]
    out = set()
    if family == "llama":
        if cfg.get("attention_bias", False):
            out |= {"q", "k", "v", "o"}
        if cfg.get("mlp_bias", False):
            out |= {"gate", "up", "down"}
    elif family == "qwen2":
        out |= {"q", "k", "v"}
    elif family == "qwen3":
        if cfg.get("attention_bias", False):
            out |= {"q", "k", "v", "o"}
    elif family != "mistral":
        raise ValueError(f"unknown model_type {family}")
    return out


def layer_windows(cfg):
    """The sliding window of every layer (None: full causal attention)."""
    layers, family = cfg["num_hidden_layers"], cfg["model_type"]
    window = cfg.get("sliding_window")
    if family == "mistral":
        return [window] * layers
    if family in ("qwen2", "qwen3"):
        if not cfg.get("use_sliding_window", False) or window is None:
            return [None] * layers
        return [window if i >= cfg["max_window_layers"] else None for i in range(layers)]
    return [None] * layers


def rope_inverse_frequencies(cfg):
    """The head_dim / 2 inverse frequencies, float64, rope_scaling applied."""
    dim = head_dim_of(cfg)
    theta = float(cfg.get("rope_theta", 10000.0))
    j = torch.arange(dim // 2, dtype=torch.float64)
    inv = theta ** (-2.0 * j / dim)
    scaling = cfg.get("rope_scaling")
    kind = None if scaling is None else scaling.get("rope_type", scaling.get("type"))
    if kind in (None, "default"):
        return inv
    factor = float(scaling["factor"])
    if kind == "linear":
        return inv / factor
    if kind == "llama3":
        low, high = float(scaling["low_freq_factor"]), float(scaling["high_freq_factor"])
        original = float(scaling["original_max_position_embeddings"])
        wavelength = 2.0 * math.pi / inv
        out = inv.clone()
        for idx in range(len(inv)):
            if wavelength[idx] > original / low:  # long wavelength: interpolated
                out[idx] = inv[idx] / factor
            elif wavelength[idx] >= original / high:  # medium: blended
                s = (original / wavelength[idx] - low) / (high - low)
                out[idx] = (1.0 - s) * inv[idx] / factor + s * inv[idx]
        return out
    raise ValueError(f"rope scaling {kind} is not covered here")


def rope_bands(cfg):
    """llama3 only: per frequency 'high' (kept), 'medium' (blended) or 'low' (divided)."""
    scaling = cfg["rope_scaling"]
    dim, theta = head_dim_of(cfg), float(cfg["rope_theta"])
    original = float(scaling["original_max_position_embeddings"])
    out = []
    for j in range(dim // 2):
        wavelength = 2.0 * math.pi * theta ** (2.0 * j / dim)
        if wavelength > original / scaling["low_freq_factor"]:
            out.append("low")
        elif wavelength >= original / scaling["high_freq_factor"]:
            out.append("medium")
        else:
            out.append("high")
    return out


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(x, inv_freq, positions):
    """x: ... x n x head_dim; positions: n. The angles are float64 whatever x's type."""
    angles = positions.double()[:, None] * inv_freq.double()[None, :]
    angles = torch.cat((angles, angles), dim=-1)
    cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)
    return x * cos + rotate_half(x) * sin


def rms_norm(x, weight, eps):
    return weight * (x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps))


# ---------------------------------------------------------------------------------------------
# The forward pass. `w` maps the hub's tensor names to float64 tensors.

def decoder_forward(w, cfg, ids, last_logits_only=False):
    """Returns (attention: list over layers of heads x n x n, logits: n x V, or 1 x V for the
    last position only, as attn::model::forward computes by default). Runs in the dtype of `w`
    (the fixtures: float64; bench/torch_decoder_peer.py: float32)."""
    n = len(ids)
    heads, kv_heads, dim = cfg["num_attention_heads"], kv_heads_of(cfg), head_dim_of(cfg)
    group = heads // kv_heads
    eps = cfg["rms_norm_eps"]
    biases = biases_of(cfg)
    windows = layer_windows(cfg)
    inv_freq = rope_inverse_frequencies(cfg)
    positions = torch.arange(n, dtype=torch.float64)
    offset = positions[:, None] - positions[None, :]  # i - j

    def linear(t, prefix, proj):
        name = f"{prefix}{proj}_proj"
        bias = w[name + ".bias"] if proj in biases else None
        return F.linear(t, w[name + ".weight"], bias)

    x = w["model.embed_tokens.weight"][torch.tensor(ids)]
    attentions = []
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        h = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = linear(h, p + "self_attn.", "q").view(n, heads, dim).transpose(0, 1)
        k = linear(h, p + "self_attn.", "k").view(n, kv_heads, dim).transpose(0, 1)
        v = linear(h, p + "self_attn.", "v").view(n, kv_heads, dim).transpose(0, 1)
        if cfg["model_type"] == "qwen3":
            q = rms_norm(q, w[p + "self_attn.q_norm.weight"], eps)
            k = rms_norm(k, w[p + "self_attn.k_norm.weight"], eps)
        q = apply_rope(q, inv_freq, positions)
        k = apply_rope(k, inv_freq, positions)
        kv_of_head = torch.arange(heads) // group
        k, v = k[kv_of_head], v[kv_of_head]
        allowed = offset >= 0
        if windows[i] is not None:
            allowed = allowed & (offset < windows[i])
        scores = q @ k.transpose(-1, -2) / math.sqrt(dim)
        probs = torch.softmax(scores.masked_fill(~allowed, -math.inf), dim=-1)
        attentions.append(probs)
        o = (probs @ v).transpose(0, 1).reshape(n, heads * dim)
        x = x + linear(o, p + "self_attn.", "o")
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        gated = F.silu(linear(h, p + "mlp.", "gate")) * linear(h, p + "mlp.", "up")
        x = x + linear(gated, p + "mlp.", "down")
    if last_logits_only:
        x = x[-1:]
    x = rms_norm(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    return attentions, x @ head.T


def top_ids(row, count):
    """The ids of the `count` largest values of row, descending, equal values by lower id."""
    values = row.tolist()
    return sorted(range(len(values)), key=lambda j: (-values[j], j))[:count]


def smallest_top_gap(logits):
    gap = math.inf
    for row in logits:
        top = sorted(row.tolist(), reverse=True)[:11]
        gap = min(gap, min(a - b for a, b in zip(top, top[1:])))
    return gap


# ---------------------------------------------------------------------------------------------
# Random weights (float32 numpy, the hub's names and nn.Linear shapes [out, in]).

def decoder_weights(cfg, rng):
    d, inner, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    heads, kv_heads, dim = cfg["num_attention_heads"], kv_heads_of(cfg), head_dim_of(cfg)
    biases = biases_of(cfg)
    normal = lambda *shape, s: (rng.standard_normal(shape) * s).astype(np.float32)
    norm = lambda size: (1.0 + rng.standard_normal(size) * 0.1).astype(np.float32)
    shapes = {"q": (heads * dim, d), "k": (kv_heads * dim, d), "v": (kv_heads * dim, d),
              "o": (d, heads * dim), "gate": (inner, d), "up": (inner, d), "down": (d, inner)}
    # q and k at 0.25-0.3: scores of a few units, so that the maps are far from uniform
    scale = {"q": 0.3, "k": 0.3, "v": 0.3, "o": 0.2, "gate": 0.3, "up": 0.3, "down": 0.15}
    w = {"model.embed_tokens.weight": normal(vocab, d, s=0.5)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = norm(d)
        for proj in ("q", "k", "v", "o"):
            name = f"{p}self_attn.{proj}_proj"
            w[name + ".weight"] = normal(*shapes[proj], s=scale[proj])
            if proj in biases:
                w[name + ".bias"] = normal(shapes[proj][0], s=0.1)
        if cfg["model_type"] == "qwen3":
            # 1.6 +- 0.1: q and k are normalised to |q| = |k| = sqrt(head_dim), and with norm
            # weights near 1 the rows' largest weight averages 0.4 here; with 1.6, 0.6.
            w[p + "self_attn.q_norm.weight"] = norm(dim) + 0.6
            w[p + "self_attn.k_norm.weight"] = norm(dim) + 0.6
        w[p + "post_attention_layernorm.weight"] = norm(d)
        for proj in ("gate", "up", "down"):
            name = f"{p}mlp.{proj}_proj"
            w[name + ".weight"] = normal(*shapes[proj], s=scale[proj])
            if proj in biases:
                w[name + ".bias"] = normal(shapes[proj][0], s=0.1)
    w["model.norm.weight"] = norm(d)
    if not cfg.get("tie_word_embeddings"):
        w["lm_head.weight"] = normal(vocab, d, s=0.5)
    return w


# ---------------------------------------------------------------------------------------------
# The cases: configs with the keys their families' hub checkpoints carry.

CASES = [
    {   # Llama 3.2 style: tied, GQA, llama3 RoPE. With theta 500000 and head_dim 16 the
        # wavelengths are 6.3, 32.4, 167, ...: original 64 puts the first under 64/4 (kept),
        # the second between 16 and 64 (blended) and the rest above 64 (divided by 8).
        "name": "llama3_tied_bf16", "dtype": "BF16", "seed": 101, "shards": 1,
        "ids": [126, 9, 77, 31, 4, 100, 58, 13, 9, 77, 31, 62, 88, 5, 120, 41, 9, 77, 19, 64],
        "config": {
            "architectures": ["LlamaForCausalLM"], "attention_bias": False,
            "attention_dropout": 0.0, "bos_token_id": 126, "eos_token_id": 127, "head_dim": 16,
            "hidden_act": "silu", "hidden_size": 64, "initializer_range": 0.02,
            "intermediate_size": 64, "max_position_embeddings": 512, "mlp_bias": False,
            "model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 2,
            "num_key_value_heads": 2, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
            "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                             "original_max_position_embeddings": 64, "rope_type": "llama3"},
            "rope_theta": 500000.0, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
            "transformers_version": "4.45.0", "use_cache": True, "vocab_size": 128}},
    {   # Llama 2 style (no head_dim key), untied, with both bias flags and old-style linear
        # RoPE scaling ("type", not "rope_type"); written as two shards with an index.
        "name": "llama2_sharded_f16", "dtype": "F16", "seed": 201, "shards": 2,
        "ids": [1, 23, 57, 8, 71, 23, 57, 40, 12, 66, 3, 23, 57, 79, 30, 45],
        "config": {
            "architectures": ["LlamaForCausalLM"], "attention_bias": True,
            "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2,
            "hidden_act": "silu", "hidden_size": 32, "initializer_range": 0.02,
            "intermediate_size": 64, "max_position_embeddings": 64, "mlp_bias": True,
            "model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 2,
            "num_key_value_heads": 4, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
            "rope_scaling": {"factor": 2.0, "type": "linear"}, "rope_theta": 10000.0,
            "tie_word_embeddings": False, "torch_dtype": "float16",
            "transformers_version": "4.31.0", "use_cache": True, "vocab_size": 80}},
    {   # Mistral 7B v0.1 style: every layer slides (window 5 < 14 tokens), one kv head.
        "name": "mistral_window_f32", "dtype": "F32", "seed": 301, "shards": 1,
        "ids": [1, 40, 17, 52, 9, 33, 40, 17, 61, 5, 28, 40, 17, 44],
        "config": {
            "architectures": ["MistralForCausalLM"], "attention_dropout": 0.0,
            "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 32,
            "initializer_range": 0.02, "intermediate_size": 48, "max_position_embeddings": 64,
            "model_type": "mistral", "num_attention_heads": 4, "num_hidden_layers": 2,
            "num_key_value_heads": 1, "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
            "sliding_window": 5, "tie_word_embeddings": False, "torch_dtype": "float32",
            "transformers_version": "4.34.0", "use_cache": True, "vocab_size": 64}},
    {   # Qwen2 style: q/k/v biases (no o bias), tied; the window (4) is on and
        # max_window_layers 1, so layer 0 attends fully and layer 1 slides.
        "name": "qwen2_bias_bf16", "dtype": "BF16", "seed": 401, "shards": 1,
        "ids": [94, 12, 70, 33, 5, 81, 12, 70, 47, 26, 90, 12, 70, 58],
        "config": {
            "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0,
            "bos_token_id": 94, "eos_token_id": 95, "hidden_act": "silu", "hidden_size": 32,
            "initializer_range": 0.02, "intermediate_size": 64, "max_position_embeddings": 128,
            "max_window_layers": 1, "model_type": "qwen2", "num_attention_heads": 4,
            "num_hidden_layers": 2, "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
            "rope_theta": 1000000.0, "sliding_window": 4, "tie_word_embeddings": True,
            "torch_dtype": "bfloat16", "transformers_version": "4.40.1", "use_cache": True,
            "use_sliding_window": True, "vocab_size": 96}},
    {   # Qwen3 style: head_dim 16 with 4 heads (64) != hidden 48, q_norm/k_norm, no biases.
        "name": "qwen3_qknorm_bf16", "dtype": "BF16", "seed": 501, "shards": 1,
        "ids": [62, 7, 44, 19, 53, 7, 44, 2, 36, 11, 58, 7, 44, 27, 50],
        "config": {
            "architectures": ["Qwen3ForCausalLM"], "attention_bias": False,
            "attention_dropout": 0.0, "bos_token_id": 62, "eos_token_id": 63, "head_dim": 16,
            "hidden_act": "silu", "hidden_size": 48, "initializer_range": 0.02,
            "intermediate_size": 64, "max_position_embeddings": 128, "max_window_layers": 2,
            "model_type": "qwen3", "num_attention_heads": 4, "num_hidden_layers": 2,
            "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None,
            "rope_theta": 1000000, "sliding_window": None, "tie_word_embeddings": True,
            "torch_dtype": "bfloat16", "transformers_version": "4.51.0", "use_cache": True,
            "use_sliding_window": False, "vocab_size": 64}},
]


def shard_of(name, shards):
    """Two shards as save_pretrained would cut them: embeddings and layer 0 first."""
    if shards == 1:
        return "model.safetensors"
    first = name.startswith("model.embed_tokens.") or name.startswith("model.layers.0.")
    return f"model-0000{1 if first else 2}-of-00002.safetensors"


def write_checkpoint(folder, weights, dtype, shards, shard=None):
    """`shard(name)` names a tensor's file (default: shard_of(name, shards))."""
    shard = shard or (lambda name: shard_of(name, shards))
    files = {}
    for name in sorted(weights):
        files.setdefault(shard(name), []).append((name, weights[name], dtype))
    for file, tensors in files.items():
        write_safetensors(os.path.join(folder, file), tensors, {"format": "pt"})
    if shards > 1:
        total = sum(a.size * BYTES[dtype] for a in weights.values())
        index = {"metadata": {"total_size": total},
                 "weight_map": {name: shard(name) for name in sorted(weights)}}
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            f.write(json.dumps(index, indent=2, sort_keys=True) + "\n")


def make_case(case):
    cfg, dtype, ids = case["config"], case["dtype"], case["ids"]
    assert cfg["torch_dtype"] == TORCH_DTYPE[dtype] and max(ids) < cfg["vocab_size"]
    seed = case["seed"]
    while True:  # the first seed from case["seed"] on whose top-11 logits are well apart
        weights = decoder_weights(cfg, np.random.default_rng(seed))
        # The reference sees exactly what a reader gets back from the stored dtype.
        w = {k: stored_value(v, dtype) for k, v in weights.items()}
        attentions, logits = decoder_forward(w, cfg, ids)
        if smallest_top_gap(logits) >= MIN_TOP_GAP:
            break
        seed += 1
    # How far float32 arithmetic lands from the float64 reference (for the C++ tolerances).
    attentions32, logits32 = decoder_forward({k: v.float() for k, v in w.items()}, cfg, ids)
    diff_att = max(float((a - b.double()).abs().max()) for a, b in zip(attentions, attentions32))
    diff_logit = float((logits - logits32.double()).abs().max())

    folder = os.path.join(OUT, case["name"])
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    write_checkpoint(folder, weights, dtype, case["shards"])
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    expected = {
        "generator": f"make_decoder_fixtures.py, torch {torch.__version__}, float64",
        "case": case["name"], "family": cfg["model_type"], "dtype": dtype, "seed": seed,
        "ids": ids, "layers": cfg["num_hidden_layers"], "heads": cfg["num_attention_heads"],
        "kv_heads": kv_heads_of(cfg), "head_dim": head_dim_of(cfg),
        "windows": layer_windows(cfg),
        "attention": [[head.tolist() for head in layer] for layer in attentions],
        "logits": logits.tolist(),
        "top10": [top_ids(row, 10) for row in logits],
    }
    with open(os.path.join(folder, "expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    peak = torch.stack([a.max(dim=-1).values[:, 1:].mean() for a in attentions]).mean()
    print(f"{case['name']}: seed {seed}, top-11 gap {smallest_top_gap(logits):.2e}, mean row "
          f"max {float(peak):.2f}; float32 vs float64: attention {diff_att:.1e}, logits "
          f"{diff_logit:.1e}")


def main():
    torch.set_grad_enabled(False)
    for case in CASES:
        make_case(case)


if __name__ == "__main__":
    sys.exit(main())
