#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seed corpora under fuzz/corpus/<target>/ from the lessons and the test fixtures.

Run from anywhere: /usr/bin/python3 fuzz/make_corpus.py. The corpora are committed; this script
says how they were made and remakes them (it replaces the files it writes, nothing else).
Kept small (a few hundred kB in all): checkpoints become their real headers with tiny tensors,
or their headers plus a little data; vocabularies become consistent slices of the real ones.
"""
import json
import pathlib
import struct
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"
LESSONS = ROOT / "resources" / "lessons"
MODELS = ROOT / "tests" / "reference" / "fixtures" / "models"
TORCH = ROOT / "tests" / "reference" / "fixtures" / "torch"
TOKENIZERS = ROOT / "tests" / "reference" / "tokenizers"


def write(target, name, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    (d / name).write_bytes(data)


def safetensors(header, data=b""):
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the library pads the header to 8 bytes
    return struct.pack("<Q", len(text)) + text + data


# Sessions: every lesson, and a version-2 session with biases and a provenance.
for f in sorted(LESSONS.glob("*.attnlab.json")):
    write("session", f.name, f.read_bytes())
s = json.loads((LESSONS / "hand-exercise.attnlab.json").read_text())
s["version"] = 2
p = s["projections"]
for key, width in (("b_Q", "d_k"), ("b_K", "d_k"), ("b_V", "d_v")):
    p[key] = [[0.25 * (i + 1) for i in range(p[width])] for _ in range(p["heads"])]
s["provenance"] = {"model_folder": "/models/gpt2", "safetensors_sha256": "0" * 64,
                   "model_type": "gpt2", "layer": 3, "head": 1, "text": "The animal"}
write("session", "v2-biases-provenance.attnlab.json", json.dumps(s, indent=1, ensure_ascii=False))
# A version-3 session with rotary positions, llama3-scaled, on the RoPE lesson's even d_k.
s = json.loads((LESSONS / "rope.attnlab.json").read_text())
s["version"] = 3
s["options"]["rope"] = {"theta": 500000.0, "scaling": "llama3", "factor": 8.0,
                        "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                        "original_max_position_embeddings": 8192.0}
write("session", "v3-rope-llama3.attnlab.json", json.dumps(s, indent=1, ensure_ascii=False))

# The lesson catalogue.
write("lesson_catalog", "lessons.json", (LESSONS / "lessons.json").read_bytes())

# Checkpoints: each fixture's real header with every tensor shrunk to at most 2 elements (a
# valid file), the F16 fixture whole, each header with 64 bytes of data (truncated), and a few
# made by hand (misaligned, BOOL/I64, metadata, empty tensors).
SIZES = {"F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "U8": 1, "BOOL": 1, "F64": 8}
for model in sorted(MODELS.iterdir()):
    raw = (model / "model.safetensors").read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    small, data = {}, b""
    for name, e in header.items():
        if name == "__metadata__":
            small[name] = e
            continue
        shape = [min(d, 2) for d in e["shape"][:1]] + [1] * (len(e["shape"]) - 1)
        count = 1
        for d in shape:
            count *= d
        size = SIZES[e["dtype"]] * count
        small[name] = {"dtype": e["dtype"], "shape": shape,
                       "data_offsets": [len(data), len(data) + size]}
        data += bytes((len(data) + k) % 251 for k in range(size))
    write("safetensors", model.name + "-shrunk.safetensors", safetensors(small, data))
    write("safetensors", model.name + "-head.safetensors", raw[:8 + n + 64])
    config = (model / "config.json").read_bytes()
    write("config", model.name + ".json", config)
write("safetensors", "gpt2_tiny_f16_prefixed.safetensors",
      (MODELS / "gpt2_tiny_f16_prefixed" / "model.safetensors").read_bytes())
f32 = struct.pack("<4f", 1.5, -2.25, 0.0, 3.0)
write("safetensors", "misaligned.safetensors",
      struct.pack("<Q", 55) + b'{"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}'[:55]
      + f32)
write("safetensors", "mixed.safetensors", safetensors({
    "__metadata__": {"format": "pt"},
    "w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]},
    "ids": {"dtype": "I64", "shape": [1, 1], "data_offsets": [4, 12]},
    "mask": {"dtype": "BOOL", "shape": [2], "data_offsets": [12, 14]},
    "empty": {"dtype": "F32", "shape": [0, 3], "data_offsets": [14, 14]},
    "h": {"dtype": "F16", "shape": [1], "data_offsets": [14, 16]},
}, b"\x80\x3f\x00\x40" + struct.pack("<q", 7) + b"\x01\x00" + b"\x00\x3c"))
# torch.save zips (pytorch_model.bin), read by the same reader: the small fixtures whole.
for name in ["mixed.bin", "not_contiguous.bin", "runs_code.bin", "compressed.bin", "legacy.bin"]:
    write("safetensors", "torch-" + name, (TORCH / name).read_bytes())

# config.json: the fixtures' and variants the reader knows.
gpt2 = json.loads((MODELS / "gpt2_tiny" / "config.json").read_text())
v = dict(gpt2)
del v["n_positions"]
v.update({"activation_function": "relu", "n_inner": 48, "tie_word_embeddings": False,
          "scale_attn_weights": False})
write("config", "gpt2-variant.json", json.dumps(v))
bert = json.loads((MODELS / "bert_tiny" / "config.json").read_text())
b = dict(bert)
b.update({"hidden_act": "gelu_new", "position_embedding_type": "absolute",
          "is_decoder": False, "layer_norm_eps": 1e-7, "type_vocab_size": None})
write("config", "bert-variant.json", json.dumps(b))
# generation_config.json: what transformers writes, with the settings AttnLab honours.
write("config", "generation_config.json",
      json.dumps({"eos_token_id": [2, 7], "bad_words_ids": [[5], [3, 4]], "num_beams": 4,
                  "do_sample": True, "forced_eos_token_id": 2, "_from_model_config": True}))

# GPT-2 tokenizer files: vocab.json NUL merges.txt (the first merges of the real files, whose
# results are the ids after the 256 bytes), and "#t" + tokenizer.json of the same.
vocab = json.loads((TOKENIZERS / "gpt2" / "vocab.json").read_text())
merges = (TOKENIZERS / "gpt2" / "merges.txt").read_text().split("\n")
for count in (40, 300):
    kept = {t: i for t, i in vocab.items() if i < 256 + count}
    lines = merges[:1 + count]
    write("gpt2_load", f"gpt2-{count}.txt",
          json.dumps(kept, ensure_ascii=False) + "\0" + "\n".join(lines) + "\n")
    tj = {"version": "1.0", "model": {"type": "BPE", "vocab": kept,
                                      "merges": [m if k % 2 else m.split(" ")
                                                 for k, m in enumerate(lines[1:])]}}
    write("gpt2_load", f"tokenizer-{count}.txt", "#t" + json.dumps(tj, ensure_ascii=False))

# BERT: the head of the real vocab.txt (specials, [unused], characters) and common words,
# with and without a tokenizer_config.json after a NUL.
lines = (TOKENIZERS / "bert-base-uncased" / "vocab.txt").read_text().split("\n")
head = "\n".join(lines[:1100] + lines[1996:2300]) + "\n"
write("bert_load", "bert-vocab.txt", head)
write("bert_load", "bert-vocab-cased.txt",
      head + "\0" + json.dumps({"do_lower_case": False, "strip_accents": True,
                                "tokenize_chinese_chars": False}))

# tokenizer.json: each real file of tests/reference/tokenizers/hf with its whole pipeline and
# added tokens but a consistent slice of its vocabulary (ids below 600, ids kept) and of its
# merges; with its tokenizer_config.json (no chat template) after a NUL, and without.
for archive in sorted((TOKENIZERS / "hf").glob("*.tar.xz")):
    with tarfile.open(archive, "r:xz") as tar:
        tj = json.loads(tar.extractfile("tokenizer.json").read())
        config = json.loads(tar.extractfile("tokenizer_config.json").read())
    model = tj["model"]
    vocab = {p: i for p, i in model["vocab"].items() if i < 600}
    merges = []
    for m in model["merges"]:
        a, b = m.split(" ") if isinstance(m, str) else m
        if a in vocab and b in vocab and a + b in vocab:
            merges.append(m)
    model["vocab"], model["merges"] = vocab, merges
    config.pop("chat_template", None)
    config.pop("added_tokens_decoder", None)
    name = archive.name.split(".")[0]
    text = json.dumps(tj, ensure_ascii=False)
    write("hf_load", f"{name}-600.json", text)
    write("hf_load", f"{name}-600-config.json", text + "\0" + json.dumps(config, ensure_ascii=False))

# Texts to encode: every input of the tokenizer reference cases, one file each.
for name, target in (("gpt2_cases.json", "gpt2_encode"), ("bert_cases.json", "bert_encode")):
    cases = json.loads((TOKENIZERS / name).read_text())["cases"]
    seen = set()
    for k, case in enumerate(cases):
        text = case["text"]
        if text in seen or not text:
            continue
        seen.add(text)
        write(target, f"case-{k:03d}.txt", text)

# tokenizer.json pipelines around the fixed vocabulary of fuzz_hf_pipeline.cpp (ids 0-255 the
# byte characters, 256 "<unk>", 257 "<s>", 258 "</s>"): a JSON object with the stages, a NUL,
# and a text. Each seed is one real pipeline or one kind of stage.
TEXT = "The animal didn't cross, 它太累了! <s>  naïve e\u0301 🤖\n\t x </s> ab c"
QWEN_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+"
              r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
BOS = {"type": "TemplateProcessing",
       "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                  {"Sequence": {"id": "A", "type_id": 0}}],
       "special_tokens": {"<s>": {"id": "<s>", "ids": [257], "tokens": ["<s>"]}}}
ADDED = [{"id": 257, "content": "<s>", "special": True, "normalized": False},
         {"id": 258, "content": "</s>", "special": True, "normalized": False, "lstrip": True,
          "rstrip": True}]
SEEDS = {
    "mistral": {
        "model": {"unk_token": "<unk>", "byte_fallback": True, "fuse_unk": True},
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "post_processor": BOS, "added_tokens": ADDED},
    "qwen": {
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": QWEN_SPLIT}, "behavior": "Isolated",
             "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False}]},
        "decoder": {"type": "ByteLevel"},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": False},
        "added_tokens": ADDED},
    "llama3": {
        "model": {"ignore_merges": True},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": QWEN_SPLIT}, "behavior": "Isolated"},
            {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False}]},
        "post_processor": {"type": "Sequence", "processors": [
            {"type": "ByteLevel", "add_prefix_space": True}, BOS]},
        "decoder": {"type": "ByteLevel"}},
    "gpt2-bytelevel": {
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": True, "use_regex": True},
        "decoder": {"type": "ByteLevel"}},
    "bytelevel-missing-bytes": {
        "model": {"remove": ["ð", "Ł", "a"]},
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False}},
    "metaspace-first": {
        "model": {"unk_token": "<unk>"},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
                          "split": True},
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first"},
        "added_tokens": ADDED},
    "nfd-replace-regex-splits": {
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFD"},
            {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious"},
            {"type": "Split", "pattern": {"Regex": "\\p{P}"}, "behavior": "Contiguous"},
            {"type": "Split", "pattern": {"Regex": "[a-z]+"}, "behavior": "Removed",
             "invert": True},
            {"type": "Split", "pattern": {"String": "e"}, "behavior": "MergedWithNext"}]}},
    "unsupported-normalizers": {
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFKC"}, {"type": "Lowercase"}, {"type": "Strip", "left": True}]}},
    "bert-processing": {
        "model": {"unk_token": "<unk>"},
        "post_processor": {"type": "BertProcessing", "cls": ["<s>", 257], "sep": ["</s>", 258]}},
    "roberta-processing": {
        "post_processor": {"type": "RobertaProcessing", "cls": ["<s>", 257],
                           "sep": ["</s>", 258], "trim_offsets": True}},
    "growing-replace": {
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"String": "a"}, "content": "a" * 20},
            {"type": "Replace", "pattern": {"String": "a"}, "content": "a" * 20}]}},
    "empty-regex-replace": {
        "normalizer": {"type": "Replace", "pattern": {"Regex": ""}, "content": "▁"},
        "decoder": {"type": "Replace", "pattern": {"Regex": ""}, "content": "x"}},
    "added-token-flags": {
        "model": {"unk_token": "<unk>", "fuse_unk": False},
        "normalizer": {"type": "Prepend", "prepend": "▁"},
        "added_tokens": [
            {"id": 257, "content": "<s>", "special": True, "normalized": False,
             "single_word": True},
            {"id": 600, "content": "naïve", "special": False, "normalized": True,
             "lstrip": True},
            {"id": 258, "content": "</s>", "special": True, "normalized": False,
             "rstrip": True}]},
}
for name, spec in SEEDS.items():
    write("hf_pipeline", f"{name}.txt", json.dumps(spec, ensure_ascii=False) + "\0" + TEXT)

# Corpora: the opening of the Tang poems, English with punctuation, mixed scripts and emoji,
# and a text of one repeated character.
tang = (ROOT / "resources" / "models" / "tang" / "corpus.txt").read_text(encoding="utf-8")
write("corpus", "tang-head.txt", tang[:400])
write("corpus", "english.txt", "The animal didn't cross the street because it was too tired.\n")
write("corpus", "mixed.txt", "那只动物没过街，因为它太累了 — it was tired 🤖 ¿qué? ΑΒΓ\t\n")
write("corpus", "one-character.txt", "a" * 40)

# train-model's options, the words separated by NUL: the built-in models' commands, each at
# the edges of their ranges, and malformed ones.
def options(*words):
    return "\0".join(words)


write("train_options", "induction.txt", options(
    "--task", "induction", "--layers", "2", "--attention-only", "--seed", "1", "-o", "out"))
write("train_options", "tang.txt", options(
    "--corpus", "corpus.txt", "--layers", "3", "--heads", "4", "--d-model", "64", "--context", "64",
    "--batch", "16", "--steps", "2000", "--lr", "3e-3", "--init-std", "0.02", "--warmup", "100",
    "--final-lr", "0.1", "--measure-every", "250", "-o", "tang"))
write("train_options", "small.txt", options(
    "--task=induction", "--context=16", "--d-model=8", "--heads=1", "--layers=1", "--steps=1",
    "--batch=1", "--output=o", "--curve", "c.csv", "--threads", "2", "--stop-after", "1"))
write("train_options", "edges.txt", options(
    "--task", "induction", "--context", "1024", "--d-model", "1024", "--layers", "48",
    "--heads", "64", "--batch", "1024", "--steps", "10000000", "--lr", "10", "-o", "x"))
write("train_options", "bad.txt", options(
    "--task", "induction", "--layers", "0x10", "--lr", "nan", "--layers", "2", "-o", ""))

# A T5 tokenizer.json (Unigram, SentencePiece's charsmap) from the fixture that
# tests/reference/make_t5_tokenizer_json.py writes, with two bytes of text length and the text
# first: a small vocabulary with two extra ids, one with byte fallback, a BPE model and a
# charsmap too short to be one (refused).
import copy  # noqa: E402

t5 = json.loads((TOKENIZERS / "seq2seq" / "t5_json" / "tokenizer.json").read_text(encoding="utf-8"))


def unigram(name, spec, text):
    t = text.encode("utf-8")
    write("unigram_json", name,
          struct.pack("<H", len(t)) + t + json.dumps(spec, ensure_ascii=False).encode("utf-8"))


small = copy.deepcopy(t5)
small["model"]["vocab"] = t5["model"]["vocab"][:60] + [["<extra_id_1>", 0.0], ["<extra_id_0>", 0.0]]
small["added_tokens"] = [a for a in t5["added_tokens"] if a["id"] < 3]
unigram("seed0", small, "Hello world 床前明月光")
fallback = copy.deepcopy(small)
fallback["model"]["byte_fallback"] = True
fallback["model"]["vocab"].insert(5, ["<0x41>", -3.0])
unigram("seed1", fallback, "ABC ünï")
bpe = copy.deepcopy(small)
bpe["model"]["type"] = "BPE"
bpe["normalizer"]["normalizers"][0]["precompiled_charsmap"] = "AAAA"
unigram("seed2", bpe, "x")
short = copy.deepcopy(small)
short["normalizer"] = {"type": "Precompiled", "precompiled_charsmap": "AAAA"}
unigram("seed3", short, "  spaces  ")


# spm_load: a text that spells special tokens and starts a stretch with a language code, with
# the Marian fixture's source model (the Tokenizer cuts the text before the library sees it).
def spm(name, model, text):
    encoded = text.encode("utf-8")
    write("spm_load", name, struct.pack("<H", len(encoded)) + encoded + model.read_bytes())


spm("specials", TOKENIZERS / "seq2seq" / "marian" / "source.spm",
    "</s>>>fra<< Hello <unk> world</s><pad")
