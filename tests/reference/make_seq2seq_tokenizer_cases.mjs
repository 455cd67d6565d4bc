#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// BART's tokenizer fixture, with the ids of Hugging Face's own JavaScript tokenizers. The C++
// tests read only the files written here; the program never needs node.
//
//     node tests/reference/make_seq2seq_tokenizer_cases.mjs [--npm-dir DIR]
//
// tokenizers/seq2seq/bart/vocab.json + merges.txt: a BART folder's byte-level BPE, cut from
//     GPT-2's (tokenizers/gpt2) to its first 2,000 merges, numbered as RoBERTa numbers them:
//     <s> 0, <pad> 1, </s> 2, <unk> 3, then the 256 byte symbols and the merges' tokens in
//     GPT-2's order, <mask> last.
// tokenizers/seq2seq/bart_cases.json: the ids of every text of cases.json (written by
//     make_seq2seq_tokenizer_fixtures.py) and seven that spell special tokens, through @huggingface/tokenizers' Tokenizer with a
//     tokenizer.json as facebook/bart-base ships it (ByteLevel pre-tokenizer and decoder,
//     RobertaProcessing adding <s> and </s>).
// tokenizers/seq2seq/t5_json_cases.json: the ids of every text of cases.json and of
//     special_cases.json (written by make_seq2seq_special_cases.py) through the same Tokenizer
//     with t5_json/tokenizer.json (written by make_t5_tokenizer_json.py): its added tokens
//     (<pad>, </s>, <unk>, the extra ids) are cut out of the text first.
// The output is deterministic.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GPT2 = path.join(HERE, 'tokenizers', 'gpt2');
const OUT = path.join(HERE, 'tokenizers', 'seq2seq');
const HF_PACKAGE = '@huggingface/tokenizers@0.2.0';
const MERGES = 2000;

function unpack(npmDir, spec) {
    const out = execFileSync('npm', ['pack', spec, '--silent'], { cwd: npmDir }).toString().trim();
    const tgz = out.split('\n').pop();
    const dir = path.join(npmDir, tgz.replace(/\.tgz$/, ''));
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', path.join(npmDir, tgz), '-C', dir]);
    return path.join(dir, 'package');
}

function bartFiles() {
    const gpt2 = JSON.parse(fs.readFileSync(path.join(GPT2, 'vocab.json'), 'utf8'));
    const lines = fs.readFileSync(path.join(GPT2, 'merges.txt'), 'utf8').split('\n');
    const merges = lines.filter((l) => l && !l.startsWith('#version')).slice(0, MERGES);
    const kept = new Set(Object.keys(gpt2).filter((t) => gpt2[t] < 256));
    for (const m of merges) kept.add(m.split(' ').join(''));
    const vocab = { '<s>': 0, '<pad>': 1, '</s>': 2, '<unk>': 3 };
    for (const token of [...kept].sort((a, b) => gpt2[a] - gpt2[b]))
        vocab[token] = Object.keys(vocab).length;
    vocab['<mask>'] = Object.keys(vocab).length;
    return { vocab, merges };
}

function tokenizerJson(vocab, merges) {
    const special = (content, id) => ({ id, content, single_word: false, lstrip: content === '<mask>',
        rstrip: false, normalized: content !== '<mask>', special: true });
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: [special('<s>', 0), special('<pad>', 1), special('</s>', 2),
            special('<unk>', 3), special('<mask>', vocab['<mask>'])],
        normalizer: null,
        pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true,
            use_regex: true },
        post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0],
            trim_offsets: true, add_prefix_space: false },
        decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true,
            use_regex: true },
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '',
            end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
    };
}

const argv = process.argv.slice(2);
const dirArg = argv.indexOf('--npm-dir');
const npmDir = dirArg >= 0 ? path.resolve(argv[dirArg + 1])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-hf-'));
fs.mkdirSync(npmDir, { recursive: true });
const hfDir = unpack(npmDir, HF_PACKAGE);
const { Tokenizer } = await import(pathToFileURL(path.join(hfDir, 'dist', 'tokenizers.mjs')).href);
const { vocab, merges } = bartFiles();
const bart = path.join(OUT, 'bart');
fs.mkdirSync(bart, { recursive: true });
fs.writeFileSync(path.join(bart, 'vocab.json'), JSON.stringify(vocab) + '\n');
fs.writeFileSync(path.join(bart, 'merges.txt'), '#version: 0.2\n' + merges.join('\n') + '\n');
const tokenizer = new Tokenizer(tokenizerJson(vocab, merges), {
    bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>',
    mask_token: '<mask>', add_prefix_space: false });
// The texts of cases.json, and special tokens spelled in the text, which BART's tokenizer reads
// as those tokens (<mask> also takes the spaces before it).
const texts = JSON.parse(fs.readFileSync(path.join(OUT, 'cases.json'), 'utf8')).cases
    .map((c) => c.text).concat(['<unk> </s> <pad> as text', '<s>x</s>', 'a <mask> b',
        'a<mask>b', '</s></s>', 'x <s', '<pad']);
const cases = texts.map((text) => ({ text, ids: tokenizer.encode(text).ids }));
fs.writeFileSync(path.join(OUT, 'bart_cases.json'), JSON.stringify({
    generator: `make_seq2seq_tokenizer_cases.mjs, ${HF_PACKAGE}`,
    vocab_size: Object.keys(vocab).length, cases }, null, 1) + '\n');
console.log(`bart: ${Object.keys(vocab).length} ids, ${cases.length} texts`);

const t5 = new Tokenizer(JSON.parse(fs.readFileSync(path.join(OUT, 't5_json', 'tokenizer.json'), 'utf8')),
    { eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>' });
const t5Texts = [OUT + '/cases.json', OUT + '/special_cases.json'].flatMap(
    (file) => JSON.parse(fs.readFileSync(file, 'utf8')).cases.map((c) => c.text));
const t5Cases = t5Texts.map((text) => ({ text, ids: t5.encode(text).ids }));
fs.writeFileSync(path.join(OUT, 't5_json_cases.json'), JSON.stringify({
    generator: `make_seq2seq_tokenizer_cases.mjs, ${HF_PACKAGE}`, cases: t5Cases }, null, 1) + '\n');
console.log(`t5 tokenizer.json: ${t5Cases.length} texts`);
