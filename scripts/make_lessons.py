#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the built-in lessons' session files into resources/lessons/.

    /usr/bin/python3 scripts/make_lessons.py

Every lesson is a session file (docs/session-format.md) plus a text per language
(resources/lessons/ID.zh.md and ID.en.md, written by hand) and an entry in
resources/lessons/lessons.json (written here, from LESSONS below). The embeddings of the
coreference, cross-attention and heads lessons are designed by hand on readable axes; the
random ones come from a fixed seed, so running the script again gives identical files.
Each lesson is checked here with a small numpy attention before it is written: the script
fails when a lesson does not show the effect its text promises.
"""

import json
import math
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "lessons")


# --- a tiny reference attention (the core's conventions, core/attention.h) ----------------
def attention(X, WQ, WK, WV, mode="self", Y=None, scale=True, shared=False):
    S = Y if mode == "cross" else X
    if shared:
        WK = WV = WQ
    Q, K, V = X @ WQ, S @ WK, S @ WV
    s = Q @ K.T
    if scale:
        s = s / math.sqrt(WQ.shape[1])
    if mode == "causal":
        s = np.where(np.tril(np.ones_like(s)) > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# --- writing ---------------------------------------------------------------------------------
def num(x):
    v = float(x)
    assert math.isfinite(v)
    r = round(v, 4)
    return repr(r if r != 0 else 0.0)


def mat(M, indent):
    pad = " " * indent
    rows = [pad + "    [" + ", ".join(num(x) for x in row) + "]" for row in np.atleast_2d(M)]
    return "[\n" + ",\n".join(rows) + "\n" + pad + "]"


def mats(Ms, indent):
    if not Ms:
        return "[]"
    pad = " " * indent
    return "[\n" + ",\n".join(pad + "    " + mat(M, indent + 4) for M in Ms) + "\n" + pad + "]"


def session(tokens, X, heads, mode="self", source=None, Y=None, scaling="sqrt_dk",
            score="dot", shared=False, WO=None, additive=None, view=(0, 0, 0), seed=7):
    d_model = X.shape[1]
    d_k = heads[0][0].shape[1]
    d_v = heads[0][2].shape[1]
    rng = np.random.default_rng(seed)
    if additive is None:
        d_a = 3
        additive = [(rng.normal(0, 0.8, (d_a, d_k)), rng.normal(0, 0.8, (d_a, d_k)),
                     rng.normal(0, 1.0, d_a)) for _ in heads]
    d_a = additive[0][0].shape[0]
    q = json.dumps
    parts = [
        '    "format": "attnlab-session"', '    "version": 1', '    "seed": %d' % seed,
        '    "d_model": %d' % d_model,
        '    "target": {\n        "tokens": %s,\n        "embeddings": %s\n    }'
        % (q(tokens, ensure_ascii=False), mat(X, 8)),
    ]
    if source is not None:
        parts.append('    "source": {\n        "tokens": %s,\n        "embeddings": %s\n    }'
                     % (q(source, ensure_ascii=False), mat(Y, 8)))
    proj = [
        '"heads": %d' % len(heads), '"d_k": %d' % d_k, '"d_v": %d' % d_v,
        '"W_Q": ' + mats([h[0] for h in heads], 8),
        '"W_K": ' + mats([h[1] for h in heads], 8),
        '"W_V": ' + mats([h[2] for h in heads], 8),
        '"W_O": ' + (mat(WO, 8) if WO is not None else "[]"),
        '"additive": {\n            "d_a": %d,\n            "W_a": %s,\n            "U_a": %s,'
        '\n            "v": %s\n        }'
        % (d_a, mats([a[0] for a in additive], 12), mats([a[1] for a in additive], 12),
           mat(np.array([a[2] for a in additive]), 12)),
    ]
    parts.append('    "projections": {\n' + ",\n".join("        " + p for p in proj) + "\n    }")
    opts = ['"mode": "%s"' % mode, '"scaling": "%s"' % scaling, '"temperature": 1.0',
            '"score": "%s"' % score, '"shared_projections": %s' % ("true" if shared else "false")]
    parts.append('    "options": {\n' + ",\n".join("        " + o for o in opts) + "\n    }")
    parts.append('    "edits": []')
    parts.append('    "view": {"head": %d, "row": %d, "column": %d, "color_range": "fixed"}'
                 % view)
    return "{\n" + ",\n".join(parts) + "\n}\n"


def rounded(*ms):
    return [np.round(m, 4) for m in ms]


# --- 1. the hand exercise ----------------------------------------------------------------
def hand_exercise():
    tokens = ["我", "爱", "读", "书"]
    X = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    WQ = np.array([[0.9, 0.1, 0.0], [0.0, 1.2, 0.4], [0.5, 0.0, 1.1]])
    WK = np.array([[1.0, 0.0, 0.3], [0.2, 0.8, 0.0], [0.0, 0.4, 1.2]])
    WV = np.array([[0.5, 0.0, 0.2], [0.0, 0.4, 0.1], [0.3, 0.1, 0.0]])
    P = attention(X, WQ, WK, WV)
    K2 = X @ WK
    K2[2] *= 2
    s = (X @ WQ) @ K2.T / math.sqrt(3)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    P2 = e / e.sum(axis=1, keepdims=True)
    assert np.abs(P2 - P).max() > 0.1, "doubling key 2 must move the weights visibly"
    return session(tokens, X, [(WQ, WK, WV)], view=(0, 1, 2))


# --- 2. coreference ----------------------------------------------------------------------
# Axes of d_model = 6: animate, place, tired, wide, pronoun, function word.
CORE_EMB = {
    "det": [0.2, 0, 0, 0, 0, 1.0], "animal": [1.0, 0, 0, 0, 0, 0], "neg": [0, 0, 0, 0, 0, 1.0],
    "cross": [0.1, 0.1, 0, 0, 0, 0.6], "street": [0, 1.0, 0, 0, 0, 0],
    "punct": [0, 0, 0, 0, 0, 0.4], "because": [0, 0, 0, 0, 0, 1.0],
    "it-tired": [0, 0, 0.6, 0, 1.0, 0], "it-wide": [0, 0, 0, 0.6, 1.0, 0],
    "too": [0, 0, 0, 0, 0, 0.8], "tired": [0, 0, 1.0, 0, 0, 0], "wide": [0, 0, 0, 1.0, 0, 0],
    "part": [0, 0, 0, 0, 0, 0.8], "be": [0, 0, 0, 0, 0, 0.8],
}
# Query/key axes (d_k = 4): looks for / offers an animate referent, a place referent,
# an attribute of something animate, an attribute of a place.
CORE_WQ = np.array([
    [1.0, 0, 0, 0],      # animate: a little self-similarity
    [0, 1.0, 0, 0],      # place
    [2.0, 0, 0, 0],      # tired: an attribute looks for the animate thing it describes
    [0, 2.0, 0, 0],      # wide: ... for the place it describes
    [1.2, 1.2, 0, 0],    # pronoun: looks for a referent, animate or place
    [0, 0, 0, 0],        # function words ask for nothing
])
CORE_WK = np.array([
    [3.0, 0, 0, 0],      # animate tokens offer "I am an animate referent"
    [0, 3.0, 0, 0],      # place tokens offer "I am a place"
    [2.2, 0, 0, 0],      # 'tired' goes with animate things
    [0, 2.2, 0, 0],      # 'wide' goes with places
    [0, 0, 0, 0],
    [0, 0, 0, 0],
])
CORE_WV = np.array([
    [1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 1.0], [0, 0, 0, 0], [0, 0, 0, 0],
])


def coreference(tokens, kinds, it_index, want, unwanted):
    X = np.array([CORE_EMB[k] for k in kinds])
    P = attention(X, CORE_WQ, CORE_WK, CORE_WV)
    row = P[it_index]
    assert int(np.argmax(row)) == want, (tokens, row)
    assert row[want] > 5 * row[unwanted], (tokens, row)
    print(tokens[it_index], " ".join("%s=%.2f" % (t, w) for t, w in zip(tokens, row)))
    return session(tokens, X, [(CORE_WQ, CORE_WK, CORE_WV)], view=(0, it_index, want))


ZH_KINDS = ["det", "animal", "neg", "cross", "street", "punct", "because", None, "too", None,
            "part"]
EN_KINDS = ["det", "animal", "neg", "cross", "det", "street", "because", None, "be", "too", None]


def zh_coreference(tired):
    tokens = ["那只", "动物", "没", "过", "街", "，", "因为", "它", "太",
              "累" if tired else "宽", "了"]
    kinds = list(ZH_KINDS)
    kinds[7] = "it-tired" if tired else "it-wide"
    kinds[9] = "tired" if tired else "wide"
    return coreference(tokens, kinds, 7, 1 if tired else 4, 4 if tired else 1)


def en_coreference(tired):
    tokens = ["The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too",
              "tired" if tired else "wide"]
    kinds = list(EN_KINDS)
    kinds[7] = "it-tired" if tired else "it-wide"
    kinds[10] = "tired" if tired else "wide"
    return coreference(tokens, kinds, 7, 1 if tired else 5, 5 if tired else 1)


# --- 3. scaling ----------------------------------------------------------------------------
def scaling():
    rng = np.random.default_rng(3)
    n, d, dk = 10, 16, 16
    X = rng.normal(0, 1, (n, d))
    std = 1 / math.sqrt(d)
    WQ, WK, WV = (rng.normal(0, std, (d, dk)) for _ in range(3))
    tokens = ["t%d" % i for i in range(1, n + 1)]
    return session(tokens, *rounded(X), [tuple(rounded(WQ, WK, WV))], view=(0, 0, 0))


# --- 4. causal -----------------------------------------------------------------------------
def causal():
    rng = np.random.default_rng(4)
    tokens = ["<s>", "解码器", "一次", "只", "生成", "一个", "词"]
    X = rng.normal(0, 1, (len(tokens), 4))
    WQ, WK, WV = (rng.normal(0, 0.7, (4, 4)) for _ in range(3))
    P = attention(X, WQ, WK, WV, mode="causal")
    assert np.all(np.triu(P, 1) == 0)
    return session(tokens, *rounded(X), [tuple(rounded(WQ, WK, WV))], mode="causal",
                   view=(0, 3, 1))


# --- 5. cross-attention ----------------------------------------------------------------------
def cross(src, tgt, align):
    """align[i] = source position target token i is the translation of, or None."""
    m, d = len(src), len(src) + 1
    Y = np.zeros((m, d))
    for j in range(m):
        Y[j, j] = 1.0
        Y[j, d - 1] = 0.3
    X = np.zeros((len(tgt), d))
    for i, a in enumerate(align):
        X[i, d - 1] = 1.0
        if a is not None:
            X[i, a] = 1.0
    W = 2.2 * np.eye(d)
    W[d - 1, d - 1] = 0.0
    P = attention(X, W, W, np.eye(d), mode="cross", Y=Y)
    for i, a in enumerate(align):
        if a is not None:
            assert int(np.argmax(P[i])) == a and P[i, a] > 0.5, (tgt[i], P[i])
    return session(tgt, X, [(W, W, np.eye(d))], mode="cross", source=src, Y=Y,
                   view=(0, 1, align[1]))


# --- 6. shared projections -------------------------------------------------------------------
def shared():
    rng = np.random.default_rng(6)
    tokens = ["注意力", "让", "每个", "词", "读", "完", "全句"]
    n, d = len(tokens), 4
    X = rng.normal(0, 1, (n, d))
    X = X / np.linalg.norm(X, axis=1, keepdims=True) * 1.5
    WQ = 1.6 * np.linalg.qr(rng.normal(0, 1, (d, d)))[0]
    WK = 1.6 * np.linalg.qr(rng.normal(0, 1, (d, d)))[0]
    WV = rng.normal(0, 0.6, (d, d))
    X, WQ, WK, WV = rounded(X, WQ, WK, WV)
    Ps = attention(X, WQ, WK, WV, shared=True)
    Pu = attention(X, WQ, WK, WV)
    diag_s = sum(int(np.argmax(Ps[i]) == i) for i in range(n))
    diag_u = sum(int(np.argmax(Pu[i]) == i) for i in range(n))
    assert diag_s == n and diag_u <= 2, (diag_s, diag_u)
    return session(tokens, X, [(WQ, WK, WV)], shared=True, view=(0, 2, 2))


# --- 7b. learning W_Q and W_K ----------------------------------------------------------------
def learning():
    # The trainer's previous-token task (core/train/tasks.cpp): six tokens, positions one-hot on
    # a ring of six slots, two components of content; untrained projections from a fixed seed.
    rng = np.random.default_rng(14)
    tokens = ["A", "B", "C", "D", "E", "F"]
    n, d, dk = 6, 8, 6
    X = np.zeros((n, d))
    X[:, :n] = np.eye(n)
    X[:, n:] = rng.normal(0, 0.5, (n, d - n))
    WQ = rng.normal(0, 1 / math.sqrt(d), (d, dk))
    WK = rng.normal(0, 1 / math.sqrt(d), (d, dk))
    WV = rng.normal(0, 1 / math.sqrt(d), (d, dk))
    X, WQ, WK, WV = rounded(X, WQ, WK, WV)
    P = attention(X, WQ, WK, WV)
    # Untrained: no row already looks at the token before it with most of its weight.
    assert all(P[i, i - 1] < 0.5 for i in range(1, n)), P
    return session(tokens, X, [(WQ, WK, WV)])


# --- 7. additive ---------------------------------------------------------------------------
def additive():
    rng = np.random.default_rng(7)
    tokens = ["那只", "猫", "坐", "在", "垫子", "上"]
    X = rng.normal(0, 1, (len(tokens), 4))
    WQ, WK, WV = (rng.normal(0, 0.7, (4, 4)) for _ in range(3))
    add = [(rng.normal(0, 1.0, (4, 4)), rng.normal(0, 1.0, (4, 4)), rng.normal(0, 1.5, 4))]
    X, WQ, WK, WV = rounded(X, WQ, WK, WV)
    add = [tuple(rounded(*add[0]))]
    return session(tokens, X, [(WQ, WK, WV)], additive=add, view=(0, 1, 0))


# --- 8. cost -------------------------------------------------------------------------------
def cost():
    rng = np.random.default_rng(8)
    tokens = ["n", "=", "1000", "→", "10⁶", "个", "分数"]
    X = rng.normal(0, 1, (len(tokens), 8))
    WQ, WK, WV = (rng.normal(0, 1 / math.sqrt(8), (8, 8)) for _ in range(3))
    return session(tokens, *rounded(X), [tuple(rounded(WQ, WK, WV))])


# --- 9. heads --------------------------------------------------------------------------------
def heads():
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    n = len(tokens)
    d = n + 1  # one-hot position + a constant 1
    X = np.zeros((n, d))
    for i in range(n):
        X[i, i] = 1.0
        X[i, n] = 1.0
    c = 3.0
    eye = np.zeros((d, d))
    eye[:n, :n] = c * np.eye(n)
    prev = np.zeros((d, d))  # position i asks for position i-1 (0 asks for itself)
    for i in range(n):
        prev[i, max(i - 1, 0)] = c
    first = np.zeros((d, d))  # everyone asks for position 0
    first[n, 0] = c
    rng = np.random.default_rng(9)
    dv = 3
    hs = [(prev, eye, rng.normal(0, 0.7, (d, dv))), (first, eye, rng.normal(0, 0.7, (d, dv))),
          (eye, eye, rng.normal(0, 0.7, (d, dv)))]
    hs = [tuple(rounded(*h)) for h in hs]
    WO = np.round(rng.normal(0, 1 / math.sqrt(3 * dv), (3 * dv, d)), 4)
    want = [[max(i - 1, 0) for i in range(n)], [0] * n, list(range(n))]
    for h, (WQ, WK, WV) in enumerate(hs):
        P = attention(X, WQ, WK, WV)
        assert [int(np.argmax(r)) for r in P] == want[h], (h, P)
    return session(tokens, X, hs, WO=WO, view=(0, 3, 2))


# --- induction heads form ------------------------------------------------------------------
def induction():
    """Layer 2's match of an induction head, made by hand: every token's vector holds the
    token itself (first five axes) and the token before it (last five: what a previous-token
    head of layer 1 writes). W_Q reads the token, W_K the token before: the second "q" finds
    the key that says "I come after q", the first "w", and W_V copies "w"."""
    tokens = ["q", "w", "e", "r", "t", "q"]
    letters = ["q", "w", "e", "r", "t"]
    v = len(letters)
    X = np.zeros((len(tokens), 2 * v))
    for i, t in enumerate(tokens):
        X[i, letters.index(t)] = 1.0
        if i > 0:
            X[i, v + letters.index(tokens[i - 1])] = 1.0
    c = 3.0
    WQ = np.zeros((2 * v, v))
    WQ[:v, :] = c * np.eye(v)
    WK = np.zeros((2 * v, v))
    WK[v:, :] = c * np.eye(v)
    WV = np.zeros((2 * v, v))
    WV[:v, :] = np.eye(v)
    P = attention(X, WQ, WK, WV, mode="causal")
    assert int(np.argmax(P[5])) == 1 and P[5, 1] > 0.9, P[5]
    return session(tokens, X, [(WQ, WK, WV)], mode="causal", view=(0, 5, 1))


# --- positions by rotation (RoPE) -------------------------------------------------------------
def rope_turn(M, theta):
    """Rotary positions as core/rope.h applies them (rotate-half pairs (c, c + d/2)): row p
    turned by the angles p * theta^(-2c/d)."""
    n, d = M.shape
    h = d // 2
    f = theta ** (-2.0 * np.arange(h) / d)
    out = M.copy()
    for p in range(n):
        c, s = np.cos(p * f), np.sin(p * f)
        out[p, :h] = M[p, :h] * c - M[p, h:] * s
        out[p, h:] = M[p, h:] * c + M[p, :h] * s
    return out


def rope_weights(X, W, theta):
    Q, K = X @ W, X @ W
    if theta:
        Q, K = rope_turn(Q, theta), rope_turn(K, theta)
    s = Q @ K.T / math.sqrt(W.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def rope():
    """Seven copies of one word: without positions every row is uniform; with rotary positions
    the map is banded, and a smaller theta narrows the band (or, at theta = 1, makes it
    oscillate: back up at distance 6, almost 2 pi). The pairs' energies (0.98, 8, 2.88, 2) put
    most of the score in pair 2, whose frequency theta^(-1/4) is the one theta moves most
    visibly over a few positions. Seven rows, not eight: the presenter's walkthrough at
    1366x768 puts X, Q, K and V two by two, and eight rows of cells there were too low for
    their values."""
    tokens = ["la"] * 7
    x = np.array([0.7, 2.0, 1.2, 1.0, 0.7, 2.0, 1.2, 1.0])
    X = np.tile(x, (len(tokens), 1))
    W = np.eye(8)
    plain = rope_weights(X, W, None)
    assert np.allclose(plain, 1 / 7), plain
    near = [rope_weights(X, W, t)[6, 6] for t in (10000, 100, 10)]
    assert near[0] < near[1] < near[2], near  # a smaller theta, a narrower band
    wide = rope_weights(X, W, 1)
    assert wide[6, 0] > 0.3 > wide[6, 3], wide[6]  # theta = 1: back up at distance 6
    for t in (10000, 100, 10, 1):
        print("theta", t, "row 7:", " ".join("%.3f" % w for w in rope_weights(X, W, t)[6]))
    return session(tokens, X, [(W, W, W)], view=(0, 6, 6))


# --- temperature: the same softmax -----------------------------------------------------------
def temperature():
    """The ten characters the Tang model reads in the lesson, as labels of random unit-variance
    vectors (as in the lesson on sqrt(d_k)): d_k = 16, a head of the Tang model's width 64 over
    4 heads. Causal, so that the last row reads every key, as the model does when it writes.
    The seed gives a row that is typical of random vectors: spread with scaling, nearly one-hot
    without."""
    rng = np.random.default_rng(10)
    tokens = list("春眠不觉晓，处处闻啼")
    n, d, dk = len(tokens), 16, 16
    X = rng.normal(0, 1, (n, d))
    std = 1 / math.sqrt(d)
    WQ, WK, WV = rounded(*(rng.normal(0, std, (d, dk)) for _ in range(3)))
    X = np.round(X, 4)
    scaled = attention(X, WQ, WK, WV, mode="causal")[n - 1]
    plain = attention(X, WQ, WK, WV, mode="causal", scale=False)[n - 1]
    assert plain.max() > 0.9 > 0.5 > scaled.max(), (plain.max(), scaled.max())
    return session(tokens, X, [(WQ, WK, WV)], mode="causal",
                   view=(0, n - 1, int(np.argmax(scaled))))


LESSONS = [
    ("hand-exercise", hand_exercise,
     "The hand exercise: double one key", "动手练习：把一个键放大两倍",
     "Four tokens, 3×3 projections, every number shown; predict, then see.",
     "四个词、3×3 投影，每个数都看得见；先预测，再验证。"),
    ("coreference-tired", lambda: zh_coreference(True),
     "它 and 动物: 「…因为它太累了」", "“它”指谁：「…因为它太累了」",
     "它 attends mostly to 动物 and 累 (illustrative vectors).",
     "“它”的注意力主要落在“动物”和“累”上（示意向量）。"),
    ("coreference-wide", lambda: zh_coreference(False),
     "它 and 街: 「…因为它太宽了」", "“它”指谁：「…因为它太宽了」",
     "The same pronoun, another context: now 街 gets the most weight.",
     "同一个代词、换个语境：这次“街”拿到最大权重。"),
    ("coreference-tired-en", lambda: en_coreference(True),
     "“it” and the animal: “…because it was too tired”", "英文例句：…because it was too tired",
     "“it” attends mostly to “animal” and “tired” (illustrative vectors).",
     "“it”的注意力主要落在 animal 与 tired 上（示意向量）。"),
    ("coreference-wide-en", lambda: en_coreference(False),
     "“it” and the street: “…because it was too wide”", "英文例句：…because it was too wide",
     "The same pronoun, another context: now “street” gets the most weight.",
     "同一个代词、换个语境：这次 street 拿到最大权重。"),
    ("scaling", scaling,
     "Why divide by √d_k", "为什么要除以 √d_k",
     "Raise d_k to 512 and switch the scaling off: the rows collapse to one-hot; "
     "a plot measures the variance against d_k.",
     "把 d_k 调到 512 再关掉缩放：每行塌缩成独热；小图实测方差随 d_k 的变化。"),
    ("causal", causal,
     "Masked (causal) self-attention", "掩码（因果）自注意力",
     "A decoder may not look ahead: the upper triangle is exactly zero.",
     "解码器不能偷看未来：上三角恰好为零。"),
    ("cross", lambda: cross(["我", "很", "喜欢", "读", "书"],
                            ["<s>", "I", "really", "like", "reading", "books", "."],
                            [None, 0, 1, 2, 3, 4, None]),
     "Cross-attention: translation looks back", "交叉注意力：翻译时回头查原文",
     "Each English token looks back at the Chinese source: a 7×5 map.",
     "每个英文词回头查阅中文原句：7×5 的长方形权重图。"),
    ("cross-short", lambda: cross(["我", "爱", "你"], ["I", "love", "you"], [0, 1, 2]),
     "Cross-attention: 我 爱 你 → I love you", "交叉注意力：我爱你 → I love you",
     "The shortest translation pair: each English word finds its source word.",
     "最短的翻译对：每个英文词找到对应的中文词。"),
    ("shared-projections", shared,
     "Why Q, K and V differ", "为什么 Q、K、V 要分开",
     "With one shared projection every token looks at itself; separate them.",
     "共用一个投影时每个词都盯着自己；把它们分开看看。"),
    ("learning", learning,
     "Learning W_Q and W_K", "学习 W_Q 和 W_K",
     "Watch gradient descent learn a previous-token head, then try one shared projection.",
     "看梯度下降学出“看前一个词”的头，再试试共用一个投影。"),
    ("additive", additive,
     "Additive vs dot-product scoring", "加性打分与点积打分",
     "The same tokens scored two ways: switch the score function.",
     "同一组词、两种打分：切换打分函数比较。"),
    ("cost", cost,
     "The n² cost", "平方复杂度的代价",
     "n = 1,000 gives 10⁶ scores, n = 100,000 gives 10¹⁰: measure time and memory against n.",
     "n 为一千时一百万个分数，十万时一百亿：实测时间和内存随 n 的增长。"),
    ("heads", heads,
     "Several heads, several patterns", "多个头，多种模式",
     "Three heads: previous token, first token, itself; and their combination.",
     "三个头：看前一个词、看第一个词、看自己；以及它们的合并。"),
    ("real-model", lambda: en_coreference(True),
     "A real model", "一个真实的模型",
     "Open a trained model built into AttnLab: every layer, every head, its prediction; "
     "then GPT-2 or BERT on the textbook's sentences.",
     "打开 AttnLab 内置的训练过的模型：每一层、每个头，以及它的预测；"
     "下一步用 GPT-2 或 BERT 读课本的句子。"),
    ("model-care", lambda: en_coreference(True),
     "Does the model care?", "模型在乎吗？",
     "Halve or double the key an induction head reads most, switch heads off: "
     "does the prediction move?",
     "把归纳头最关注的那个键减半或放大两倍，再关掉几个头：预测会变吗？"),
    ("induction-form", induction,
     "Induction heads form", "归纳头的形成",
     "Train one layer, then two, and watch a head that copies appear at once; then switch it off.",
     "先训练一层、再训练两层，看一个会复制的头突然出现；然后把它关掉。"),
    ("rope", rope,
     "Positions by rotation (RoPE)", "用旋转表示位置（RoPE）",
     "Seven identical words: without positions every weight is 1/7; turn RoPE on and a band "
     "appears along the diagonal, narrower as θ shrinks.",
     "七个相同的词：没有位置时每个权重都是 1/7；打开 RoPE，对角线上出现一条带，θ 越小带越窄。"),
    ("temperature", temperature,
     "Temperature: the same softmax", "温度：同一个 softmax",
     "The Tang poem model writes at T = 0.2, 0.7 and 1.5; beside it, one row with √d_k "
     "scaling on and off. Both divide the scores of one softmax.",
     "唐诗模型分别在 T = 0.2、0.7 和 1.5 下续写；旁边的一行分别打开和关闭 √d_k 缩放。"
     "两者都是在同一个 softmax 前除分数。"),
    ("model-writes", induction,
     "The model writes", "模型自己写",
     "The letters model continues a repeated pattern; switch off its induction head and it "
     "stops.",
     "字母模型接着写出重复的模式；关掉它的归纳头，它就不再重复。"),
]


# What each lesson shows when it opens (ui/readers/dock_layout.h): the central tab ("weights",
# "difference", "pipeline", "heads" or "walkthrough") and the docks in each area, top to bottom
# (left, right) or left to right (bottom); every other dock is hidden. The window sizes them;
# tests/ui/lesson_layout_test.cpp checks that nothing they show is clipped.
LAYOUT = {
    "hand-exercise": {"tab": "weights", "right": ["LessonDock"],
                      "bottom": ["KeysDock", "WorkingDock"]},
    "coreference-tired": {"tab": "weights", "left": ["RowInspectorDock"],
                        "right": ["LessonDock"]},
    "coreference-wide": {"tab": "weights", "left": ["RowInspectorDock"],
                       "right": ["LessonDock"]},
    "coreference-tired-en": {"tab": "weights", "left": ["RowInspectorDock"],
                           "right": ["LessonDock"]},
    "coreference-wide-en": {"tab": "weights", "left": ["RowInspectorDock"],
                          "right": ["LessonDock"]},
    "scaling": {"tab": "weights", "left": ["ControlsDock", "RowInspectorDock"],
                "right": ["LessonDock"]},
    "causal": {"tab": "weights", "left": [["ControlsDock", "RowInspectorDock"]],
               "right": ["LessonDock"]},
    "cross": {"tab": "weights", "left": ["SequencesDock"], "right": ["LessonDock"]},
    "cross-short": {"tab": "weights", "left": ["SequencesDock"], "right": ["LessonDock"]},
    "shared-projections": {"tab": "weights", "left": ["ControlsDock"], "right": ["LessonDock"]},
    "learning": {"tab": "weights", "right": ["LessonDock"], "bottom": ["TrainerDock"]},
    "additive": {"tab": "weights", "left": ["ControlsDock"],
                 "right": ["RowInspectorDock", "LessonDock"]},
    "cost": {"tab": "weights", "right": ["LessonDock"], "bottom": ["CostDock"]},
    "heads": {"tab": "heads", "left": ["ControlsDock"], "right": ["LessonDock"]},
    "real-model": {"tab": "weights", "right": ["LessonDock"]},
    "model-care": {"tab": "weights", "right": ["LessonDock"]},
    "induction-form": {"tab": "weights", "right": ["LessonDock"]},
    "rope": {"tab": "weights", "left": ["ControlsDock", "RowInspectorDock"],
             "right": ["LessonDock"]},
    "temperature": {"tab": "weights", "left": ["ControlsDock", "RowInspectorDock"],
                    "right": ["LessonDock"]},
    "model-writes": {"tab": "weights", "right": ["LessonDock"]},
}


# Lessons that share another lesson's text (the language variants of one example).
TEXT_OF = {"coreference-tired-en": "coreference-tired", "coreference-wide-en": "coreference-wide",
           "cross-short": "cross"}


def main():
    os.makedirs(OUT, exist_ok=True)
    index = []
    for lid, make, ten, tzh, sen, szh in LESSONS:
        text = make()
        json.loads(text)
        with open(os.path.join(OUT, lid + ".attnlab.json"), "w", encoding="utf-8") as f:
            f.write(text)
        index.append({"id": lid, "title_en": ten, "title_zh": tzh, "summary_en": sen,
                      "summary_zh": szh, "session": lid + ".attnlab.json",
                      "text_en": TEXT_OF.get(lid, lid) + ".en.md",
                      "text_zh": TEXT_OF.get(lid, lid) + ".zh.md",
                      "layout": LAYOUT[lid]})
    with open(os.path.join(OUT, "lessons.json"), "w", encoding="utf-8") as f:
        json.dump({"lessons": index}, f, ensure_ascii=False, indent=4)
        f.write("\n")
    print("wrote %d lessons to %s" % (len(index), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
