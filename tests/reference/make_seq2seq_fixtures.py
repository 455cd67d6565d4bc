#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tiny random BART, Marian (opus-mt) and T5 checkpoints in the Hugging Face layout, with every
encoder, decoder and cross-attention map and the logits of a fixed source and target, computed by
the plain-PyTorch float64 forward passes below. transformers is not installed here; the passes are
written after its modeling_bart.py, modeling_marian.py and modeling_t5.py. The C++ pass
(core/model/seq2seq_forward.cpp) is compared against them in
tests/core/model/seq2seq_forward_test.cpp.

Writes tests/reference/fixtures/seq2seq/<case>/:
  config.json        as the hub ships such a model (sorted keys, indent 2)
  the tokenizer's files, for the *_tokenizer cases (from tests/reference/tokenizers/seq2seq/)
  model.safetensors, two shards + model.safetensors.index.json, or pytorch_model.bin (written by
                     torch.save itself, an OrderedDict state dict as model.state_dict() gives)
  expected.json      see EXPECTED below
Run with Debian's interpreter:  /usr/bin/python3 tests/reference/make_seq2seq_fixtures.py
The output is deterministic (fixed seeds, float32 weights rounded to the stored dtype, float64
arithmetic).

BART (BartForConditionalGeneration), per stack:
  x = embed(ids) * (sqrt(d) if scale_embedding) + embed_positions[2 + p]   (the offset of 2)
  x = layernorm_embedding(x)
  per layer, post-LN:  x = LN(x + SelfAttn(x));  decoder: x = LN(x + CrossAttn(x, enc));
                       x = LN(x + fc2(act(fc1(x))))
  scores = (q / sqrt(head_dim)) k^T; decoder self-attention causal. LayerNorm eps 1e-5.
  logits = x shared^T + final_logits_bias
Marian: as BART without layernorm_embedding, x = embed(ids) * sqrt(d) + S[p] with the sinusoids
  S[p, c] = sin(p / 10000^(2c/d)) for c < d/2, S[p, d/2 + c] = cos(p / 10000^(2c/d)),
  activation "swish" (SiLU), decoder_start_token_id = pad_token_id.
T5 (T5ForConditionalGeneration), per stack, pre-norm with RMSNorm (no mean, no bias):
  x = shared[ids];  per layer:  x = x + SelfAttn(RMS(x));  decoder: x = x + CrossAttn(RMS(x), enc)
  x = x + wo(act(wi(RMS(x))))  or, gated:  x = x + wo(act(wi_0(h)) * wi_1(h)),  h = RMS(x)
  then the stack's final_layer_norm.
  scores = q k^T + B (NO division by sqrt(head_dim)); B[h, i, j] = bias[bucket(j - i), h] from
  block 0's relative_attention_bias, shared by the stack's layers; bidirectional buckets in the
  encoder, causal ones in the decoder (below, computed in float32 as torch does); cross-attention
  has no bias. logits = (x * d^-0.5 when tie_word_embeddings) lm_head^T.

