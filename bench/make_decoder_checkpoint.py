#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A random Llama-family checkpoint of a real model's shape, in the Hugging Face layout, for timing
attn::model's decoder forward pass against plain PyTorch on the same weights
(bench/decoder_compare.sh), or for trying the model window with a real tokenizer.

    /usr/bin/python3 bench/make_decoder_checkpoint.py OUT_DIR
        --shape {qwen3-0.6b,smollm2-135m,smollm2-135m-32k,tiny-qwen3} [--dtype bf16|f32]
        [--shards N] [--seed S]

Shapes (config.json as the hub ships the model; the weights are random):
  qwen3-0.6b    Qwen/Qwen3-0.6B: qwen3, 28 layers, hidden 1024, 16 heads, 8 kv heads, head_dim
                128, intermediate 3072, vocabulary 151,936, tied, rope_theta 1e6, rms_norm_eps
                1e-6, 40,960 positions; 596 M parameters (1.19 GB in BF16)
  smollm2-135m  HuggingFaceTB/SmolLM2-135M: llama, 30 layers, hidden 576, 9 heads, 3 kv heads,
                intermediate 1536, vocabulary 49,152, tied, rope_theta 1e5, 8,192 positions;
                135 M parameters (269 MB in BF16)
  smollm2-135m-32k  the same layers with a vocabulary of 32,000 (Mistral's tokenizer, below):
                the model window reads text with it (125 M parameters)
  tiny-qwen3    2 layers, hidden 64, 4 heads, 2 kv heads, head_dim 16, intermediate 128, with
                Qwen3's vocabulary and tokenizer: the model window with real text, in seconds

Writes OUT_DIR/config.json and OUT_DIR/model.safetensors (or --shards N files
model-0000i-of-0000N.safetensors and model.safetensors.index.json, as save_pretrained names
them). Qwen shapes also get Qwen3's tokenizer.json and tokenizer_config.json, unpacked from
tests/reference/tokenizers/hf/qwen3.tar.xz. SmolLM2's tokenizer is not in the repository, so
its shapes get Mistral's (tests/reference/tokenizers/hf/mistral.tar.xz): its 32,000 ids all fall
inside SmolLM2's 49,152, but the model window refuses a tokenizer that leaves more than an
eighth of a model's ids without a token, so it reads text only with smollm2-135m-32k (the
forward benchmark feeds ids directly). Do not commit the output.

