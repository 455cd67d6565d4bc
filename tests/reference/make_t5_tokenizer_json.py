#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A T5 folder's tokenizer.json for the fixture T5 SentencePiece model
(tokenizers/seq2seq/t5/spiece.model, made by make_seq2seq_tokenizer_fixtures.py), written as
transformers' T5Converter (convert_slow_tokenizer.py) writes one from spiece.model:

  model          Unigram: every piece with its score, then <extra_id_99> ... <extra_id_0> with
                 score 0.0 (T5Tokenizer's 100 extra ids), unk_id from the model, no byte fallback
  normalizer     Sequence: Precompiled (the model's precompiled_charsmap, base64), Strip (right),
                 Replace " {2,}" -> "▁"
  pre_tokenizer  Metaspace "▁", prepend_scheme "always", split
  post_processor TemplateProcessing "$A </s>" (pair "$A </s> $B </s>")
  decoder        Metaspace
  added_tokens   <pad>, </s>, <unk> and the extra ids, special

Written to tokenizers/seq2seq/t5_json/tokenizer.json (no spiece.model beside it). Its ids are
the same as spiece.model's (cases.json's "t5"): the program runs it through the same
libsentencepiece. Run with Debian's interpreter (python3-sentencepiece, python3-protobuf):
    /usr/bin/python3 tests/reference/make_t5_tokenizer_json.py
The output is deterministic.
"""
import base64
import json
import os

from sentencepiece import sentencepiece_model_pb2 as model_pb2

HERE = os.path.dirname(os.path.abspath(__file__))
SEQ2SEQ = os.path.join(HERE, "tokenizers", "seq2seq")
EXTRA_IDS = 100


def main():
    proto = model_pb2.ModelProto()
    with open(os.path.join(SEQ2SEQ, "t5", "spiece.model"), "rb") as f:
        proto.ParseFromString(f.read())
    vocab = [[p.piece, p.score] for p in proto.pieces]
    vocab += [[f"<extra_id_{i}>", 0.0] for i in range(EXTRA_IDS - 1, -1, -1)]
    specials = ["<pad>", "</s>", "<unk>"] + [f"<extra_id_{i}>" for i in range(EXTRA_IDS - 1, -1, -1)]
    ids = {piece: i for i, (piece, _) in enumerate(vocab)}
    added = [{"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for t in specials]
    added.sort(key=lambda a: a["id"])
    eos = ids["</s>"]
    charsmap = base64.b64encode(proto.normalizer_spec.precompiled_charsmap).decode("ascii")
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": charsmap},
            {"type": "Strip", "strip_left": False, "strip_right": True},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": "\u2581"},
        ]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                          "prepend_scheme": "always", "split": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "</s>", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 0}},
                     {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "special_tokens": {"</s>": {"id": "</s>", "ids": [eos], "tokens": ["</s>"]}},
        },
        "decoder": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always",
                    "split": True},
        "model": {"type": "Unigram", "unk_id": proto.trainer_spec.unk_id, "vocab": vocab,
                  "byte_fallback": False},
    }
    os.makedirs(os.path.join(SEQ2SEQ, "t5_json"), exist_ok=True)
    with open(os.path.join(SEQ2SEQ, "t5_json", "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
