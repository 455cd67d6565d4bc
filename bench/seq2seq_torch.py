#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of attnlab_seq2seq_bench, and the random opus-mt-shaped checkpoint both read.

    /usr/bin/python3 bench/seq2seq_torch.py --make OUT_DIR [--seed 7]
    /usr/bin/python3 bench/seq2seq_torch.py FOLDER [--source 128] [--target 128] [--reps 5]
                                                   [--warmup 1] [--threads 2]

--make writes a Marian checkpoint of Helsinki-NLP/opus-mt-en-de's shape (d_model 512, 6 + 6
layers, 8 heads, FFN 2,048, vocabulary 65,001, 512 positions, swish, scale_embedding, tied,
final_logits_bias) in F32, model.safetensors (305 MB; do not commit it). Weights: every Linear
and the embedding normal with std 0.02, biases 0, LayerNorm weights 1.

Otherwise: reads FOLDER's float32 weights and times the teacher-forced pass of
tests/reference/make_seq2seq_fixtures.py (bart_forward: eager attention, every encoder, decoder
and cross map materialised and returned, logits for every target position) under
torch.inference_mode(), in float32, the same work attnlab_seq2seq_bench times. Ids: source
(i * 7919) mod V, target (i * 104729 + 3) mod V, as there.

Prints "RESULT {json}" lines: open, forward (times in ms), check (first target position's top-5
ids and first 4 logits), memory (peak RSS).
"""
import argparse
import json
import os
import resource
import statistics
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
import make_seq2seq_fixtures as sfx  # noqa: E402
from make_model_fixtures import write_safetensors  # noqa: E402
from torch_decoder_peer import read_checkpoint  # noqa: E402
from torch_peer import openblas_core  # noqa: E402

OPUS_MT = sfx.marian_config(
    d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
    decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=65001,
    decoder_vocab_size=65001, max_position_embeddings=512, pad_token_id=65000,
    decoder_start_token_id=65000, bad_words_ids=[[65000]], num_hidden_layers=6)


def make(folder, seed):
    cfg = OPUS_MT
    rng = np.random.default_rng(seed)
    d, vocab = cfg["d_model"], cfg["vocab_size"]
    normal = lambda *shape: (rng.standard_normal(shape, dtype=np.float32) * 0.02)
    tensors = [("model.shared.weight", normal(vocab, d), "F32"),
               ("final_logits_bias", np.zeros((1, vocab), np.float32), "F32")]
    for side in ("encoder", "decoder"):
        for i in range(cfg[f"{side}_layers"]):
            p = f"model.{side}.layers.{i}."
            blocks = ["self_attn"] + (["encoder_attn"] if side == "decoder" else [])
            for block in blocks:
                for proj in sfx.BART_NAMES:
                    tensors.append((f"{p}{block}.{proj}.weight", normal(d, d), "F32"))
                    tensors.append((f"{p}{block}.{proj}.bias", np.zeros(d, np.float32), "F32"))
                tensors.append((f"{p}{block}_layer_norm.weight", np.ones(d, np.float32), "F32"))
                tensors.append((f"{p}{block}_layer_norm.bias", np.zeros(d, np.float32), "F32"))
            ffn = cfg[f"{side}_ffn_dim"]
            for name, shape in (("fc1", (ffn, d)), ("fc2", (d, ffn))):
                tensors.append((f"{p}{name}.weight", normal(*shape), "F32"))
                tensors.append((f"{p}{name}.bias", np.zeros(shape[0], np.float32), "F32"))
            tensors.append((f"{p}final_layer_norm.weight", np.ones(d, np.float32), "F32"))
            tensors.append((f"{p}final_layer_norm.bias", np.zeros(d, np.float32), "F32"))
    os.makedirs(folder, exist_ok=True)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write(json.dumps(cfg, indent=2, sort_keys=True) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--source", type=int, default=128)
    parser.add_argument("--target", type=int, default=128)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.make:
        make(args.folder, args.seed)
        return 0

    torch.set_num_threads(args.threads)
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    start = time.perf_counter()
    w = read_checkpoint(args.folder)
    print("RESULT " + json.dumps({"what": "open", "ms": (time.perf_counter() - start) * 1e3}))
    torch.ones(64, 64) @ torch.ones(64, 64)  # loads the BLAS before asking it
    core, blas_threads = openblas_core()
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, OpenBLAS kernel "
          f"{core}, OpenBLAS threads {blas_threads}")
    vocab = cfg["vocab_size"]
    source = [(i * 7919) % vocab for i in range(args.source)]
    target = [(i * 104729 + 3) % vocab for i in range(args.target)]
    times = []
    with torch.inference_mode():
        for r in range(args.warmup + args.reps):
            started = time.perf_counter()
            enc, dec, cross, logits = sfx.bart_forward(w, cfg, source, target)
            elapsed = (time.perf_counter() - started) * 1e3
            if r >= args.warmup:
                times.append(elapsed)
            if r + 1 < args.warmup + args.reps:
                del enc, dec, cross, logits
    print("RESULT " + json.dumps({"what": "forward", "source": args.source,
                                  "target": args.target, "ms": times,
                                  "median_ms": statistics.median(times)}))
    print("RESULT " + json.dumps({"what": "check", "top5": torch.topk(logits[0], 5).indices.tolist(),
                                  "logits": logits[0, :4].tolist()}))
    print("RESULT " + json.dumps({"what": "memory", "peak_rss_kb":
                                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
