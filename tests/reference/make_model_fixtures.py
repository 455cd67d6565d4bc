#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tiny random GPT-2 and BERT checkpoints in the Hugging Face layout, with the attention of
every layer and head and the logits of a fixed token sequence, computed by the plain-PyTorch
forward passes below (written after transformers' modeling_gpt2.py / modeling_bert.py, which
is not installed here). tests/core/model/forward_test.cpp compares attn::model against them.

Writes tests/reference/fixtures/models/<case>/{config.json, model.safetensors, expected.json}.
Run with Debian's interpreter:  /usr/bin/python3 tests/reference/make_model_fixtures.py
The output is deterministic (fixed seeds, float32 weights, float64 reference arithmetic).
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "models")

# ---------------------------------------------------------------------------------------------
# safetensors writer (the format, not the safetensors package): 8-byte little-endian header
# length, a JSON header padded with spaces to a multiple of 8 (as the library does, so that
# tensors stay aligned), then the raw little-endian bytes.
DTYPES = {"F32": (np.float32, 4), "F16": (np.float16, 2), "I64": (np.int64, 8)}


def to_bytes(array, dtype):
    if dtype == "BF16":
        bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
        # round to nearest even, as torch.bfloat16 does
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
        return rounded.tobytes()
    np_type, _ = DTYPES[dtype]
    return np.ascontiguousarray(array, dtype=np_type).astype(np.dtype(np_type).newbyteorder("<")).tobytes()


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, numpy array, dtype name)."""
    header = {}
    if metadata:
        header["__metadata__"] = metadata
    blobs = []
    offset = 0
    for name, array, dtype in tensors:
        blob = to_bytes(array, dtype)
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def stored_value(array, dtype):
    """What a reader gets back from `array` stored as `dtype` (as float64 torch)."""
    if dtype == "F16":
        array = array.astype(np.float16).astype(np.float32)
    elif dtype == "BF16":
        array = torch.from_numpy(array).to(torch.bfloat16).to(torch.float32).numpy()
    return torch.from_numpy(np.asarray(array, dtype=np.float32)).to(torch.float64)


# ---------------------------------------------------------------------------------------------
# Plain-PyTorch forward passes. `w` maps the un-prefixed HF names to float64 tensors.

def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gelu_erf(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def split_heads(t, heads):
    n, d = t.shape
    return t.view(n, heads, d // heads).permute(1, 0, 2)  # h x n x d_h


def merge_heads(t):
    h, n, dh = t.shape
    return t.permute(1, 0, 2).reshape(n, h * dh)


def gpt2_forward(w, cfg, ids, last_logits_only=False, edit=None, edit_output=None):
    """Attention of every layer (h x n x n each) and the logits of every position, or of the
    last one only (as attn::model::forward computes by default; bench/torch_peer.py).
    Optional hooks (make_edit_fixtures.py): edit(layer, q, k, v) -> (q, k, v), called with the
    per-head projections (h x n x d_h, bias included) before the scores; edit_output(layer, o)
    -> o, called with the heads' outputs P V (h x n x d_h) before they are merged."""
    n = len(ids)
    d, heads, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    x = w["wte.weight"][ids] + w["wpe.weight"][torch.arange(n)]
    attentions = []
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    for i in range(cfg["n_layer"]):
        p = f"h.{i}."
        a = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"])  # Conv1D
        q, k, v = (split_heads(t, heads) for t in qkv.split(d, dim=1))
        if edit is not None:
            q, k, v = edit(i, q, k, v)
        scores = q @ k.transpose(-1, -2) / (v.size(-1) ** 0.5)
        scores = torch.where(causal, scores, torch.tensor(torch.finfo(scores.dtype).min, dtype=scores.dtype))
        probs = torch.softmax(scores, dim=-1)
        attentions.append(probs)
        o = probs @ v
        if edit_output is not None:
            o = edit_output(i, o)
        o = merge_heads(o)
        x = x + torch.addmm(w[p + "attn.c_proj.bias"], o, w[p + "attn.c_proj.weight"])
        m = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        f = gelu_new(torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"]))
        x = x + torch.addmm(w[p + "mlp.c_proj.bias"], f, w[p + "mlp.c_proj.weight"])
    x = F.layer_norm(x, (d,), w["ln_f.weight"], w["ln_f.bias"], eps)
    logits = (x[-1:] if last_logits_only else x) @ w["wte.weight"].T  # tied lm_head
    return attentions, logits


def bert_forward(w, cfg, ids, edit=None, edit_output=None):
    """As gpt2_forward (all positions' logits), with the same optional edit hooks."""
    n = len(ids)
    d, heads, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    ln = lambda t, name: F.layer_norm(t, (d,), w[name + ".weight"], w[name + ".bias"], eps)
    lin = lambda t, name: F.linear(t, w[name + ".weight"], w[name + ".bias"])
    token_types = torch.zeros(n, dtype=torch.long)
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][token_types]
    x = x + w["embeddings.position_embeddings.weight"][torch.arange(n)]
    x = ln(x, "embeddings.LayerNorm")
    attentions = []
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = split_heads(lin(x, p + "attention.self.query"), heads)
        k = split_heads(lin(x, p + "attention.self.key"), heads)
        v = split_heads(lin(x, p + "attention.self.value"), heads)
        if edit is not None:
            q, k, v = edit(i, q, k, v)
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // heads)
        probs = torch.softmax(scores, dim=-1)
        attentions.append(probs)
        o = probs @ v
        if edit_output is not None:
            o = edit_output(i, o)
        o = merge_heads(o)
        x = ln(lin(o, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        f = gelu_erf(lin(x, p + "intermediate.dense"))
        x = ln(lin(f, p + "output.dense") + x, p + "output.LayerNorm")
    t = gelu_erf(lin(x, "cls.predictions.transform.dense"))
    t = ln(t, "cls.predictions.transform.LayerNorm")
    decoder = w.get("cls.predictions.decoder.weight", w["embeddings.word_embeddings.weight"])
    logits = t @ decoder.T + w["cls.predictions.bias"]
    return attentions, logits


# ---------------------------------------------------------------------------------------------
# Random weights (float32, numpy; shapes and names as HF stores them).

def gpt2_weights(cfg, rng):
    d, inner, V, P = cfg["n_embd"], 4 * cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"]
    normal = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    w = {"wte.weight": normal(V, d, s=0.5), "wpe.weight": normal(P, d, s=0.2)}
    for i in range(cfg["n_layer"]):
        p = f"h.{i}."
        w[p + "ln_1.weight"] = 1 + normal(d, s=0.1)
        w[p + "ln_1.bias"] = normal(d, s=0.1)
        w[p + "attn.c_attn.weight"] = normal(d, 3 * d)
        w[p + "attn.c_attn.bias"] = normal(3 * d, s=0.1)
        w[p + "attn.c_proj.weight"] = normal(d, d)
        w[p + "attn.c_proj.bias"] = normal(d, s=0.1)
        w[p + "ln_2.weight"] = 1 + normal(d, s=0.1)
        w[p + "ln_2.bias"] = normal(d, s=0.1)
        w[p + "mlp.c_fc.weight"] = normal(d, inner)
        w[p + "mlp.c_fc.bias"] = normal(inner, s=0.1)
        w[p + "mlp.c_proj.weight"] = normal(inner, d, s=0.15)
        w[p + "mlp.c_proj.bias"] = normal(d, s=0.1)
    w["ln_f.weight"] = 1 + normal(d, s=0.1)
    w["ln_f.bias"] = normal(d, s=0.1)
    return w


def bert_weights(cfg, rng):
    d, inner, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    P, T = cfg["max_position_embeddings"], cfg["type_vocab_size"]
    normal = lambda *shape, s=0.3: (rng.standard_normal(shape) * s).astype(np.float32)
    w = {"embeddings.word_embeddings.weight": normal(V, d, s=0.5),
         "embeddings.position_embeddings.weight": normal(P, d, s=0.2),
         "embeddings.token_type_embeddings.weight": normal(T, d, s=0.2),
         "embeddings.LayerNorm.weight": 1 + normal(d, s=0.1),
         "embeddings.LayerNorm.bias": normal(d, s=0.1)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            w[p + f"attention.self.{name}.weight"] = normal(d, d)
            w[p + f"attention.self.{name}.bias"] = normal(d, s=0.1)
        w[p + "attention.output.dense.weight"] = normal(d, d)
        w[p + "attention.output.dense.bias"] = normal(d, s=0.1)
        w[p + "attention.output.LayerNorm.weight"] = 1 + normal(d, s=0.1)
        w[p + "attention.output.LayerNorm.bias"] = normal(d, s=0.1)
        w[p + "intermediate.dense.weight"] = normal(inner, d)
        w[p + "intermediate.dense.bias"] = normal(inner, s=0.1)
        w[p + "output.dense.weight"] = normal(d, inner, s=0.2)
        w[p + "output.dense.bias"] = normal(d, s=0.1)
        w[p + "output.LayerNorm.weight"] = 1 + normal(d, s=0.1)
        w[p + "output.LayerNorm.bias"] = normal(d, s=0.1)
    w["cls.predictions.transform.dense.weight"] = normal(d, d)
    w["cls.predictions.transform.dense.bias"] = normal(d, s=0.1)
    w["cls.predictions.transform.LayerNorm.weight"] = 1 + normal(d, s=0.1)
    w["cls.predictions.transform.LayerNorm.bias"] = normal(d, s=0.1)
    w["cls.predictions.bias"] = normal(V, s=0.1)
    return w


GPT2_CONFIG = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": 2,
               "n_head": 4, "n_embd": 16, "n_positions": 32, "n_ctx": 32, "vocab_size": 64,
               "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new", "n_inner": None,
               "scale_attn_weights": True, "bos_token_id": 63, "eos_token_id": 63}
BERT_CONFIG = {"model_type": "bert", "architectures": ["BertForMaskedLM"],
               "num_hidden_layers": 2, "num_attention_heads": 3, "hidden_size": 24,
               "intermediate_size": 48, "max_position_embeddings": 32, "type_vocab_size": 2,
               "vocab_size": 80, "layer_norm_eps": 1e-12, "hidden_act": "gelu",
               "position_embedding_type": "absolute", "pad_token_id": 0}
BERT_MASK_ID = 3


def rounded(values):
    return [float(f"{v:.8g}") for v in values]


def top10(row):
    probs = torch.softmax(row, dim=-1)
    values, indices = torch.sort(probs, descending=True, stable=True)
    return [[int(i), float(f"{v:.8g}")] for v, i in zip(values[:10], indices[:10])]


def make_case(name, family, seed, dtype, prefix, ids, extras=None, rename=None, metadata=None):
    rng = np.random.default_rng(seed)
    cfg = dict(GPT2_CONFIG if family == "gpt2" else BERT_CONFIG)
    weights = gpt2_weights(cfg, rng) if family == "gpt2" else bert_weights(cfg, rng)
    if extras:
        weights.update(extras(weights))
    # The reference sees exactly what the reader gets back from the stored dtype.
    w = {k: stored_value(v, dtype) for k, v in weights.items() if v.dtype == np.float32}
    forward = gpt2_forward if family == "gpt2" else bert_forward
    attentions, logits = forward(w, cfg, torch.tensor(ids))
    # Sanity: float32 arithmetic gives the same to well within the C++ tolerances.
    attentions32, logits32 = forward({k: v.float() for k, v in w.items()}, cfg, torch.tensor(ids))
    diff_att = max(float((a - b.double()).abs().max()) for a, b in zip(attentions, attentions32))
    diff_logit = float((logits - logits32.double()).abs().max())

    tensors = []
    for key, value in weights.items():
        stored_name = rename(key) if rename else key
        if not stored_name.startswith("cls."):
            stored_name = prefix + stored_name
        tensors.append((stored_name, value, dtype if value.dtype == np.float32 else "I64"))
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, metadata)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")

    if family == "gpt2":
        predict = [len(ids) - 1]
    else:
        predict = [i for i, t in enumerate(ids) if t == BERT_MASK_ID]
    expected = {
        "generator": f"make_model_fixtures.py, torch {torch.__version__}, float64",
        "family": family, "dtype": dtype, "ids": ids,
        "mask_token_id": BERT_MASK_ID if family == "bert" else -1,
        "layers": len(attentions), "heads": attentions[0].shape[0],
        "attention": [[rounded(head.flatten().tolist()) for head in layer] for layer in attentions],
        "logits": [rounded(row.tolist()) for row in logits],
        "predictions": [{"position": p, "top": top10(logits[p])} for p in predict],
    }
    with open(os.path.join(folder, "expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    print(f"{name}: float32 vs float64 torch: attention {diff_att:.2e}, logits {diff_logit:.2e}")


def main():
    torch.set_grad_enabled(False)
    gpt2_ids = [5, 17, 42, 8, 63, 0, 31, 31, 12, 50, 7, 29]
    bert_ids = [1, 14, 27, 66, 3, 40, 9, 52, 71, 3, 18, 2]  # 3 = [MASK]
    make_case("gpt2_tiny", "gpt2", 1, "F32", "", gpt2_ids, metadata={"format": "pt"})
    make_case("gpt2_tiny_f16_prefixed", "gpt2", 2, "F16", "transformer.", gpt2_ids)

    def old_names(key):  # older BERT checkpoints: LayerNorm.gamma / LayerNorm.beta
        if "LayerNorm." in key:
            return key.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta")
        return key

    def tied_decoder_and_position_ids(w):  # as older HF saves: decoder stored, I64 buffer
        return {"cls.predictions.decoder.weight": w["embeddings.word_embeddings.weight"].copy(),
                "embeddings.position_ids": np.arange(32, dtype=np.int64).reshape(1, 32)}

    make_case("bert_tiny", "bert", 3, "F32", "", bert_ids, metadata={"format": "pt"})
    make_case("bert_tiny_bf16_prefixed", "bert", 4, "BF16", "bert.", bert_ids,
              extras=tied_decoder_and_position_ids, rename=old_names)


if __name__ == "__main__":
    sys.exit(main())