EXPECTED (expected.json, one JSON object):
  "generator", "case", "family" (model_type), "dtype" (F32, F16, BF16), "format"
  ("safetensors", "sharded", "bin"), "seed"
  "source_ids", "target_ids"  the encoder's and the decoder's input ids (target_ids begins with
                              decoder_start_token_id)
  "encoder_layers", "decoder_layers", "heads", "head_dim"
  "encoder_attention" [layer][head][i][j] source x source
  "decoder_attention" [layer][head][i][j] target x target, exact 0.0 above the diagonal
  "cross_attention"   [layer][head][i][j] target x source
  "logits"  [target position][vocab id] (final_logits_bias included)
  "top10"   [target position][rank]: ids of the 10 largest logits, descending, ties by lower id
            (the seed is chosen so that no two of a row's top 11 logits are within 1e-3)
"""
import collections
import functools
import json
import math
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_decoder_fixtures import smallest_top_gap, top_ids, write_checkpoint  # noqa: E402
from make_model_fixtures import stored_value  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "seq2seq")
TORCH_DTYPE = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
CONFIG_DTYPE = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}
MIN_TOP_GAP = 1e-3


# ---------------------------------------------------------------------------------------------
# Pieces shared by the families.

def act(name, x):
    if name == "gelu":
        return F.gelu(x)
    if name in ("gelu_new", "gelu_pytorch_tanh"):
        return F.gelu(x, approximate="tanh")
    if name == "relu":
        return F.relu(x)
    if name in ("swish", "silu"):
        return F.silu(x)
    raise ValueError(name)


def layer_norm(x, w, prefix, eps=1e-5):
    return F.layer_norm(x, (x.shape[-1],), w[prefix + ".weight"], w[prefix + ".bias"], eps)


def rms_norm(x, weight, eps):
    return weight * (x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps))


def attention(x, source, w, prefix, names, heads, head_dim, scale, causal, bias=None):
    """Returns (heads x n x m maps, n x d output) of one attention block."""
    n, m = x.shape[0], source.shape[0]

    def proj(t, name):
        b = w.get(f"{prefix}{name}.bias")
        return F.linear(t, w[f"{prefix}{name}.weight"], b)

    q = proj(x, names[0]).view(n, heads, head_dim).transpose(0, 1)
    k = proj(source, names[1]).view(m, heads, head_dim).transpose(0, 1)
    v = proj(source, names[2]).view(m, heads, head_dim).transpose(0, 1)
    scores = (q * scale) @ k.transpose(-1, -2)
    if bias is not None:
        scores = scores + bias
    if causal:
        future = torch.ones(n, m, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(future, -math.inf)
    probs = torch.softmax(scores, dim=-1)
    out = (probs @ v).transpose(0, 1).reshape(n, heads * head_dim)
    return probs, proj(out, names[3])


@functools.lru_cache(maxsize=None)
def sinusoids(positions, d):
    """MarianSinusoidalPositionalEmbedding: sines in the first half, cosines in the second
    (a constant table: computed once per shape, as the model holds it)."""
    j = np.arange(d)
    enc = np.arange(positions)[:, None] / np.power(10000, 2 * (j // 2) / d)[None, :]
    out = np.zeros((positions, d))
    half = d // 2 if d % 2 == 0 else d // 2 + 1
    out[:, :half] = np.sin(enc[:, 0::2])
    out[:, half:] = np.cos(enc[:, 1::2])
    return torch.from_numpy(out)


# ---------------------------------------------------------------------------------------------
# BART and Marian.

BART_NAMES = ("q_proj", "k_proj", "v_proj", "out_proj")


def bart_stack(w, cfg, ids, decoder, encoded=None):
    family = cfg["model_type"]
    d, heads = cfg["d_model"], cfg["encoder_attention_heads"]
    dim = d // heads
    s = "model.decoder." if decoder else "model.encoder."
    n = len(ids)
    scale_emb = math.sqrt(d) if cfg.get("scale_embedding", False) else 1.0
    x = w["model.shared.weight"][torch.tensor(ids)] * scale_emb
    if family == "bart":
        x = x + w[s + "embed_positions.weight"][2:2 + n]
        x = layer_norm(x, w, s + "layernorm_embedding")
    else:
        x = x + sinusoids(cfg["max_position_embeddings"], d)[:n].to(x.dtype)
    selfs, crosses = [], []
    layers = cfg["decoder_layers"] if decoder else cfg["encoder_layers"]
    for i in range(layers):
        p = f"{s}layers.{i}."
        probs, y = attention(x, x, w, p + "self_attn.", BART_NAMES, heads, dim, dim ** -0.5,
                             decoder)
        selfs.append(probs)
        x = layer_norm(x + y, w, p + "self_attn_layer_norm")
        if decoder:
            probs, y = attention(x, encoded, w, p + "encoder_attn.", BART_NAMES, heads, dim,
                                 dim ** -0.5, False)
            crosses.append(probs)
            x = layer_norm(x + y, w, p + "encoder_attn_layer_norm")
        h = act(cfg["activation_function"],
                F.linear(x, w[p + "fc1.weight"], w[p + "fc1.bias"]))
        x = layer_norm(x + F.linear(h, w[p + "fc2.weight"], w[p + "fc2.bias"]), w,
                       p + "final_layer_norm")
    return x, selfs, crosses


def bart_forward(w, cfg, source, target):
    enc, enc_maps, _ = bart_stack(w, cfg, source, False)
    dec, dec_maps, cross = bart_stack(w, cfg, target, True, enc)
    logits = dec @ w["model.shared.weight"].T + w["final_logits_bias"][0]
    return enc_maps, dec_maps, cross, logits


def bart_weights(cfg, rng):
    family = cfg["model_type"]
    d, vocab = cfg["d_model"], cfg["vocab_size"]
    normal = lambda *shape, s: (rng.standard_normal(shape) * s).astype(np.float32)
    norm_w = lambda: (1.0 + rng.standard_normal(d) * 0.1).astype(np.float32)
    w = {"model.shared.weight": normal(vocab, d, s=0.5 if family == "bart" else 0.1),
         "final_logits_bias": normal(1, vocab, s=0.2)}

    def layer_norm_w(name):
        w[name + ".weight"] = norm_w()
        w[name + ".bias"] = normal(d, s=0.05)

    def dense(name, out, inp, s):
        w[name + ".weight"] = normal(out, inp, s=s)
        w[name + ".bias"] = normal(out, s=0.05)

    for side in ("encoder", "decoder"):
        s = f"model.{side}."
        if family == "bart":
            w[s + "embed_positions.weight"] = normal(cfg["max_position_embeddings"] + 2, d, s=0.5)
            layer_norm_w(s + "layernorm_embedding")
        ffn = cfg[f"{side}_ffn_dim"]
        for i in range(cfg[f"{side}_layers"]):
            p = f"{s}layers.{i}."
            blocks = ["self_attn"] + (["encoder_attn"] if side == "decoder" else [])
            for block in blocks:
                for proj in BART_NAMES:
                    dense(f"{p}{block}.{proj}", d, d, 0.25)
                layer_norm_w(f"{p}{block}_layer_norm")
            dense(p + "fc1", ffn, d, 0.25)
            dense(p + "fc2", d, ffn, 0.15)
            layer_norm_w(p + "final_layer_norm")
    return w


# ---------------------------------------------------------------------------------------------
# T5.

T5_NAMES = ("q", "k", "v", "o")


def relative_bucket(relative, bidirectional, buckets, max_distance):
    """T5Attention._relative_position_bucket, in the same dtypes (the log in float32)."""
    out = torch.zeros_like(relative)
    if bidirectional:
        buckets //= 2
        out += (relative > 0).to(torch.long) * buckets
        relative = torch.abs(relative)
    else:
        relative = -torch.min(relative, torch.zeros_like(relative))
    exact = buckets // 2
    small = relative < exact
    large = exact + (torch.log(relative.float() / exact) / math.log(max_distance / exact)
                     * (buckets - exact)).to(torch.long)
    large = torch.min(large, torch.full_like(large, buckets - 1))
    return out + torch.where(small, relative, large)


def t5_position_bias(w, cfg, s, n, bidirectional):
    pos = torch.arange(n, dtype=torch.long)
    relative = pos[None, :] - pos[:, None]  # key - query
    bucket = relative_bucket(relative, bidirectional, cfg["relative_attention_num_buckets"],
                             cfg["relative_attention_max_distance"])
    table = w[s + "block.0.layer.0.SelfAttention.relative_attention_bias.weight"]
    return table[bucket].permute(2, 0, 1)  # heads x n x n


def t5_stack(w, cfg, ids, decoder, encoded=None):
    heads, dim, eps = cfg["num_heads"], cfg["d_kv"], cfg["layer_norm_epsilon"]
    s = "decoder." if decoder else "encoder."
    x = w["shared.weight"][torch.tensor(ids)]
    bias = t5_position_bias(w, cfg, s, len(ids), not decoder)
    proj = cfg["feed_forward_proj"]
    gated = proj.startswith("gated-")
    act_name = "gelu_new" if proj == "gated-gelu" else proj.replace("gated-", "")
    selfs, crosses = [], []
    layers = cfg["num_decoder_layers"] if decoder else cfg["num_layers"]
    for i in range(layers):
        p = f"{s}block.{i}.layer."
        h = rms_norm(x, w[p + "0.layer_norm.weight"], eps)
        probs, y = attention(h, h, w, p + "0.SelfAttention.", T5_NAMES, heads, dim, 1.0, decoder,
                             bias)
        selfs.append(probs)
        x = x + y
        if decoder:
            h = rms_norm(x, w[p + "1.layer_norm.weight"], eps)
            probs, y = attention(h, encoded, w, p + "1.EncDecAttention.", T5_NAMES, heads, dim,
                                 1.0, False)
            crosses.append(probs)
            x = x + y
        f = p + ("2." if decoder else "1.")
        h = rms_norm(x, w[f + "layer_norm.weight"], eps)
        if gated:
            inner = act(act_name, F.linear(h, w[f + "DenseReluDense.wi_0.weight"])) * \
                F.linear(h, w[f + "DenseReluDense.wi_1.weight"])
        else:
            inner = act(act_name, F.linear(h, w[f + "DenseReluDense.wi.weight"]))
        x = x + F.linear(inner, w[f + "DenseReluDense.wo.weight"])
    return rms_norm(x, w[s + "final_layer_norm.weight"], eps), selfs, crosses


def t5_forward(w, cfg, source, target):
    enc, enc_maps, _ = t5_stack(w, cfg, source, False)
    dec, dec_maps, cross = t5_stack(w, cfg, target, True, enc)
    if cfg.get("tie_word_embeddings", True):
        logits = (dec * cfg["d_model"] ** -0.5) @ w["shared.weight"].T
    else:
        logits = dec @ w["lm_head.weight"].T
    return enc_maps, dec_maps, cross, logits


def t5_weights(cfg, rng):
    d, vocab, heads, dim = cfg["d_model"], cfg["vocab_size"], cfg["num_heads"], cfg["d_kv"]
    inner, ffn = heads * dim, cfg["d_ff"]
    normal = lambda *shape, s: (rng.standard_normal(shape) * s).astype(np.float32)
    norm_w = lambda: (1.0 + rng.standard_normal(d) * 0.1).astype(np.float32)
    w = {"shared.weight": normal(vocab, d, s=1.0)}
    if not cfg.get("tie_word_embeddings", True):
        w["lm_head.weight"] = normal(vocab, d, s=0.3)
    gated = cfg["feed_forward_proj"].startswith("gated-")
    for side, layers in (("encoder", cfg["num_layers"]), ("decoder", cfg["num_decoder_layers"])):
        s = f"{side}."
        w[s + "block.0.layer.0.SelfAttention.relative_attention_bias.weight"] = normal(
            cfg["relative_attention_num_buckets"], heads, s=1.0)
        for i in range(layers):
            p = f"{s}block.{i}.layer."
            blocks = ["0.SelfAttention"] + (["1.EncDecAttention"] if side == "decoder" else [])
            for block in blocks:
                for proj in ("q", "k", "v"):
                    w[f"{p}{block}.{proj}.weight"] = normal(inner, d, s=0.15)
                w[f"{p}{block}.o.weight"] = normal(d, inner, s=0.2)
                w[f"{p}{block[0]}.layer_norm.weight"] = norm_w()
            f = p + ("2." if side == "decoder" else "1.")
            for wi in (("wi_0", "wi_1") if gated else ("wi",)):
                w[f"{f}DenseReluDense.{wi}.weight"] = normal(ffn, d, s=0.25)
            w[f + "DenseReluDense.wo.weight"] = normal(d, ffn, s=0.15)
            w[f + "layer_norm.weight"] = norm_w()
        w[s + "final_layer_norm.weight"] = norm_w()
    return w


# ---------------------------------------------------------------------------------------------
# The cases: configs with the keys their families' hub checkpoints carry.

def bart_config(**over):
    cfg = {
        "activation_dropout": 0.0, "activation_function": "gelu", "architectures":
        ["BartForConditionalGeneration"], "attention_dropout": 0.0, "bos_token_id": 0,
        "d_model": 32, "decoder_attention_heads": 4, "decoder_ffn_dim": 64,
        "decoder_layers": 2, "decoder_start_token_id": 2, "dropout": 0.1,
        "encoder_attention_heads": 4, "encoder_ffn_dim": 64, "encoder_layers": 2,
        "eos_token_id": 2, "forced_eos_token_id": 2, "init_std": 0.02, "is_encoder_decoder": True,
        "max_position_embeddings": 64, "model_type": "bart", "num_hidden_layers": 2,
        "pad_token_id": 1, "scale_embedding": False, "torch_dtype": "float32",
        "transformers_version": "4.36.0", "use_cache": True, "vocab_size": 96}
    cfg.update(over)
    return cfg


def marian_config(**over):
    cfg = bart_config(
        activation_function="swish", architectures=["MarianMTModel"], bad_words_ids=[[95]],
        decoder_start_token_id=95, eos_token_id=0, forced_eos_token_id=0, model_type="marian",
        pad_token_id=95, scale_embedding=True, share_encoder_decoder_embeddings=True,
        static_position_embeddings=True, decoder_vocab_size=96)
    del cfg["bos_token_id"]
    cfg.update(over)
    return cfg


def t5_config(**over):
    cfg = {
        "architectures": ["T5ForConditionalGeneration"], "d_ff": 64, "d_kv": 8, "d_model": 32,
        "decoder_start_token_id": 0, "dropout_rate": 0.1, "eos_token_id": 1,
        "feed_forward_proj": "relu", "initializer_factor": 1.0, "is_encoder_decoder": True,
        "layer_norm_epsilon": 1e-06, "model_type": "t5", "n_positions": 512,
        "num_decoder_layers": 2, "num_heads": 4, "num_layers": 2, "pad_token_id": 0,
        "relative_attention_max_distance": 20, "relative_attention_num_buckets": 8,
        "torch_dtype": "float32", "transformers_version": "4.36.0", "use_cache": True,
        "vocab_size": 100}
    cfg.update(over)
    return cfg


SOURCE = [14, 52, 7, 33, 81, 52, 7, 60, 25, 90, 41, 2]
TARGET = [2, 30, 71, 9, 44, 71, 9, 18, 66, 5]
CASES = [
    {"name": "bart_f32", "dtype": "F32", "format": "safetensors", "seed": 1001,
     "config": bart_config(), "source": [0] + SOURCE[:-1] + [2], "target": TARGET},
    {   # distilBART: a deep encoder, a shallow decoder with its own feed-forward width; an old
        # pytorch_model.bin whose embed_tokens share the storage of model.shared.
        "name": "distilbart_bin_f16", "dtype": "F16", "format": "bin", "seed": 1101,
        "config": bart_config(encoder_layers=3, decoder_layers=1, decoder_ffn_dim=48,
                              architectures=["BartForConditionalGeneration"],
                              torch_dtype="float16"),
        "source": [0, 61, 9, 40, 9, 77, 12, 2], "target": [2, 0, 33, 50, 33, 8, 70]},
    {   # opus-mt: two shards with an index, the sinusoid table saved as opus-mt's files hold it.
        "name": "marian_f32", "dtype": "F32", "format": "sharded", "seed": 1201,
        "config": marian_config(), "source": [14, 52, 7, 33, 81, 52, 7, 60, 25, 0],
        "target": [95, 30, 71, 9, 44, 71, 9, 18]},
    {   "name": "marian_bf16", "dtype": "BF16", "format": "safetensors", "seed": 1301,
        "config": marian_config(encoder_layers=3, decoder_layers=2, encoder_attention_heads=2,
                                decoder_attention_heads=2, torch_dtype="bfloat16"),
        "source": [5, 17, 88, 17, 42, 3, 64, 0], "target": [95, 21, 6, 21, 77, 50]},
    {   # T5 (the original): relu, tied, distances past max_exact and max_distance.
        "name": "t5_relu_tied_f32", "dtype": "F32", "format": "safetensors", "seed": 1401,
        "config": t5_config(), "source": [20, 63, 8, 91, 44, 63, 8, 57, 12, 70, 33, 29, 6, 85,
                                          17, 63, 8, 49, 95, 38, 11, 74, 1],
        "target": [0, 45, 3, 77, 45, 3, 26, 88, 14, 59, 31, 92, 66, 7]},
    {   # T5 v1.1 / Flan-T5: gated-gelu, untied lm_head, heads x d_kv != d_model, fewer decoder
        # layers, an old pytorch_model.bin in bfloat16.
        "name": "t5v11_gated_bf16_bin", "dtype": "BF16", "format": "bin", "seed": 1501,
        "config": t5_config(d_kv=16, num_heads=3, num_decoder_layers=1, d_ff=48,
                            feed_forward_proj="gated-gelu", tie_word_embeddings=False,
                            relative_attention_num_buckets=16, relative_attention_max_distance=12,
                            torch_dtype="bfloat16"),
        "source": [9, 31, 72, 31, 5, 60, 18, 83, 40, 27, 1], "target": [0, 51, 12, 51, 90, 4]},
]


# Checkpoints whose vocabulary is a tokenizer fixture's (tests/reference/tokenizers/seq2seq/), for
# the command line and the window: their source and target come from texts, as the program
# tokenizes them (the ids from make_seq2seq_tokenizer_fixtures.py's rules and, for BART, from
# bart_cases.json, which Hugging Face's JavaScript tokenizers wrote).
TOKENIZERS = os.path.join(HERE, "tokenizers", "seq2seq")
SOURCE_TEXT = "the program is free software"
TARGET_TEXT = "床前明月光"
BART_SOURCE_TEXT = "Hello world"
BART_TARGET_TEXT = "The program is free software, and you can redistribute it."


def tokenizer_ids(kind):
    """(source ids, target label ids) of SOURCE_TEXT / TARGET_TEXT for a tokenizer fixture."""
    if kind == "bart":
        with open(os.path.join(TOKENIZERS, "bart_cases.json"), encoding="utf-8") as f:
            cases = {c["text"]: c["ids"] for c in json.load(f)["cases"]}
        return cases[BART_SOURCE_TEXT], cases[BART_TARGET_TEXT]
    import sentencepiece as spm
    from make_seq2seq_tokenizer_fixtures import marian_ids
    folder = os.path.join(TOKENIZERS, kind)
    if kind == "t5":
        sp = spm.SentencePieceProcessor(model_file=os.path.join(folder, "spiece.model"))
        return sp.encode(SOURCE_TEXT) + [1], sp.encode(TARGET_TEXT) + [1]
    with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    source = spm.SentencePieceProcessor(model_file=os.path.join(folder, "source.spm"))
    target = spm.SentencePieceProcessor(model_file=os.path.join(folder, "target.spm"))
    return marian_ids(source, vocab, SOURCE_TEXT), marian_ids(target, vocab, TARGET_TEXT)


def tokenizer_case(kind, cfg, seed):
    source, labels = tokenizer_ids(kind)
    start = cfg["decoder_start_token_id"]
    return {"name": f"{kind}_tokenizer", "dtype": "F32", "format": "safetensors", "seed": seed,
            "config": cfg, "tokenizer": kind, "source": source, "target": [start] + labels[:-1]}


CASES += [
    tokenizer_case("marian", marian_config(vocab_size=815, decoder_vocab_size=815,
                                           pad_token_id=814, decoder_start_token_id=814,
                                           bad_words_ids=[[814]]), 1601),
    tokenizer_case("t5", t5_config(vocab_size=900), 1701),
    tokenizer_case("bart", bart_config(vocab_size=2261), 1801),
]


def shard_of(name):
    return ("model-00001-of-00002.safetensors" if name.startswith("model.encoder.")
            or name == "model.shared.weight" else "model-00002-of-00002.safetensors")


def write_bin(folder, cfg, weights, dtype):
    """torch.save of a state dict; BART's embed_tokens share model.shared's storage, as an old
    hub file holds them."""
    tensors = collections.OrderedDict()
    for name in sorted(weights):
        tensors[name] = torch.from_numpy(weights[name]).to(TORCH_DTYPE[dtype])
    if cfg["model_type"] in ("bart", "marian"):
        tensors["model.encoder.embed_tokens.weight"] = tensors["model.shared.weight"]
        tensors["model.decoder.embed_tokens.weight"] = tensors["model.shared.weight"]
    else:
        tensors["encoder.embed_tokens.weight"] = tensors["shared.weight"]
        tensors["decoder.embed_tokens.weight"] = tensors["shared.weight"]
    tensors._metadata = collections.OrderedDict({"": {"version": 1}})
    torch.save(tensors, os.path.join(folder, "pytorch_model.bin"))


def write_files(folder, case, weights):
    cfg, dtype, fmt = case["config"], case["dtype"], case["format"]
    if fmt == "bin":
        write_bin(folder, cfg, weights, dtype)
        return
    saved = dict(weights)
    if cfg["model_type"] == "marian":  # opus-mt's files carry the (unused) sinusoid tables
        table = sinusoids(cfg["max_position_embeddings"], cfg["d_model"]).float().numpy()
        saved["model.encoder.embed_positions.weight"] = table
        saved["model.decoder.embed_positions.weight"] = table
    if fmt == "safetensors":
        write_checkpoint(folder, saved, dtype, 1)
        return
    write_checkpoint(folder, saved, dtype, 2, shard=shard_of)


def make_case(case):
    cfg, dtype = case["config"], case["dtype"]
    assert cfg["torch_dtype"] == CONFIG_DTYPE[dtype]
    assert max(case["source"] + case["target"]) < cfg["vocab_size"]
    t5 = cfg["model_type"] == "t5"
    forward = t5_forward if t5 else bart_forward
    make = t5_weights if t5 else bart_weights
    seed = case["seed"]
    while True:
        weights = make(cfg, np.random.default_rng(seed))
        w = {k: stored_value(v, dtype) for k, v in weights.items()}
        enc, dec, cross, logits = forward(w, cfg, case["source"], case["target"])
        if smallest_top_gap(logits) >= MIN_TOP_GAP:
            break
        seed += 1
    maps32 = forward({k: v.float() for k, v in w.items()}, cfg, case["source"], case["target"])
    diff = max(float((a - b.double()).abs().max())
               for group, group32 in zip((enc, dec, cross), maps32[:3])
               for a, b in zip(group, group32))

    folder = os.path.join(OUT, case["name"])
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    write_files(folder, case, weights)
    if "tokenizer" in case:
        tokenizer = os.path.join(TOKENIZERS, case["tokenizer"])
        for name in sorted(os.listdir(tokenizer)):
            shutil.copyfile(os.path.join(tokenizer, name), os.path.join(folder, name))
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    heads = cfg["num_heads"] if t5 else cfg["encoder_attention_heads"]
    expected = {
        "generator": f"make_seq2seq_fixtures.py, torch {torch.__version__}, float64",
        "case": case["name"], "family": cfg["model_type"], "dtype": dtype,
        "format": case["format"], "seed": seed, "source_ids": case["source"],
        "target_ids": case["target"], "encoder_layers": len(enc), "decoder_layers": len(dec),
        "heads": heads, "head_dim": cfg["d_kv"] if t5 else cfg["d_model"] // heads,
        "encoder_attention": [[h.tolist() for h in layer] for layer in enc],
        "decoder_attention": [[h.tolist() for h in layer] for layer in dec],
        "cross_attention": [[h.tolist() for h in layer] for layer in cross],
        "logits": logits.tolist(),
        "top10": [top_ids(row, 10) for row in logits],
    }
    with open(os.path.join(folder, "expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    peak = torch.stack([m.max(dim=-1).values.mean() for m in enc + dec + cross]).mean()
    print(f"{case['name']}: seed {seed}, top-11 gap {smallest_top_gap(logits):.2e}, mean row "
          f"max {float(peak):.2f}; float32 vs float64 maps {diff:.1e}")


def main():
    torch.set_grad_enabled(False)
    # One thread: float64 sums in one order, so that a second run writes the same bits.
    torch.set_num_threads(1)
    names = set(sys.argv[1:])
    for case in CASES:
        if not names or case["name"] in names:
            make_case(case)


if __name__ == "__main__":
    sys.exit(main())
