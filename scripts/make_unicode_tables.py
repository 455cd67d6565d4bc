#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate core/tokenize/unicode_tables.cpp from Python's unicodedata.

Run with /usr/bin/python3 (the system interpreter) from the repository root:
    /usr/bin/python3 scripts/make_unicode_tables.py

The tokenizers need, per code point:
  - general-category classes: L* and N* (GPT-2's \\p{L} / \\p{N}); P*, C*, Zs and Mn (BERT's
    BasicTokenizer);
  - White_Space (the \\s of Python's `regex` module that GPT-2's pre-tokenizer was written for)
    and str.isspace() (what str.split() splits on, in BERT's whitespace_tokenize);
  - canonical decompositions (full, recursive), canonical combining classes and the canonical
    composition pairs, for NFD (accent stripping) and NFC (BasicTokenizer normalises to NFC);
  - Python's str.lower() per character, plus the Cased / Case_Ignorable sets that str.lower()
    uses for the Greek final sigma.
Everything comes from the interpreter's own unicodedata / str methods, so the C++ agrees with
a Python port run by the same interpreter. The script checks its NFD/NFC tables against
unicodedata.normalize before writing.
"""
import os
import sys
import unicodedata

MAX = 0x110000
# PropList.txt White_Space (stable since Unicode 6.3); unicodedata has no accessor for it.
WHITE_SPACE = [(0x9, 0xD), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680),
               (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F),
               (0x3000, 0x3000)]
SBASE, LBASE, VBASE, TBASE = 0xAC00, 0x1100, 0x1161, 0x11A7
LCOUNT, VCOUNT, TCOUNT = 19, 21, 28
NCOUNT = VCOUNT * TCOUNT
SCOUNT = LCOUNT * NCOUNT


def ranges(pred):
    out = []
    start = None
    for cp in range(MAX):
        if pred(cp):
            if start is None:
                start = cp
        elif start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, MAX - 1))
    return out


def cat(cp):
    return unicodedata.category(chr(cp))


def is_hangul_syllable(cp):
    return SBASE <= cp < SBASE + SCOUNT


def one_level(cp):
    d = unicodedata.decomposition(chr(cp))
    if not d or d.startswith('<'):
        return None
    return [int(x, 16) for x in d.split()]


def full_decomposition(cp):
    d = one_level(cp)
    if d is None:
        return [cp]
    out = []
    for c in d:
        out.extend(full_decomposition(c))
    return out


def hangul_decompose(cp):
    s = cp - SBASE
    out = [LBASE + s // NCOUNT, VBASE + (s % NCOUNT) // TCOUNT]
    if s % TCOUNT:
        out.append(TBASE + s % TCOUNT)
    return out


def ccc(cp):
    return unicodedata.combining(chr(cp))


def nfd(s):
    out = []
    for ch in s:
        cp = ord(ch)
        out.extend(hangul_decompose(cp) if is_hangul_syllable(cp) else decomp.get(cp, [cp]))
    # canonical ordering (stable sort of each run of non-starters by class)
    i = 0
    while i < len(out):
        if ccc(out[i]) == 0:
            i += 1
            continue
        j = i
        while j < len(out) and ccc(out[j]) != 0:
            j += 1
        out[i:j] = sorted(out[i:j], key=ccc)
        i = j
    return out


def nfc(s):
    result = []
    starter = None  # index in result of the last starter (combining class 0)
    for cp in nfd(s):
        c = ccc(cp)
        if starter is not None:
            blocked = len(result) - 1 > starter and ccc(result[-1]) >= c
            if not blocked:
                a = result[starter]
                composed = None
                if LBASE <= a < LBASE + LCOUNT and VBASE <= cp < VBASE + VCOUNT:
                    composed = SBASE + ((a - LBASE) * VCOUNT + (cp - VBASE)) * TCOUNT
                elif is_hangul_syllable(a) and (a - SBASE) % TCOUNT == 0 and \
                        TBASE < cp < TBASE + TCOUNT:
                    composed = a + (cp - TBASE)
                else:
                    composed = compose.get((a, cp))
                if composed is not None:
                    result[starter] = composed
                    continue
        if c == 0:
            starter = len(result)
        result.append(cp)
    return ''.join(map(chr, result))


decomp = {}
for cp in range(MAX):
    if is_hangul_syllable(cp):
        continue
    d = full_decomposition(cp)
    if d != [cp]:
        decomp[cp] = d

compose = {}
for cp in range(MAX):
    if is_hangul_syllable(cp):
        continue
    d = one_level(cp)
    if d is None or len(d) != 2:
        continue
    if unicodedata.normalize('NFC', chr(cp)) != chr(cp):
        continue  # composition exclusion, singleton or non-starter decomposition
    compose[(d[0], d[1])] = cp


def check():
    bad = 0
    for cp in range(MAX):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        s = chr(cp)
        if ''.join(map(chr, nfd(s))) != unicodedata.normalize('NFD', s):
            bad += 1
        if nfc(s) != unicodedata.normalize('NFC', s):
            bad += 1
    samples = ['e\u0301', 'A\u030a', '\u212b', 'a\u0323\u0302', 'a\u0302\u0323', '\u1100\u1161\u11a8',
               'o\u0308\u0304', 'n\u0303\u0300', 'Ångström', 'café naïve résumé', '\u0344\u0301',
               '\u0fb2\u0f80\u0f71', 'ḍ̇', '\u1e0b\u0323', 'q\u0307\u0323']
    for s in samples:
        if nfc(s) != unicodedata.normalize('NFC', s) or \
           ''.join(map(chr, nfd(s))) != unicodedata.normalize('NFD', s):
            print('mismatch on', ascii(s), file=sys.stderr)
            bad += 1
    if bad:
        sys.exit(f'{bad} normalisation mismatches: tables or algorithm wrong')


check()

lower = {}
for cp in range(MAX):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    low = chr(cp).lower()
    if low != chr(cp):
        lower[cp] = [ord(c) for c in low]


# Probe str.lower()'s Final_Sigma rule (see the C++ header): for a character c,
# "c\u03a3" lowers to a final sigma iff c is cased and not case-ignorable, and
# "Ac\u03a3" does iff c is case-ignorable or cased.
cased_not_ignorable = set()
ignorable = set()
for cp in range(MAX):
    if 0xD800 <= cp <= 0xDFFF or cp == 0x3A3:
        continue
    c = chr(cp)
    p2 = (c + '\u03a3').lower().endswith('\u03c2')
    p3 = ('A' + c + '\u03a3').lower().endswith('\u03c2')
    if p2:
        cased_not_ignorable.add(cp)
    elif p3:
        ignorable.add(cp)
# Sigma itself is cased and not case-ignorable.
cased_not_ignorable.add(0x3A3)


def emit_ranges(name, rs):
    lines = [f'const Range {name}[] = {{']
    row = []
    for lo, hi in rs:
        row.append(f'{{0x{lo:X}, 0x{hi:X}}}')
        if len(row) == 6:
            lines.append('    ' + ', '.join(row) + ',')
            row = []
    if row:
        lines.append('    ' + ', '.join(row) + ',')
    lines.append('};')
    return '\n'.join(lines)


def emit_map(name, pool_name, mapping):
    entries = []
    pool = []
    for cp in sorted(mapping):
        seq = mapping[cp]
        entries.append(f'{{0x{cp:X}, {len(pool)}, {len(seq)}}}')
        pool.extend(seq)
    out = [f'const char32_t {pool_name}[] = {{']
    for i in range(0, len(pool), 10):
        out.append('    ' + ', '.join(f'0x{c:X}' for c in pool[i:i + 10]) + ',')
    out.append('};')
    out.append(f'const MapEntry {name}[] = {{')
    for i in range(0, len(entries), 5):
        out.append('    ' + ', '.join(entries[i:i + 5]) + ',')
    out.append('};')
    return '\n'.join(out)


def emit_ccc():
    rs = []
    start = None
    prev = 0
    for cp in range(MAX + 1):
        c = ccc(cp) if cp < MAX else 0
        if start is not None and (c != prev or cp == MAX):
            rs.append((start, cp - 1, prev))
            start = None
        if c != 0 and start is None:
            start = cp
        prev = c
    out = ['const ClassRange kCombiningClass[] = {']
    for i in range(0, len(rs), 5):
        out.append('    ' + ', '.join(f'{{0x{a:X}, 0x{b:X}, {c}}}' for a, b, c in rs[i:i + 5]) + ',')
    out.append('};')
    return '\n'.join(out)


def emit_compose():
    out = ['const Composition kCompositions[] = {']
    items = sorted(compose.items())
    for i in range(0, len(items), 4):
        out.append('    ' + ', '.join(f'{{0x{a:X}, 0x{b:X}, 0x{c:X}}}' for (a, b), c in items[i:i + 4]) + ',')
    out.append('};')
    return '\n'.join(out)


def set_ranges(s):
    return ranges(lambda cp: cp in s)


parts = [
    '// clang-format off',
    '// GENERATED by scripts/make_unicode_tables.py from Python\'s unicodedata '
    f'(Unicode {unicodedata.unidata_version}). Do not edit.',
    '#include "core/tokenize/unicode_tables_data.h"',
    '',
    'namespace attn::tok::unicode::data {',
    '',
    f'const char* const kUnicodeVersion = "{unicodedata.unidata_version}";',
    '',
    emit_ranges('kLetter', ranges(lambda cp: cat(cp).startswith('L'))),
    emit_ranges('kNumber', ranges(lambda cp: cat(cp).startswith('N'))),
    emit_ranges('kPunctuation', ranges(lambda cp: cat(cp).startswith('P'))),
    emit_ranges('kOther', ranges(lambda cp: cat(cp).startswith('C'))),
    emit_ranges('kSpaceSeparator', ranges(lambda cp: cat(cp) == 'Zs')),
    emit_ranges('kNonspacingMark', ranges(lambda cp: cat(cp) == 'Mn')),
    emit_ranges('kWhiteSpace', WHITE_SPACE),
    emit_ranges('kPythonSpace', ranges(lambda cp: chr(cp).isspace())),
    emit_ranges('kCasedNotIgnorable', set_ranges(cased_not_ignorable)),
    emit_ranges('kCaseIgnorable', set_ranges(ignorable)),
    emit_ccc(),
    emit_map('kDecomposition', 'kDecompositionPool', decomp),
    emit_compose(),
    emit_map('kLower', 'kLowerPool', lower),
]
names = ['kLetter', 'kNumber', 'kPunctuation', 'kOther', 'kSpaceSeparator', 'kNonspacingMark',
         'kWhiteSpace', 'kPythonSpace', 'kCasedNotIgnorable', 'kCaseIgnorable']
for n in names:
    parts.append(f'const std::size_t {n}Size = sizeof({n}) / sizeof({n}[0]);')
for n in ['kCombiningClass', 'kDecomposition', 'kCompositions', 'kLower']:
    parts.append(f'const std::size_t {n}Size = sizeof({n}) / sizeof({n}[0]);')
parts += ['', '}  // namespace attn::tok::unicode::data', '']

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = os.path.join(root, 'core', 'tokenize', 'unicode_tables_data.cpp')
with open(path, 'w', encoding='utf-8') as f:
    f.write('\n'.join(parts))
print(f'wrote {path}: {len(decomp)} decompositions, {len(compose)} compositions, '
      f'{len(lower)} lower-case mappings, Unicode {unicodedata.unidata_version}')
