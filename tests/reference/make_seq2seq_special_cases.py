#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ids of texts that spell special tokens, for the Marian and T5 fixtures that
make_seq2seq_tokenizer_fixtures.py wrote (tokenizers/seq2seq/marian, tokenizers/seq2seq/t5).

transformers' slow tokenizers (MarianTokenizer; T5Tokenizer, legacy) first cut the text at the
special tokens it spells (PreTrainedTokenizer.tokenize, its Trie: leftmost match, the longest
where several start there), each read as its id; every stretch between them goes to _tokenize:
  Marian  a stretch that starts with ">>" has everything up to the first "<<" as one token (a
          language code, remove_language_code), the rest through the spm; each piece looked up in
          vocab.json, <unk> for one it lacks; specials: </s>, <unk>, <pad>.
  T5      the spm's own ids; specials: <pad>, </s>, <unk>, <extra_id_0> ... <extra_id_99>.
Then </s>. The spaces beside a special token do not change the ids: each stretch goes through
the spm, whose normalizer drops the spaces at its ends. transformers is not in Debian 12, so
these rules are written out here from its source; the T5 ids of the same texts through Hugging
Face's own JavaScript tokenizers (make_seq2seq_tokenizer_cases.mjs, t5_json_cases.json) check
them from the other side.

Writes tokenizers/seq2seq/special_cases.json. Run with Debian's interpreter:
    /usr/bin/python3 tests/reference/make_seq2seq_special_cases.py
"""
import json
import os
import sys

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))
SEQ2SEQ = os.path.join(HERE, "tokenizers", "seq2seq")
T5_EXTRA_IDS = 100

TEXTS = [
    "</s>",
    "a</s>b",
    "Hello </s> world",
    "<pad> x <unk>",
    "</s></s>",
    "x </s",
    "<pad",
    "free software</s> and <unk>.",
    ">>fra<< Hello world",
    ">>zho<<床前明月光",
    "Hello >>fra<< world",
    ">>fra<<",
    "</s>>>fra<< x",
    ">>fra",
    " >>fra<< leading space",
    "Hello <extra_id_0> world",
    "<extra_id_99>x<extra_id_1>",
    "<extra_id_100>",
    "  <extra_id_0>  lead",
    "<extra_id_05>",
    "床前<extra_id_3>明月光</s>",
]


def cut(text, specials):
    """The text as stretches and special tokens: [(is_special, string)]."""
    out, start = [], 0
    while True:
        best = None
        for s in specials:
            at = text.find(s, start)
            if at >= 0 and (best is None or at < best[0] or (at == best[0] and len(s) > len(best[1]))):
                best = (at, s)
        if best is None:
            out.append((False, text[start:]))
            return out
        out.append((False, text[start:best[0]]))
        out.append((True, best[1]))
        start = best[0] + len(best[1])


def marian_ids(sp, vocab, text):
    unk = vocab["<unk>"]
    ids = []
    for special, part in cut(text, ["</s>", "<unk>", "<pad>"]):
        if special:
            ids.append(vocab[part])
            continue
        if part.startswith(">>") and part.find("<<") != -1:
            end = part.find("<<") + 2
            ids.append(vocab.get(part[:end], unk))
            part = part[end:]
        ids += [vocab.get(p, unk) for p in sp.encode(part, out_type=str)]
    return ids + [vocab["</s>"]]


def t5_ids(sp, text):
    size = sp.get_piece_size()
    extra = {f"<extra_id_{k}>": size + T5_EXTRA_IDS - 1 - k for k in range(T5_EXTRA_IDS)}
    ids = []
    for special, part in cut(text, ["<pad>", "</s>", "<unk>"] + list(extra)):
        ids += ([extra[part] if part in extra else sp.piece_to_id(part)] if special
                else sp.encode(part))
    return ids + [sp.piece_to_id("</s>")]


def main():
    marian = os.path.join(SEQ2SEQ, "marian")
    source = spm.SentencePieceProcessor(model_file=os.path.join(marian, "source.spm"))
    target = spm.SentencePieceProcessor(model_file=os.path.join(marian, "target.spm"))
    t5 = spm.SentencePieceProcessor(model_file=os.path.join(SEQ2SEQ, "t5", "spiece.model"))
    with open(os.path.join(marian, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    cases = [{"text": text,
              "marian_source": marian_ids(source, vocab, text),
              "marian_target": marian_ids(target, vocab, text),
              "t5": t5_ids(t5, text)} for text in TEXTS]
    with open(os.path.join(SEQ2SEQ, "special_cases.json"), "w", encoding="utf-8") as f:
        json.dump({"generator": f"make_seq2seq_special_cases.py, sentencepiece {spm.__version__}",
                   "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(cases)} texts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
