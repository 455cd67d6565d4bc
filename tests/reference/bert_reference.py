#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference BERT tokenizer: a plain-Python port of Hugging Face transformers' slow
BertTokenizer (tokenization_bert.py: BasicTokenizer + WordpieceTokenizer) together with the
parts of PreTrainedTokenizer.tokenize that BertTokenizer runs (lower-casing pass that spares
special tokens, then cutting special tokens out of the text).

Written independently of the C++ in core/tokenize/ to check it: it uses Python's own
unicodedata and str methods. Only the standard library is needed.
"""
import re
import unicodedata


def load_vocab(path):
    vocab = {}
    with open(path, encoding='utf-8') as f:
        for index, token in enumerate(f.readlines()):
            vocab[token.rstrip('\n')] = index
    return vocab


def whitespace_tokenize(text):
    text = text.strip()
    if not text:
        return []
    return text.split()


def _is_whitespace(char):
    if char in (' ', '\t', '\n', '\r'):
        return True
    return unicodedata.category(char) == 'Zs'


def _is_control(char):
    if char in ('\t', '\n', '\r'):
        return False
    return unicodedata.category(char).startswith('C')


def _is_punctuation(char):
    cp = ord(char)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(char).startswith('P')


class BasicTokenizer:
    def __init__(self, do_lower_case=True, never_split=None, tokenize_chinese_chars=True,
                 strip_accents=None, do_split_on_punc=True):
        self.do_lower_case = do_lower_case
        self.never_split = set(never_split or [])
        self.tokenize_chinese_chars = tokenize_chinese_chars
        self.strip_accents = strip_accents
        self.do_split_on_punc = do_split_on_punc

    def tokenize(self, text, never_split=None):
        never_split = self.never_split.union(set(never_split)) if never_split else self.never_split
        text = self._clean_text(text)
        if self.tokenize_chinese_chars:
            text = self._tokenize_chinese_chars(text)
        text = unicodedata.normalize('NFC', text)
        split_tokens = []
        for token in whitespace_tokenize(text):
            if token not in never_split:
                if self.do_lower_case:
                    token = token.lower()
                    if self.strip_accents is not False:
                        token = self._run_strip_accents(token)
                elif self.strip_accents:
                    token = self._run_strip_accents(token)
            split_tokens.extend(self._run_split_on_punc(token, never_split))
        return whitespace_tokenize(' '.join(split_tokens))

    def _run_strip_accents(self, text):
        text = unicodedata.normalize('NFD', text)
        return ''.join(c for c in text if unicodedata.category(c) != 'Mn')

    def _run_split_on_punc(self, text, never_split=None):
        if not self.do_split_on_punc or (never_split is not None and text in never_split):
            return [text]
        output = []
        start_new_word = True
        for char in text:
            if _is_punctuation(char):
                output.append([char])
                start_new_word = True
            else:
                if start_new_word:
                    output.append([])
                start_new_word = False
                output[-1].append(char)
        return [''.join(x) for x in output]

    def _tokenize_chinese_chars(self, text):
        out = []
        for char in text:
            if self._is_chinese_char(ord(char)):
                out += [' ', char, ' ']
            else:
                out.append(char)
        return ''.join(out)

    @staticmethod
    def _is_chinese_char(cp):
        return ((0x4E00 <= cp <= 0x9FFF) or (0x3400 <= cp <= 0x4DBF) or
                (0x20000 <= cp <= 0x2A6DF) or (0x2A700 <= cp <= 0x2B73F) or
                (0x2B740 <= cp <= 0x2B81F) or (0x2B820 <= cp <= 0x2CEAF) or
                (0xF900 <= cp <= 0xFAFF) or (0x2F800 <= cp <= 0x2FA1F))

    def _clean_text(self, text):
        out = []
        for char in text:
            cp = ord(char)
            if cp == 0 or cp == 0xFFFD or _is_control(char):
                continue
            out.append(' ' if _is_whitespace(char) else char)
        return ''.join(out)


class WordpieceTokenizer:
    def __init__(self, vocab, unk_token, max_input_chars_per_word=100):
        self.vocab = vocab
        self.unk_token = unk_token
        self.max_input_chars_per_word = max_input_chars_per_word

    def tokenize(self, text):
        output_tokens = []
        for token in whitespace_tokenize(text):
            chars = list(token)
            if len(chars) > self.max_input_chars_per_word:
                output_tokens.append(self.unk_token)
                continue
            is_bad = False
            start = 0
            sub_tokens = []
            while start < len(chars):
                end = len(chars)
                cur_substr = None
                while start < end:
                    substr = ''.join(chars[start:end])
                    if start > 0:
                        substr = '##' + substr
                    if substr in self.vocab:
                        cur_substr = substr
                        break
                    end -= 1
                if cur_substr is None:
                    is_bad = True
                    break
                sub_tokens.append(cur_substr)
                start = end
            if is_bad:
                output_tokens.append(self.unk_token)
            else:
                output_tokens.extend(sub_tokens)
        return output_tokens


SPECIAL_TOKENS = ['[UNK]', '[SEP]', '[PAD]', '[CLS]', '[MASK]']


def split_on_special_tokens(text, specials):
    """PreTrainedTokenizer's trie split: cut every occurrence of a special token out of the
    text (earliest start first, longest token first at that start)."""
    parts = []
    start = 0
    i = 0
    ordered = sorted(specials, key=len, reverse=True)
    while i < len(text):
        hit = next((s for s in ordered if text.startswith(s, i)), None)
        if hit is None:
            i += 1
            continue
        parts.append(text[start:i])
        parts.append(hit)
        i += len(hit)
        start = i
    parts.append(text[start:])
    return [p for p in parts if p]


class BertTokenizer:
    def __init__(self, vocab_file, do_lower_case=True, tokenize_chinese_chars=True,
                 strip_accents=None):
        self.vocab = load_vocab(vocab_file)
        self.do_lower_case = do_lower_case
        self.basic_tokenizer = BasicTokenizer(do_lower_case=do_lower_case,
                                              tokenize_chinese_chars=tokenize_chinese_chars,
                                              strip_accents=strip_accents)
        self.wordpiece_tokenizer = WordpieceTokenizer(self.vocab, '[UNK]')

    def tokenize(self, text):
        if self.do_lower_case:
            # PreTrainedTokenizer.tokenize: lower-case everything but special tokens. The
            # pattern's (.+?) hands lower() one character at a time.
            escaped = [re.escape(s) for s in SPECIAL_TOKENS]
            pattern = r'(' + r'|'.join(escaped) + r')|' + r'(.+?)'
            text = re.sub(pattern, lambda m: m.groups()[0] or m.groups()[1].lower(), text,
                          flags=re.DOTALL)
        tokens = []
        for chunk in split_on_special_tokens(text, SPECIAL_TOKENS):
            if chunk in SPECIAL_TOKENS:
                tokens.append(chunk)
                continue
            for token in self.basic_tokenizer.tokenize(chunk, never_split=SPECIAL_TOKENS):
                if token in self.basic_tokenizer.never_split:
                    tokens.append(token)
                else:
                    tokens.extend(self.wordpiece_tokenizer.tokenize(token))
        return tokens

    def encode(self, text):
        unk = self.vocab['[UNK]']
        ids = [self.vocab.get(t, unk) for t in self.tokenize(text)]
        return [self.vocab['[CLS]']] + ids + [self.vocab['[SEP]']]
