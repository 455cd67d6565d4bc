#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference distributions for core/model/sampling: logits through PyTorch written the way
Hugging Face's generate() applies its processors and warpers (RepetitionPenaltyLogitsProcessor,
NoBadWordsLogitsProcessor, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper with
min_tokens_to_keep=1), then softmax: the probability each token is drawn with.

Run: /usr/bin/python3 tests/reference/make_sampling_reference.py
Writes tests/reference/fixtures/sampling_reference.json."""
import json
import os

import torch

# A tiny model's next-token logits: the tests' GPT-2 (make_model_fixtures.py) on its text, the
# last position as PyTorch computed it, times 4 (a tiny random model is nearly uniform: sharper,
# the cuts keep a few tokens), with one tie made (ids 5 and 9) for the cuts to keep.
HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "fixtures", "models", "gpt2_tiny", "expected.json")) as f:
    tiny = json.load(f)
logits = torch.tensor(tiny["logits"][-1], dtype=torch.float32) * 4.0
logits[5] = logits[9]
text = [3, 9, 9, 20, 4]

CASES = [
    {"temperature": 1.0, "top_k": 0, "top_p": 1.0},
    {"temperature": 0.7, "top_k": 0, "top_p": 1.0},
    {"temperature": 1.5, "top_k": 5, "top_p": 1.0},
    {"temperature": 1.0, "top_k": 0, "top_p": 0.8},
    {"temperature": 0.8, "top_k": 10, "top_p": 0.9},
    {"temperature": 1.0, "top_k": 0, "top_p": 1.0, "repetition_penalty": 1.3},
    {"temperature": 1.2, "top_k": 0, "top_p": 0.95, "bad_words_ids": [[7], [4, 11], [1, 2]]},
]


def warp(case):
    s = logits.clone().double()
    penalty = case.get("repetition_penalty", 1.0)
    if penalty != 1.0:
        ids = torch.tensor(sorted(set(text)))
        score = s[ids]
        s[ids] = torch.where(score < 0, score * penalty, score / penalty)
    for words in case.get("bad_words_ids", []):
        prefix = words[:-1]
        if len(prefix) == 0 or text[-len(prefix):] == prefix:
            s[words[-1]] = -float("inf")
    s = s / case["temperature"]
    k = case["top_k"]
    if k > 0:
        threshold = torch.topk(s, k)[0][-1]
        s = s.masked_fill(s < threshold, -float("inf"))
    p = case["top_p"]
    if p < 1.0:
        sorted_logits, order = torch.sort(s, descending=False)
        cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        remove = cumulative <= (1 - p)
        remove[-1:] = False
        s = s.masked_fill(remove.scatter(0, order, remove), -float("inf"))
    return torch.softmax(s, dim=-1)


out = {"logits": [float(x) for x in logits], "text": text, "cases": []}
for case in CASES:
    c = dict(case)
    c["probabilities"] = [float(x) for x in warp(case)]
    out["cases"].append(c)
path = os.path.join(HERE, "fixtures", "sampling_reference.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print("wrote", path)
