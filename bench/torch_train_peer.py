#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of `attnlab train-model`: the same GPT-2 (learned token and position
embeddings, pre-LN blocks of causal attention, an MLP unless --attention-only, final LayerNorm,
tied unembedding), the same batch and AdamW, trained for --steps steps on random letters, in
float32 on --threads threads. Prints "RESULT {json}" with the steps per second of the timed
steps (after --warmup untimed ones).

    /usr/bin/python3 bench/torch_train_peer.py [--layers 2] [--heads 4] [--d-model 64]
        [--context 64] [--vocab 26] [--batch 32] [--steps 100] [--attention-only] [--threads 2]
"""
import argparse
import json
import math
import time

import torch
import torch.nn.functional as F


class Gpt2(torch.nn.Module):
    def __init__(self, V, T, L, H, C, attention_only):
        super().__init__()
        self.H, self.attention_only = H, attention_only
        self.wte = torch.nn.Parameter(torch.randn(V, C) * 0.02)
        self.wpe = torch.nn.Parameter(torch.randn(T, C) * 0.02)
        self.blocks = torch.nn.ModuleList()
        for _ in range(L):
            b = torch.nn.Module()
            b.ln1 = torch.nn.LayerNorm(C)
            b.attn = torch.nn.Linear(C, 3 * C)
            b.proj = torch.nn.Linear(C, C)
            if not attention_only:
                b.ln2 = torch.nn.LayerNorm(C)
                b.fc = torch.nn.Linear(C, 4 * C)
                b.fcproj = torch.nn.Linear(4 * C, C)
            self.blocks.append(b)
        self.lnf = torch.nn.LayerNorm(C)
        self.register_buffer("mask", torch.tril(torch.ones(T, T, dtype=torch.bool)))

    def forward(self, idx):
        B, T = idx.shape
        x = self.wte[idx] + self.wpe[:T]
        C, H = x.size(-1), self.H
        for b in self.blocks:
            q, k, v = b.attn(b.ln1(x)).split(C, dim=-1)
            q, k, v = (t.view(B, T, H, C // H).transpose(1, 2) for t in (q, k, v))
            s = (q @ k.transpose(-1, -2)) / math.sqrt(C // H)
            s = s.masked_fill(~self.mask[:T, :T], float("-inf"))
            y = (torch.softmax(s, dim=-1) @ v).transpose(1, 2).reshape(B, T, C)
            x = x + b.proj(y)
            if not self.attention_only:
                x = x + b.fcproj(F.gelu(b.fc(b.ln2(x)), approximate="tanh"))
        return self.lnf(x) @ self.wte.T


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--context", type=int, default=64)
    p.add_argument("--vocab", type=int, default=26)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--attention-only", action="store_true")
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    model = Gpt2(a.vocab, a.context, a.layers, a.heads, a.d_model, a.attention_only)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)

    def step():
        idx = torch.randint(0, a.vocab, (a.batch, a.context + 1))
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return float(loss)

    for _ in range(a.warmup):
        step()
    start = time.perf_counter()
    for _ in range(a.steps):
        step()
    seconds = time.perf_counter() - start
    print("RESULT " + json.dumps({"peer": "torch " + torch.__version__, "threads": a.threads,
                                  "steps": a.steps, "seconds": seconds,
                                  "steps_per_second": a.steps / seconds}))


if __name__ == "__main__":
    main()