Weights: every Linear and the embedding normal with std 0.02, every RMSNorm weight (and
Qwen3's q_norm / k_norm) 1: the residual stream grows slowly and stays finite over 28 layers.
Big tensors are drawn and written a block of rows at a time, so the script holds about 64 MB
of them at once whatever the shape; the file layout is make_model_fixtures.write_safetensors's
(the same header, padding and BF16 rounding, which it reuses).
"""
import argparse
import json
import os
import struct
import sys
import tarfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
import make_model_fixtures as fx  # noqa: E402

QWEN3_TOKENIZER = os.path.join(HERE, "..", "tests", "reference", "tokenizers", "hf", "qwen3.tar.xz")

# Qwen/Qwen3-0.6B's config.json.
QWEN3_0_6B = {
    "architectures": ["Qwen3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
    "bos_token_id": 151643, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
    "hidden_size": 1024, "initializer_range": 0.02, "intermediate_size": 3072,
    "max_position_embeddings": 40960, "max_window_layers": 28, "model_type": "qwen3",
    "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 8,
    "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000, "sliding_window": None,
    "tie_word_embeddings": True, "torch_dtype": "bfloat16", "transformers_version": "4.51.0",
    "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}

# HuggingFaceTB/SmolLM2-135M's config.json.
SMOLLM2_135M = {
    "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
    "bos_token_id": 0, "eos_token_id": 0, "head_dim": 64, "hidden_act": "silu",
    "hidden_size": 576, "initializer_range": 0.041666666666666664, "intermediate_size": 1536,
    "is_llama_config": True, "max_position_embeddings": 8192, "mlp_bias": False,
    "model_type": "llama", "num_attention_heads": 9, "num_hidden_layers": 30,
    "num_key_value_heads": 3, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
    "rope_interleaved": False, "rope_scaling": None, "rope_theta": 100000,
    "tie_word_embeddings": True, "torch_dtype": "bfloat16", "transformers_version": "4.40.1",
    "use_cache": True, "vocab_size": 49152}

TINY_QWEN3 = dict(QWEN3_0_6B, head_dim=16, hidden_size=64, intermediate_size=128,
                  max_window_layers=2, num_attention_heads=4, num_hidden_layers=2,
                  num_key_value_heads=2)

SHAPES = {"qwen3-0.6b": QWEN3_0_6B, "smollm2-135m": SMOLLM2_135M,
          "smollm2-135m-32k": dict(SMOLLM2_135M, vocab_size=32000), "tiny-qwen3": TINY_QWEN3}
MISTRAL_TOKENIZER = os.path.join(HERE, "..", "tests", "reference", "tokenizers", "hf",
                                 "mistral.tar.xz")
# SmolLM2's own tokenizer is not in the repository: Mistral's (32,000 ids) stands in.
TOKENIZERS = {"qwen3-0.6b": QWEN3_TOKENIZER, "tiny-qwen3": QWEN3_TOKENIZER,
              "smollm2-135m": MISTRAL_TOKENIZER, "smollm2-135m-32k": MISTRAL_TOKENIZER}
STORED = {"bf16": ("BF16", "bfloat16", 2), "f32": ("F32", "float32", 4)}
BLOCK_FLOATS = 1 << 24  # rows drawn at once: 64 MB of float32


def tensors(cfg):
    """(name, shape, std or None for a norm weight of ones), in the checkpoint's order."""
    d, inner, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    heads, kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    dim = cfg.get("head_dim") or d // heads
    out = [("model.embed_tokens.weight", (vocab, d), 0.02)]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out += [(p + "input_layernorm.weight", (d,), None),
                (p + "self_attn.q_proj.weight", (heads * dim, d), 0.02),
                (p + "self_attn.k_proj.weight", (kv * dim, d), 0.02),
                (p + "self_attn.v_proj.weight", (kv * dim, d), 0.02),
                (p + "self_attn.o_proj.weight", (d, heads * dim), 0.02)]
        if cfg["model_type"] == "qwen3":
            out += [(p + "self_attn.q_norm.weight", (dim,), None),
                    (p + "self_attn.k_norm.weight", (dim,), None)]
        out += [(p + "post_attention_layernorm.weight", (d,), None),
                (p + "mlp.gate_proj.weight", (inner, d), 0.02),
                (p + "mlp.up_proj.weight", (inner, d), 0.02),
                (p + "mlp.down_proj.weight", (d, inner), 0.02)]
    out.append(("model.norm.weight", (d,), None))
    if not cfg["tie_word_embeddings"]:
        out.append(("lm_head.weight", (vocab, d), 0.02))
    return out


def blocks(shape, std, rng):
    """The tensor's float32 values, a block of whole rows at a time."""
    if std is None:
        yield np.ones(shape, np.float32)
        return
    rows, width = shape if len(shape) == 2 else (1, shape[0])
    step = max(1, BLOCK_FLOATS // width)
    for start in range(0, rows, step):
        block = rng.standard_normal((min(step, rows - start), width), dtype=np.float32)
        block *= np.float32(std)
        yield block if len(shape) == 2 else block[0]


def shard_plan(specs, count, item):
    """File name per tensor: at most `count` files, tensors in order, a new file begun when the
    next tensor would take the current one past total / count (save_pretrained's max_shard_size
    rule). A tensor is never split, so a big embedding can leave fewer files than asked for; the
    names count the files there are."""
    if count == 1:
        return {name: "model.safetensors" for name, _, _ in specs}
    sizes = [int(np.prod(shape)) * item for _, shape, _ in specs]
    limit = -(-sum(sizes) // count)
    index, filled, numbers = 0, 0, {}
    for (name, _, _), size in zip(specs, sizes):
        if filled > 0 and filled + size > limit and index + 1 < count:
            index, filled = index + 1, 0
        numbers[name] = index
        filled += size
    files = index + 1
    return {name: f"model-{i + 1:05d}-of-{files:05d}.safetensors" for name, i in numbers.items()}


def write_file(path, specs, dtype, item, rng):
    """make_model_fixtures.write_safetensors's layout (header padded with spaces to 8 bytes,
    then the tensors in order), its bytes produced by its own to_bytes block by block."""
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape, _ in specs:
        size = int(np.prod(shape)) * item
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, shape, std in specs:
            for block in blocks(shape, std, rng):
                f.write(fx.to_bytes(block, dtype))
    return offset


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--shape", required=True, choices=sorted(SHAPES))
    parser.add_argument("--dtype", default="bf16", choices=sorted(STORED))
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.shards < 1:
        parser.error("--shards must be at least 1")

    dtype, torch_dtype, item = STORED[args.dtype]
    cfg = dict(SHAPES[args.shape], torch_dtype=torch_dtype)
    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):  # a re-run with other --shards must not leave old files
        if old.endswith(".safetensors") or old == "model.safetensors.index.json":
            os.remove(os.path.join(args.out, old))

    specs = tensors(cfg)
    plan = shard_plan(specs, args.shards, item)
    rng = np.random.default_rng(args.seed)
    total = 0
    for file in sorted(set(plan.values())):
        total += write_file(os.path.join(args.out, file),
                            [s for s in specs if plan[s[0]] == file], dtype, item, rng)
    if args.shards > 1:
        index = {"metadata": {"total_size": total},
                 "weight_map": {name: plan[name] for name in sorted(plan)}}
        with open(os.path.join(args.out, "model.safetensors.index.json"), "w") as f:
            f.write(json.dumps(index, indent=2, sort_keys=True) + "\n")
    with open(os.path.join(args.out, "config.json"), "w") as f:
        f.write(json.dumps(cfg, indent=2, sort_keys=True) + "\n")

    tokenizer = TOKENIZERS.get(args.shape)
    if tokenizer:
        with tarfile.open(tokenizer) as archive:
            for member in archive.getmembers():
                if member.isfile() and "/" not in member.name:
                    with archive.extractfile(member) as src, \
                            open(os.path.join(args.out, member.name), "wb") as dst:
                        dst.write(src.read())
    params = sum(int(np.prod(shape)) for _, shape, _ in specs)
    print(f"wrote {args.out}: {args.shape}, {params / 1e6:.1f} M parameters, {dtype}, "
          f"{total / 2**20:.0f} MiB in {len(set(plan.values()))} file(s); "
          + (f"tokenizer.json from {os.path.basename(tokenizer)}" if tokenizer else
             "no tokenizer (none is committed for this model: feed ids)"))


if __name__ == "__main__":
    main()
