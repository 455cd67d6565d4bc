#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A random checkpoint of GPT-2 small's shape (12 layers, 12 heads, width 768, 1024 positions,
vocabulary 50257; about 500 MB of float32) in the Hugging Face layout, for timing
attn::model's forward pass against plain PyTorch on the same weights.

    /usr/bin/python3 bench/make_gpt2_checkpoint.py OUT_DIR [--time-torch TOKENS]

Writes OUT_DIR/config.json and OUT_DIR/model.safetensors (the fixture script's writer). With
--time-torch it then runs the plain-PyTorch GPT-2 forward (tests/reference/make_model_fixtures.py)
on TOKENS fixed ids with torch.set_num_threads(2) and prints the time. Do not commit the output.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
import make_model_fixtures as fx  # noqa: E402

CONFIG = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": 12, "n_head": 12,
          "n_embd": 768, "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257,
          "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new", "n_inner": None,
          "scale_attn_weights": True}


def weights(rng):
    d, inner, V, P = 768, 3072, CONFIG["vocab_size"], CONFIG["n_positions"]
    normal = lambda *shape, s=0.02: (rng.standard_normal(shape, dtype=np.float32) * s)
    w = {"wte.weight": normal(V, d, s=0.1), "wpe.weight": normal(P, d, s=0.01)}
    for i in range(CONFIG["n_layer"]):
        p = f"h.{i}."
        w[p + "ln_1.weight"] = np.ones(d, np.float32)
        w[p + "ln_1.bias"] = np.zeros(d, np.float32)
        w[p + "attn.c_attn.weight"] = normal(d, 3 * d, s=0.06)
        w[p + "attn.c_attn.bias"] = normal(3 * d)
        w[p + "attn.c_proj.weight"] = normal(d, d)
        w[p + "attn.c_proj.bias"] = normal(d)
        w[p + "ln_2.weight"] = np.ones(d, np.float32)
        w[p + "ln_2.bias"] = np.zeros(d, np.float32)
        w[p + "mlp.c_fc.weight"] = normal(d, inner)
        w[p + "mlp.c_fc.bias"] = normal(inner)
        w[p + "mlp.c_proj.weight"] = normal(inner, d)
        w[p + "mlp.c_proj.bias"] = normal(d)
    w["ln_f.weight"] = np.ones(d, np.float32)
    w["ln_f.bias"] = np.zeros(d, np.float32)
    return w


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--time-torch", type=int, default=0, metavar="TOKENS")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    w = weights(np.random.default_rng(0))
    fx.write_safetensors(os.path.join(args.out, "model.safetensors"),
                         [(k, v, "F32") for k, v in w.items()], {"format": "pt"})
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(CONFIG, f, indent=2)
    print(f"wrote {args.out}")
    if args.time_torch:
        torch.set_num_threads(2)
        torch.set_grad_enabled(False)
        tw = {k: torch.from_numpy(v) for k, v in w.items()}  # float32, as the C++ pass
        ids = torch.tensor([(i * 7919) % CONFIG["vocab_size"] for i in range(args.time_torch)])
        fx.gpt2_forward(tw, CONFIG, ids)  # warm-up
        for _ in range(3):
            start = time.perf_counter()
            fx.gpt2_forward(tw, CONFIG, ids)
            print(f"plain PyTorch forward, {args.time_torch} tokens, 2 threads: "
                  f"{(time.perf_counter() - start) * 1e3:.1f} ms (logits for every position)")


if __name__ == "__main__":
    main()
