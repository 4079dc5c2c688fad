#!/usr/bin/env node
// Lints source snippets as if they were files of this repository, with its eslint.config.mjs.
// Reads [{ filePath, code }] as JSON on stdin and writes [{ filePath, rules: [ruleId, ...] }] on stdout.
// A separate process because ESLint loads the flat config with import(), which jest's module sandbox
// does not support.
'use strict';
const path = require('path');
const { ESLint } = require('eslint');

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const snippets = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const eslint = new ESLint({ cwd: path.resolve(__dirname, '..', '..') });
  const results = [];
  for (const { filePath, code } of snippets) {
    const [result] = await eslint.lintText(code, { filePath });
    results.push({ filePath, rules: result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`) });
  }
  process.stdout.write(JSON.stringify(results));
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
