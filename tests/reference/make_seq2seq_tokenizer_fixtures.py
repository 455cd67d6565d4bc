#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tokenizer fixtures of the encoder-decoders, made with Google's own SentencePiece (Debian's
python3-sentencepiece) on text from Debian packages, with the ids Hugging Face's tokenizers give:

  tokenizers/seq2seq/marian/  source.spm (unigram, 300 pieces, on the GPL-3 text of
      /usr/share/common-licenses), target.spm (unigram, 520 pieces, on the first 120 lines of
      fortunes-zh's tang300, 98 % of the characters covered, so that rare ones are unknown),
      vocab.json as an opus-mt folder holds it: "</s>" 0, "<unk>" 1, the source's pieces, the
      target's not yet listed, "<pad>" last.
  tokenizers/seq2seq/t5/      spiece.model (unigram, 800 pieces, nmt_nfkc like T5's, on both
      texts) with T5's ids: <pad> 0, </s> 1, <unk> 2.
  tokenizers/seq2seq/cases.json  for every text of TEXTS:
      "marian_source", "marian_target": MarianTokenizer's ids (transformers' tokenization_marian:
          the spm's pieces as strings, each looked up in vocab.json, <unk> for one it lacks,
          then </s>), for text= and text_target= respectively;
      "t5": T5Tokenizer's (legacy) ids: the spm's own, then </s>.
  No text here spells a special token ("</s>"): make_seq2seq_special_cases.py writes those.
BART's fixture (vocab.json + merges.txt and its ids) is made by
make_seq2seq_tokenizer_cases.mjs with Hugging Face's own JavaScript tokenizers.

Run with Debian's interpreter (needs fortunes-zh):
    /usr/bin/python3 tests/reference/make_seq2seq_tokenizer_fixtures.py
Training runs on one thread, so the models and the ids are the same at every run.
"""
import io
import json
import os
import sys

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tokenizers", "seq2seq")
ENGLISH = "/usr/share/common-licenses/GPL-3"
CHINESE = "/usr/share/games/fortunes/tang300.u8"
CHINESE_LINES = 120  # the first poems: few enough characters for a small vocabulary

TEXTS = [
    "",
    " ",
    "Hello world",
    "The program is free software, and you can redistribute it.",
    "  leading and   inner   spaces  ",
    "Digits 0123456789 and punctuation: (a), [b]; {c}!?",
    "床前明月光，疑是地上霜。",
    "举头望明月，低头思故乡。",
    "Mixed 中文 and English 文本",
    "Emoji 🙂 and symbols ∑ ∞ ©",
    "１２３ ＡＢＣ full-width",
    "tab\tand\nnewline",
    "ünïcödé àccents",
    "a",
    "你",
]


def read_lines(path, limit=None):
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    return lines[:limit]


def train(lines, size, rule, **extra):
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, vocab_size=size,
        model_type="unigram", normalization_rule_name=rule, num_threads=1, minloglevel=2,
        character_coverage=0.98, **extra)
    return model.getvalue()


def marian_vocab(source, target):
    vocab = {"</s>": 0, "<unk>": 1}
    for sp in (source, target):
        for i in range(sp.get_piece_size()):
            piece = sp.id_to_piece(i)
            if piece not in ("<unk>", "<s>", "</s>") and piece not in vocab:
                vocab[piece] = len(vocab)
    vocab["<pad>"] = len(vocab)
    return vocab


def marian_ids(sp, vocab, text):
    return [vocab.get(p, vocab["<unk>"]) for p in sp.encode(text, out_type=str)] + [vocab["</s>"]]


def main():
    marian = os.path.join(OUT, "marian")
    t5 = os.path.join(OUT, "t5")
    os.makedirs(marian, exist_ok=True)
    os.makedirs(t5, exist_ok=True)
    english, chinese = read_lines(ENGLISH), read_lines(CHINESE, CHINESE_LINES)
    source_bytes = train(english, 300, "identity")
    target_bytes = train(chinese, 520, "identity")
    t5_bytes = train(english + chinese, 800, "nmt_nfkc", pad_id=0, eos_id=1, unk_id=2,
                     bos_id=-1)
    for folder, name, data in ((marian, "source.spm", source_bytes),
                               (marian, "target.spm", target_bytes),
                               (t5, "spiece.model", t5_bytes)):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    source = spm.SentencePieceProcessor(model_proto=source_bytes)
    target = spm.SentencePieceProcessor(model_proto=target_bytes)
    t5sp = spm.SentencePieceProcessor(model_proto=t5_bytes)
    vocab = marian_vocab(source, target)
    with open(os.path.join(marian, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False, indent=2)
        f.write("\n")
    cases = []
    for text in TEXTS:
        cases.append({"text": text,
                      "marian_source": marian_ids(source, vocab, text),
                      "marian_target": marian_ids(target, vocab, text),
                      "t5": t5sp.encode(text) + [t5sp.piece_to_id("</s>")]})
    with open(os.path.join(OUT, "cases.json"), "w", encoding="utf-8") as f:
        json.dump({"generator": f"make_seq2seq_tokenizer_fixtures.py, sentencepiece "
                                f"{spm.__version__}",
                   "marian_vocab_size": len(vocab), "t5_pieces": t5sp.get_piece_size(),
                   "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"marian: {len(vocab)} ids; t5: {t5sp.get_piece_size()} pieces; {len(cases)} texts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
