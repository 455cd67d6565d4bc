// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the npm package gpt-3-encoder (OpenAI's GPT-2 encoder.py ported to JavaScript, with
// GPT-2's own vocabulary) over the cases: node gpt2_reference.js <package dir> <cases.json>
// prints [{"text": ..., "ids": [...]}, ...] as JSON.
const path = require('path');
const fs = require('fs');
const encoder = require(path.resolve(process.argv[2], 'Encoder.js'));
const cases = JSON.parse(fs.readFileSync(process.argv[3], 'utf-8'));
const out = cases.map(text => ({text, ids: encoder.encode(text)}));
process.stdout.write(JSON.stringify(out));
