#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of attnlab_generate_bench: the same greedy generation on the same weights, with
a key/value cache of its own.

    /usr/bin/python3 bench/torch_generate_peer.py FOLDER [--prompt 128] [--new 128] [--reps 3]
                                                         [--warmup 1] [--threads 2]

GPT-2 (F32, bare names, as make_gpt2_checkpoint.py writes them), a Llama-family checkpoint
(weights widened to float32 at load, as PyTorch runs them on the CPU), or Marian (the opus-mt
shape of seq2seq_torch.py --make: the prompt is the source, encoded once, every decoder
layer's cross keys and values made from it once, the target grown from
decoder_start_token_id with a self-attention cache as transformers' EncoderDecoderCache keeps
it). The prompt runs once
through every layer, keeping each layer's keys and values; each new token then runs as one row,
its keys and values appended to the cache (torch.cat, as transformers' DynamicCache grows), its
query against every key so far: eager ops in float32 under torch.inference_mode(), the
attention probabilities materialised (as attn::model keeps every map's new row), the logits of
the last position only, the argmax taken. Ids are (i * 7919) mod V, as in attnlab_generate_bench.

Prints one "RESULT {json}" line per timed generation with the same fields as
attnlab_generate_bench (total_ms, prompt_ms, tokens_per_s, first16_ms, last16_ms, ids).
"""
import argparse
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
import make_decoder_fixtures as dfx  # noqa: E402
import make_model_fixtures as fx  # noqa: E402
import make_seq2seq_fixtures as sfx  # noqa: E402
from torch_decoder_peer import read_checkpoint  # noqa: E402
from torch_peer import openblas_core  # noqa: E402


class Gpt2:
    def __init__(self, w, cfg):
        self.w = {k[len("transformer."):] if k.startswith("transformer.") else k: v
                  for k, v in w.items()}
        self.cfg = cfg
        self.cache = [None] * cfg["n_layer"]

    def run(self, ids, first):
        """The logits after `ids`, at positions first.., with the cache extended."""
        w, cfg = self.w, self.cfg
        d, heads, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
        m = len(ids)
        n = first + m
        x = w["wte.weight"][torch.tensor(ids)] + w["wpe.weight"][first:n]
        allowed = torch.ones(m, n, dtype=torch.bool).tril(first)
        for i in range(cfg["n_layer"]):
            p = f"h.{i}."
            a = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
            qkv = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"])
            q, k, v = (fx.split_heads(t, heads) for t in qkv.split(d, dim=1))
            if self.cache[i] is not None:
                k = torch.cat((self.cache[i][0], k), dim=1)
                v = torch.cat((self.cache[i][1], v), dim=1)
            self.cache[i] = (k, v)
            scores = q @ k.transpose(-1, -2) / math.sqrt(v.size(-1))
            probs = torch.softmax(scores.masked_fill(~allowed, -math.inf), dim=-1)
            o = fx.merge_heads(probs @ v)
            x = x + torch.addmm(w[p + "attn.c_proj.bias"], o, w[p + "attn.c_proj.weight"])
            h = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
            f = fx.gelu_new(torch.addmm(w[p + "mlp.c_fc.bias"], h, w[p + "mlp.c_fc.weight"]))
            x = x + torch.addmm(w[p + "mlp.c_proj.bias"], f, w[p + "mlp.c_proj.weight"])
        x = F.layer_norm(x[-1:], (d,), w["ln_f.weight"], w["ln_f.bias"], eps)
        return x @ w["wte.weight"].T


class Decoder:
    def __init__(self, w, cfg):
        self.w, self.cfg = w, cfg
        self.cache = [None] * cfg["num_hidden_layers"]
        self.inv_freq = dfx.rope_inverse_frequencies(cfg)
        self.windows = dfx.layer_windows(cfg)
        self.biases = dfx.biases_of(cfg)

    def linear(self, t, prefix, proj):
        name = f"{prefix}{proj}_proj"
        bias = self.w[name + ".bias"] if proj in self.biases else None
        return F.linear(t, self.w[name + ".weight"], bias)

    def run(self, ids, first):
        w, cfg = self.w, self.cfg
        heads, kv, dim = cfg["num_attention_heads"], dfx.kv_heads_of(cfg), dfx.head_dim_of(cfg)
        eps = cfg["rms_norm_eps"]
        m = len(ids)
        n = first + m
        positions = torch.arange(first, n, dtype=torch.float64)
        offset = positions[:, None] - torch.arange(n, dtype=torch.float64)[None, :]
        kv_of_head = torch.arange(heads) // (heads // kv)
        x = w["model.embed_tokens.weight"][torch.tensor(ids)]
        for i in range(cfg["num_hidden_layers"]):
            p = f"model.layers.{i}."
            h = dfx.rms_norm(x, w[p + "input_layernorm.weight"], eps)
            q = self.linear(h, p + "self_attn.", "q").view(m, heads, dim).transpose(0, 1)
            k = self.linear(h, p + "self_attn.", "k").view(m, kv, dim).transpose(0, 1)
            v = self.linear(h, p + "self_attn.", "v").view(m, kv, dim).transpose(0, 1)
            if cfg["model_type"] == "qwen3":
                q = dfx.rms_norm(q, w[p + "self_attn.q_norm.weight"], eps)
                k = dfx.rms_norm(k, w[p + "self_attn.k_norm.weight"], eps)
            q = dfx.apply_rope(q, self.inv_freq, positions)
            k = dfx.apply_rope(k, self.inv_freq, positions)
            if self.cache[i] is not None:
                k = torch.cat((self.cache[i][0], k), dim=1)
                v = torch.cat((self.cache[i][1], v), dim=1)
            self.cache[i] = (k, v)
            allowed = offset >= 0
            if self.windows[i] is not None:
                allowed = allowed & (offset < self.windows[i])
            scores = q @ k[kv_of_head].transpose(-1, -2) / math.sqrt(dim)
            probs = torch.softmax(scores.masked_fill(~allowed, -math.inf), dim=-1)
            o = (probs @ v[kv_of_head]).transpose(0, 1).reshape(m, heads * dim)
            x = x + self.linear(o, p + "self_attn.", "o")
            h = dfx.rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
            gated = F.silu(self.linear(h, p + "mlp.", "gate")) * self.linear(h, p + "mlp.", "up")
            x = x + self.linear(gated, p + "mlp.", "down")
        x = dfx.rms_norm(x[-1:], w["model.norm.weight"], eps)
        head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
        return x @ head.T


class Marian:
    def __init__(self, w, cfg):
        self.w, self.cfg = w, cfg
        self.d = cfg["d_model"]
        self.heads = cfg["decoder_attention_heads"]
        self.dim = self.d // self.heads
        self.cache = [None] * cfg["decoder_layers"]
        self.cross = []
        self.table = sfx.sinusoids(cfg["max_position_embeddings"], self.d).float()

    def proj(self, t, name):
        return F.linear(t, self.w[name + ".weight"], self.w[name + ".bias"])

    def split(self, t):
        return t.view(t.shape[0], self.heads, self.dim).transpose(0, 1)

    def begin(self, source):
        """Encodes the source, makes the cross keys and values, runs the start token."""
        encoded, _, _ = sfx.bart_stack(self.w, self.cfg, source, False)
        for i in range(self.cfg["decoder_layers"]):
            p = f"model.decoder.layers.{i}.encoder_attn."
            self.cross.append((self.split(self.proj(encoded, p + "k_proj")),
                               self.split(self.proj(encoded, p + "v_proj"))))
        return self.run([self.cfg["decoder_start_token_id"]], 0), 1

    def attend(self, q, k, v, name):
        """One row's attention (no mask: a row sees every key kept), probabilities
        materialised, heads joined and projected."""
        probs = torch.softmax((q * self.dim ** -0.5) @ k.transpose(-1, -2), dim=-1)
        return self.proj((probs @ v).transpose(0, 1).reshape(q.shape[1], self.d), name)

    def run(self, ids, first):
        w, cfg, d = self.w, self.cfg, self.d
        x = w["model.shared.weight"][torch.tensor(ids)] * math.sqrt(d)
        x = x + self.table[first:first + len(ids)]
        for i in range(cfg["decoder_layers"]):
            p = f"model.decoder.layers.{i}."
            q = self.split(self.proj(x, p + "self_attn.q_proj"))
            k = self.split(self.proj(x, p + "self_attn.k_proj"))
            v = self.split(self.proj(x, p + "self_attn.v_proj"))
            if self.cache[i] is not None:
                k = torch.cat((self.cache[i][0], k), dim=1)
                v = torch.cat((self.cache[i][1], v), dim=1)
            self.cache[i] = (k, v)
            x = sfx.layer_norm(x + self.attend(q, k, v, p + "self_attn.out_proj"), w,
                               p + "self_attn_layer_norm")
            q = self.split(self.proj(x, p + "encoder_attn.q_proj"))
            k, v = self.cross[i]
            x = sfx.layer_norm(x + self.attend(q, k, v, p + "encoder_attn.out_proj"), w,
                               p + "encoder_attn_layer_norm")
            h = sfx.act(cfg["activation_function"], self.proj(x, p + "fc1"))
            x = sfx.layer_norm(x + self.proj(h, p + "fc2"), w, p + "final_layer_norm")
        return x[-1:] @ w["model.shared.weight"].T + w["final_logits_bias"][0]


def generate(make, prompt, count):
    model = make()
    start = time.perf_counter()
    # A causal model's prompt fills positions 0..; an encoder-decoder's target starts at 0.
    logits, offset = model.begin(prompt) if hasattr(model, "begin") else \
        (model.run(prompt, 0), len(prompt))
    prompted = last = time.perf_counter()
    ids, token_ms = [], []
    for _ in range(count):
        nxt = int(torch.argmax(logits[0]))
        ids.append(nxt)
        logits = model.run([nxt], offset + len(ids) - 1)
        now = time.perf_counter()
        token_ms.append((now - last) * 1e3)
        last = now
    total = (last - start) * 1e3
    return {"what": "generate", "prompt": len(prompt), "new": count, "total_ms": total,
            "prompt_ms": (prompted - start) * 1e3, "tokens_per_s": count / (total / 1e3),
            "first16_ms": sum(token_ms[:16]), "last16_ms": sum(token_ms[-16:]), "ids": ids}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--prompt", type=int, default=128)
    parser.add_argument("--new", type=int, default=128)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    w = read_checkpoint(args.folder)
    kind = {"gpt2": Gpt2, "marian": Marian}.get(cfg["model_type"], Decoder)
    torch.ones(64, 64) @ torch.ones(64, 64)  # loads the BLAS before asking it
    core, blas_threads = openblas_core()
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, OpenBLAS kernel "
          f"{core}, OpenBLAS threads {blas_threads}; {cfg['model_type']}")
    prompt = [(i * 7919) % cfg["vocab_size"] for i in range(args.prompt)]
    with torch.inference_mode():
        for r in range(args.warmup + args.reps):
            result = generate(lambda: kind(w, cfg), prompt, args.new)
            if r >= args.warmup:
                print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
