#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch peer of `attnlab train-model --task dates`: the same Marian-layout encoder-decoder
(a shared embedding scaled by sqrt(d) plus sinusoids, post-LN encoder and decoder layers of
self-attention, masked self-attention, cross-attention and a SiLU FFN of 4d, tied unembedding
plus final_logits_bias), the same task (a random date not held out, in one of the three Chinese
forms, into English; characters, month names whole), the same batch and Adam, in float32 on
--threads threads, written as plain torch modules. Prints "RESULT {json}" with the steps per
second of the timed steps (after --warmup untimed ones) and the last loss.

    /usr/bin/python3 bench/torch_seq2seq_train_peer.py [--layers 2] [--decoder-layers 2]
        [--heads 4] [--d-model 64] [--batch 32] [--steps 100] [--threads 2]
"""
import argparse
import calendar
import datetime
import json
import math
import random
import time

import torch
import torch.nn.functional as F

DIGITS = "〇一二三四五六七八九"


def spoken(n):
    tens, ones = divmod(n, 10)
    return (DIGITS[tens] if tens > 1 else "") + ("十" if tens else "") + (DIGITS[ones] if ones else "")


def pair(rng):
    first = datetime.date(1900, 1, 1)
    while True:
        d = first + datetime.timedelta(days=rng.randrange(73049))
        if (d.year + d.month + d.day) % 10:
            break
    form = rng.randrange(3)
    if form == 0:
        source = f"{d.year}年{d.month}月{d.day}日"
    elif form == 1:
        source = "".join(DIGITS[int(c)] for c in str(d.year)) + "年" + spoken(d.month) + "月" + spoken(d.day) + "日"
    else:
        source = f"{d.year}/{d.month}/{d.day}"
    target = [calendar.month_name[d.month]] + list(f" {d.day}, {d.year}")
    return list(source), target


class Vocab:
    def __init__(self):
        self.ids = {"</s>": 0, "<unk>": 1}

    def __call__(self, pieces):
        return [self.ids.setdefault(p, len(self.ids)) for p in pieces] + [0]


def sinusoids(n, d):
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    j = torch.arange(d // 2, dtype=torch.float64)[None, :]
    angle = pos / torch.pow(10000.0, 2 * j / d)
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=1).float()


class Attention(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
        self.norm = torch.nn.LayerNorm(d)

    def forward(self, x, memory, mask):
        B, T, d = x.shape
        hs = d // self.h
        q = (self.q(x) * hs ** -0.5).view(B, T, self.h, hs).transpose(1, 2)
        k = self.k(memory).view(B, -1, self.h, hs).transpose(1, 2)
        v = self.v(memory).view(B, -1, self.h, hs).transpose(1, 2)
        w = torch.softmax((q @ k.transpose(-1, -2)).masked_fill(~mask, float("-inf")), dim=-1)
        return self.norm(x + self.o((w @ v).transpose(1, 2).reshape(B, T, d)))


class Ffn(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)
        self.norm = torch.nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(x + self.fc2(F.silu(self.fc1(x))))


class Marian(torch.nn.Module):
    def __init__(self, vocab, d, heads, enc, dec):
        super().__init__()
        self.d = d
        self.shared = torch.nn.Parameter(torch.randn(vocab, d) * 0.1)
        self.bias = torch.nn.Parameter(torch.zeros(vocab))
        self.register_buffer("pos", sinusoids(64, d))
        self.enc = torch.nn.ModuleList(torch.nn.ModuleList([Attention(d, heads), Ffn(d)]) for _ in range(enc))
        self.dec = torch.nn.ModuleList(
            torch.nn.ModuleList([Attention(d, heads), Attention(d, heads), Ffn(d)]) for _ in range(dec))

    def forward(self, src, lengths, inp):
        B, S = src.shape
        T = inp.shape[1]
        keys = (torch.arange(S)[None, :] < lengths[:, None])[:, None, None, :]
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool))[None, None]
        x = self.shared[src] * math.sqrt(self.d) + self.pos[:S]
        for attn, ffn in self.enc:
            x = ffn(attn(x, x, keys))
        memory = x
        y = self.shared[inp] * math.sqrt(self.d) + self.pos[:T]
        for attn, cross, ffn in self.dec:
            y = ffn(cross(attn(y, y, causal), memory, keys))
        return y @ self.shared.T + self.bias


def batch(rng, vocab, size, pad):
    pairs = [pair(rng) for _ in range(size)]
    src = [vocab(s) for s, _ in pairs]
    lab = [vocab(t) for _, t in pairs]
    S, T = max(map(len, src)), max(map(len, lab))
    source = torch.full((size, S), pad)
    inp = torch.full((size, T), pad)
    tgt = torch.full((size, T), -1)
    for i, (s, l) in enumerate(zip(src, lab)):
        source[i, :len(s)] = torch.tensor(s)
        tgt[i, :len(l)] = torch.tensor(l)
        inp[i, 1:len(l)] = torch.tensor(l[:-1])
    return source, torch.tensor([len(s) for s in src]), inp, tgt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--decoder-layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    rng = random.Random(1)
    vocab = Vocab()
    for s, t in (pair(rng) for _ in range(2000)):  # every character, before the model is sized
        vocab(s), vocab(t)
    V = len(vocab.ids) + 1
    pad = V - 1
    model = Marian(V, a.d_model, a.heads, a.layers, a.decoder_layers)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, betas=(0.9, 0.98))

    def step():
        src, lengths, inp, tgt = batch(rng, vocab, a.batch, pad)
        logits = model(src, lengths, inp)
        loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=-1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return float(loss)

    for _ in range(a.warmup):
        step()
    start = time.perf_counter()
    loss = 0.0
    for _ in range(a.steps):
        loss = step()
    seconds = time.perf_counter() - start
    print("RESULT " + json.dumps({"peer": "torch " + torch.__version__, "threads": a.threads,
                                  "steps": a.steps, "seconds": seconds, "loss": loss,
                                  "steps_per_second": a.steps / seconds}))


if __name__ == "__main__":
    main()
